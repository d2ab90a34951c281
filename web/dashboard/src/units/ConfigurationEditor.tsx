/**
 * One configuration of a unit, edited whole: when it applies (periods, priority), the stay rules (minimum and maximum
 * stay, check-in and check-out days, how far ahead), the base rates by stay length and guests, and the early-bird,
 * last-minute and long-stay adjustments. A new configuration is inserted, an existing one updated or deleted; the
 * database checks every rule and its refusal is shown.
 */
import { useState } from 'react';
import { Button, Card, Checkbox, ColorInput, Fieldset, Group, NumberInput, SimpleGrid, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { DatePickerInput } from '@mantine/dates';
import { database, rowsOf } from '../api/database';
import { ConfirmButton } from '../common/ConfirmButton';
import { ErrorAlert } from '../common/ErrorAlert';
import { localized } from '../common/format';
import { useWorkspace } from '../shell/context';
import { AdjustmentList } from './AdjustmentList';
import { configurationBody, configurationForm, newConfiguration, type ConfigurationForm, type StoredConfiguration } from './configuration-form';
import { currencyDigits, PICKER_LABELS, WEEKDAYS } from './intervals';

export interface ConfigurationEditorProps {
  unitId: string;
  currency: string;
  /** The stored configuration; absent for a new one (`order` its priority). */
  stored?: StoredConfiguration;
  order?: number;
  onSaved: () => void;
  onCancel?: () => void;
}

export function ConfigurationEditor({ unitId, currency, stored, order = 0, onSaved, onCancel }: ConfigurationEditorProps) {
  const { can, locale, format } = useWorkspace();
  const readOnly = !can('product_configurations', 'write');
  const digits = currencyDigits(currency);
  const initial = stored ? configurationForm(stored) : newConfiguration(order);
  const [form, setForm] = useState<ConfigurationForm>(initial);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const [saved, setSaved] = useState<string | null>(null);
  const changed = JSON.stringify(form) !== JSON.stringify(initial);
  const set = <Key extends keyof ConfigurationForm>(key: Key, value: ConfigurationForm[Key]) => setForm({ ...form, [key]: value });
  const title = localized(stored?.name, locale) || (stored ? 'Configuration' : 'New configuration');

  const write = async (action: () => PromiseLike<Parameters<typeof rowsOf>[0]>, done: string) => {
    setBusy(true);
    setError(null);
    setSaved(null);
    try {
      rowsOf(await action());
      setSaved(done);
      onSaved();
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  };
  const onlyRates = JSON.stringify({ ...form, rates: initial.rates }) === JSON.stringify(initial);
  const save = () => write(() => stored
    ? database.from('product_configurations').update(configurationBody(form, stored)).eq('id', stored.id)
    : database.from('product_configurations').insert({ ...configurationBody(form), product_id: unitId }), onlyRates ? 'Rates saved.' : 'Rates and rules saved.');
  const remove = () => stored && write(() => database.from('product_configurations').delete().eq('id', stored.id), 'Configuration deleted.');
  const weekdays = (key: 'check_in_days' | 'checkout_days', legend: string) => (
    <Fieldset legend={legend}>
      <Group gap="xs">
        {WEEKDAYS.map((weekday, index) => (
          <Checkbox key={weekday} label={weekday} checked={form[key][index]} disabled={readOnly}
            onChange={(event) => set(key, form[key].map((on, at) => (at === index ? event.currentTarget.checked : on)))} />
        ))}
      </Group>
    </Fieldset>
  );

  return (
    <Card withBorder component="section" aria-label={title} style={{ borderLeft: `6px solid ${form.color}` }}>
      <form onSubmit={(event) => { event.preventDefault(); void save(); }}>
        <Stack gap="sm">
          <Title order={4} size="h5">{title}</Title>
          <Text size="sm">{form.periods.map((period) => `${format.date(period.first)} – ${format.date(period.last)}`).join('; ') || 'Every date'}</Text>
          <ErrorAlert error={error} title="The configuration was not saved" />
          <Group align="flex-end" grow>
            <TextInput label="Name" readOnly={readOnly} value={form.name.default} placeholder="e.g. Summer"
              onChange={(event) => set('name', { ...form.name, default: event.currentTarget.value })} />
            <NumberInput label="Priority" description="The highest applies where configurations overlap." readOnly={readOnly} value={form.order}
              onChange={(value) => set('order', Number(value) || 0)} />
            <ColorInput label="Colour" eyeDropperButtonProps={{ 'aria-label': 'Pick a colour from the screen' }} readOnly={readOnly} value={form.color} onChange={(color) => set('color', color)} />
          </Group>
          <Fieldset legend="Periods">
            <Stack gap="xs">
              {form.periods.map((period, index) => (
                <Group key={index} align="flex-end">
                  <DatePickerInput type="range" label={`Period ${index + 1}`} ariaLabels={PICKER_LABELS} readOnly={readOnly} allowSingleDateInRange miw={240}
                    value={[period.first, period.last]}
                    onChange={([first, last]) => first && last && set('periods', form.periods.map((old, at) => (at === index ? { first, last } : old)))} />
                  {!readOnly && <Button size="xs" variant="subtle" color="red" aria-label={`Remove period ${index + 1}`}
                    onClick={() => set('periods', form.periods.filter((_, at) => at !== index))}>Remove</Button>}
                </Group>
              ))}
              {!readOnly && <Button size="xs" variant="light" w="fit-content" onClick={() => set('periods', [...form.periods, { first: format.today(), last: format.today() }])}>Add period</Button>}
            </Stack>
          </Fieldset>
          <SimpleGrid cols={{ base: 2, md: 5 }}>
            <NumberInput label="Minimum stay (nights)" min={0} readOnly={readOnly} value={form.min_duration} onChange={(value) => set('min_duration', Number(value) || 0)} />
            <NumberInput label="Maximum stay (0: none)" min={0} readOnly={readOnly} value={form.max_duration} onChange={(value) => set('max_duration', Number(value) || 0)} />
            <NumberInput label="Book at least (days ahead)" min={0} readOnly={readOnly} value={form.min_advance} onChange={(value) => set('min_advance', Number(value) || 0)} />
            <NumberInput label="Book at most (days ahead, 0: any)" min={0} readOnly={readOnly} value={form.max_advance} onChange={(value) => set('max_advance', Number(value) || 0)} />
            <NumberInput label="Days free between stays" min={0} readOnly={readOnly} value={form.cooldown_time} onChange={(value) => set('cooldown_time', Number(value) || 0)} />
          </SimpleGrid>
          {weekdays('check_in_days', 'Check-in days')}
          {weekdays('checkout_days', 'Check-out days')}
          <Fieldset legend="Base rates">
            <Table aria-label={`Rates of ${title}`}>
              <Table.Thead><Table.Tr><Table.Th>From nights</Table.Th><Table.Th>From guests</Table.Th><Table.Th>Rate per night ({currency})</Table.Th><Table.Th /></Table.Tr></Table.Thead>
              <Table.Tbody>
                {form.rates.map((rate, index) => {
                  const change = (row: Partial<typeof rate>) => set('rates', form.rates.map((old, at) => (at === index ? { ...old, ...row } : old)));
                  return (
                    <Table.Tr key={index}>
                      <Table.Td><NumberInput aria-label={`From nights, rate ${index + 1}`} size="xs" w={100} min={0} readOnly={readOnly} value={rate.duration} onChange={(value) => change({ duration: Number(value) || 0 })} /></Table.Td>
                      <Table.Td><NumberInput aria-label={`From guests, rate ${index + 1}`} size="xs" w={100} min={0} readOnly={readOnly} value={rate.occupancy} onChange={(value) => change({ occupancy: Number(value) || 0 })} /></Table.Td>
                      <Table.Td>
                        <NumberInput aria-label={`Rate from ${rate.duration} nights and ${rate.occupancy} guests`} size="xs" w={140} min={0} decimalScale={digits} fixedDecimalScale readOnly={readOnly}
                          value={rate.rate / 10 ** digits} onChange={(value) => change({ rate: Math.round(Number(value) * 10 ** digits) })} />
                      </Table.Td>
                      <Table.Td>{!readOnly && <Button size="xs" variant="subtle" color="red" aria-label={`Remove rate ${index + 1}`}
                        onClick={() => set('rates', form.rates.filter((_, at) => at !== index))}>Remove</Button>}</Table.Td>
                    </Table.Tr>
                  );
                })}
              </Table.Tbody>
            </Table>
            {!readOnly && <Button size="xs" variant="light" mt="xs" onClick={() => set('rates', [...form.rates, { duration: 1, occupancy: 0, rate: 0 }])}>Add rate</Button>}
          </Fieldset>
          <SimpleGrid cols={{ base: 1, md: 3 }}>
            <AdjustmentList legend="Early bird" threshold="min_advance" thresholdLabel="From days before arrival" readOnly={readOnly}
              value={form.early_bird_adjustments} onChange={(value) => set('early_bird_adjustments', value)} />
            <AdjustmentList legend="Last minute" threshold="max_advance" thresholdLabel="Until days before arrival" readOnly={readOnly}
              value={form.last_minute_adjustments} onChange={(value) => set('last_minute_adjustments', value)} />
            <AdjustmentList legend="Long stay" threshold="min_duration" thresholdLabel="From nights" readOnly={readOnly}
              value={form.long_rent_adjustments} onChange={(value) => set('long_rent_adjustments', value)} />
          </SimpleGrid>
          {!readOnly && (
            <Group>
              <Button type="submit" loading={busy} disabled={stored && !changed}>{stored ? 'Save rates and rules' : 'Add configuration'}</Button>
              {onCancel && <Button variant="default" onClick={onCancel}>Cancel</Button>}
              {stored && <ConfirmButton question={`Delete the configuration ${title}?`} onConfirm={() => void remove()}>Delete</ConfirmButton>}
              {saved && !changed && <Text size="sm" role="status">{saved}</Text>}
            </Group>
          )}
        </Stack>
      </form>
    </Card>
  );
}
