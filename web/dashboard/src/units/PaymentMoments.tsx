/**
 * The payment moments of one service (`service_payment_moments`): when a share of the booking's total is due. A unit
 * whose services have none is paid in full at confirmation (docs/payments.md#schedules).
 */
import { useState } from 'react';
import { Button, Group, NumberInput, Popover, Select, Stack, Text } from '@mantine/core';
import { database, rowsOf } from '../api/database';
import type { Moment } from '../api/json-columns';
import { ErrorAlert } from '../common/ErrorAlert';
import { useLoad } from '../common/use-load';
import { useWorkspace } from '../shell/context';
import { labelOf, PAYMENT_MOMENTS } from './service-kinds';

export function PaymentMoments({ serviceId, serviceName }: { serviceId: string; serviceName: string }) {
  const { can } = useWorkspace();
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
      <ErrorAlert error={moments.error ?? error} title="Payment moments" />
      {moments.data?.length === 0 && <Text size="sm">at confirmation</Text>}
      {moments.data?.map((row) => (
        <Group key={row.id} gap={4} wrap="nowrap">
          <Text size="sm">{row.value.type === 'percentage' ? `${row.value.value} %` : row.value.value}, {row.moment.offset} {labelOf(PAYMENT_MOMENTS, row.moment.type)}</Text>
          {mayWrite && <Button size="compact-xs" variant="subtle" color="red" aria-label={`Remove payment moment of ${serviceName}`}
            onClick={() => void write(() => database.from('service_payment_moments').delete().eq('id', row.id))}>Remove</Button>}
        </Group>
      ))}
      {mayWrite && (
        <Popover trapFocus withArrow>
          <Popover.Target><Button size="compact-xs" variant="light" w="fit-content" aria-label={`Add payment moment to ${serviceName}`}>Add payment moment</Button></Popover.Target>
          <Popover.Dropdown>
            <Stack gap="xs">
              <NumberInput size="xs" label="Percentage of the total" min={0} max={100} value={percentage} onChange={setPercentage} />
              <NumberInput size="xs" label="Days (negative: before)" value={offset} onChange={setOffset} />
              <Select size="xs" label="Counted" data={PAYMENT_MOMENTS.map(({ value, label }) => ({ value, label }))} value={type} allowDeselect={false}
                onChange={(value) => value && setType(value as Moment['type'])} comboboxProps={{ withinPortal: false }} />
              <Button size="xs" onClick={() => void write(() => database.from('service_payment_moments').insert({
                service_id: serviceId, moment: { type, offset: Number(offset) || 0 }, value: { type: 'percentage', value: Number(percentage) || 0 },
              }))}>Add</Button>
            </Stack>
          </Popover.Dropdown>
        </Popover>
      )}
    </Stack>
  );
}
