/**
 * One list of a configuration's rate adjustments — early bird (from N days before arrival), last minute (until N days
 * before), long stay (from N nights) — as rows of a threshold and a percentage (negative: a discount).
 */
import { Button, Fieldset, Group, NumberInput, Stack, Text } from '@mantine/core';
import type { Adjustment } from '../api/json-columns';

export interface AdjustmentListProps<Threshold extends string> {
  legend: string;
  threshold: Threshold;
  /** The threshold's label, e.g. "From days before arrival". */
  thresholdLabel: string;
  value: Adjustment<Threshold>[];
  onChange: (value: Adjustment<Threshold>[]) => void;
  readOnly: boolean;
}

export function AdjustmentList<Threshold extends string>({ legend, threshold, thresholdLabel, value, onChange, readOnly }: AdjustmentListProps<Threshold>) {
  const change = (index: number, row: Adjustment<Threshold>) => onChange(value.map((old, at) => (at === index ? row : old)));
  const row = (days: number, percentage: number) => ({ [threshold]: days, percentage }) as Adjustment<Threshold>;
  return (
    <Fieldset legend={legend}>
      <Stack gap="xs">
        {value.length === 0 && <Text size="sm" c="dimmed">None.</Text>}
        {value.map((adjustment, index) => (
          <Group key={index} align="flex-end" gap="xs">
            <NumberInput size="xs" w={170} label={thresholdLabel} min={0} readOnly={readOnly} value={adjustment[threshold] as number}
              onChange={(days) => change(index, row(Number(days) || 0, adjustment.percentage))} />
            <NumberInput size="xs" w={170} label="Percentage (− discount)" min={-100} readOnly={readOnly} value={adjustment.percentage}
              onChange={(percentage) => change(index, row(adjustment[threshold] as number, Number(percentage) || 0))} />
            {!readOnly && (
              <Button size="xs" variant="subtle" color="red" aria-label={`Remove ${legend.toLowerCase()} ${index + 1}`}
                onClick={() => onChange(value.filter((_, at) => at !== index))}>Remove</Button>
            )}
          </Group>
        ))}
        {!readOnly && (
          <Button size="xs" variant="light" w="fit-content" aria-label={`Add ${legend.toLowerCase()}`}
            onClick={() => onChange([...value, row(0, 0)])}>Add</Button>
        )}
      </Stack>
    </Fieldset>
  );
}
