/**
 * One list of a configuration's rate adjustments — early bird (from N days before arrival), last minute (until N days
 * before), long stay (from N nights) — as rows of a threshold and a percentage (negative: a discount).
 */
import { Button, Fieldset, Group, NumberInput, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { Adjustment } from '../api/json-columns';
import type { unitsMessages } from './messages';

/** The three lists (early bird, last minute, long stay), each with its own words: the legend, the threshold's label. */
export type AdjustmentKind = keyof typeof unitsMessages.en.adjustments.kinds;

export interface AdjustmentListProps<Threshold extends string> {
  kind: AdjustmentKind;
  threshold: Threshold;
  value: Adjustment<Threshold>[];
  onChange: (value: Adjustment<Threshold>[]) => void;
  readOnly: boolean;
}

export function AdjustmentList<Threshold extends string>({ kind, threshold, value, onChange, readOnly }: AdjustmentListProps<Threshold>) {
  const { t } = useTranslation(['units', 'common']);
  const change = (index: number, row: Adjustment<Threshold>) => onChange(value.map((old, at) => (at === index ? row : old)));
  const row = (days: number, percentage: number) => ({ [threshold]: days, percentage }) as Adjustment<Threshold>;
  return (
    <Fieldset legend={t(`adjustments.kinds.${kind}.legend`)}>
      <Stack gap="xs">
        {value.length === 0 && <Text size="sm" c="dimmed">{t('adjustments.none')}</Text>}
        {value.map((adjustment, index) => (
          <Group key={index} align="flex-end" gap="xs">
            <NumberInput size="xs" w={170} label={t(`adjustments.kinds.${kind}.threshold`)} min={0} readOnly={readOnly} value={adjustment[threshold] as number}
              onChange={(days) => change(index, row(Number(days) || 0, adjustment.percentage))} />
            <NumberInput size="xs" w={170} label={t('adjustments.percentage')} min={-100} readOnly={readOnly} value={adjustment.percentage}
              onChange={(percentage) => change(index, row(adjustment[threshold] as number, Number(percentage) || 0))} />
            {!readOnly && (
              <Button size="xs" variant="subtle" color="red" aria-label={t(`adjustments.kinds.${kind}.remove`, { number: index + 1 })}
                onClick={() => onChange(value.filter((_, at) => at !== index))}>{t('common:remove')}</Button>
            )}
          </Group>
        ))}
        {!readOnly && (
          <Button size="xs" variant="light" w="fit-content" aria-label={t(`adjustments.kinds.${kind}.add`)}
            onClick={() => onChange([...value, row(0, 0)])}>{t('common:add')}</Button>
        )}
      </Stack>
    </Fieldset>
  );
}
