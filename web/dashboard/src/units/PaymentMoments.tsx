/**
 * The payment moments of one service (`service_payment_moments`): when a share of the booking's total is due. A unit
 * whose services have none is paid in full at confirmation (docs/payments.md#schedules).
 */
import { useState } from 'react';
import { Button, Group, NumberInput, Popover, Select, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { database, rowsOf } from '../api/database';
import type { Moment } from '../api/json-columns';
import { ErrorAlert } from '../common/ErrorAlert';
import { useLoad } from '../common/use-load';
import { useWorkspace } from '../shell/context';
import { PAYMENT_MOMENTS } from './service-kinds';

export function PaymentMoments({ serviceId, serviceName }: { serviceId: string; serviceName: string }) {
  const { can } = useWorkspace();
  const { t } = useTranslation(['units', 'common']);
  const moments = useLoad(async () => can('service_payment_moments')
    ? rowsOf(await database.from('service_payment_moments').select('id,moment,value').eq('service_id', serviceId).order('created_at'))
    : null, [serviceId, can]);
  const [type, setType] = useState<Moment['type']>('check-in');
  const [offset, setOffset] = useState<number | string>(-14);
  const [percentage, setPercentage] = useState<number | string>(100);
  const [error, setError] = useState<unknown>(null);
  const mayWrite = can('service_payment_moments', 'write');

  const write = async (action: () => PromiseLike<Parameters<typeof rowsOf>[0]>) => {
    setError(null);
    try {
      rowsOf(await action());
      moments.reload();
    } catch (failure) {
      setError(failure);
    }
  };
  if (moments.data === null) return <Text size="sm" c="dimmed">—</Text>;
  return (
    <Stack gap={4}>
      <ErrorAlert error={moments.error ?? error} title={t('paymentMoments.title')} />
      {moments.data?.length === 0 && <Text size="sm">{t('paymentMoments.atConfirmation')}</Text>}
      {moments.data?.map((row) => (
        <Group key={row.id} gap={4} wrap="nowrap">
          <Text size="sm">{t('paymentMoments.moment', {
            share: row.value.type === 'percentage' ? t('paymentMoments.percent', { value: row.value.value }) : row.value.value,
            offset: row.moment.offset, when: t(`paymentMoments.moments.${row.moment.type}`),
          })}</Text>
          {mayWrite && <Button size="compact-xs" variant="subtle" color="red" aria-label={t('paymentMoments.removeOf', { service: serviceName })}
            onClick={() => void write(() => database.from('service_payment_moments').delete().eq('id', row.id))}>{t('common:remove')}</Button>}
        </Group>
      ))}
      {mayWrite && (
        <Popover trapFocus withArrow>
          <Popover.Target><Button size="compact-xs" variant="light" w="fit-content" aria-label={t('paymentMoments.addTo', { service: serviceName })}>{t('paymentMoments.add')}</Button></Popover.Target>
          <Popover.Dropdown>
            <Stack gap="xs">
              <NumberInput size="xs" label={t('paymentMoments.percentage')} min={0} max={100} value={percentage} onChange={setPercentage} />
              <NumberInput size="xs" label={t('paymentMoments.days')} value={offset} onChange={setOffset} />
              <Select size="xs" label={t('paymentMoments.counted')} data={PAYMENT_MOMENTS.map((value) => ({ value, label: t(`paymentMoments.moments.${value}`) }))} value={type} allowDeselect={false}
                onChange={(value) => value && setType(value as Moment['type'])} comboboxProps={{ withinPortal: false }} />
              <Button size="xs" onClick={() => void write(() => database.from('service_payment_moments').insert({
                service_id: serviceId, moment: { type, offset: Number(offset) || 0 }, value: { type: 'percentage', value: Number(percentage) || 0 },
              }))}>{t('common:add')}</Button>
            </Stack>
          </Popover.Dropdown>
        </Popover>
      )}
    </Stack>
  );
}
