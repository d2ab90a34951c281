/**
 * One configuration of a unit, edited whole: when it applies (periods, priority), the stay rules (minimum and maximum
 * stay, check-in and check-out days, how far ahead), the base rates by stay length and guests, and the early-bird,
 * last-minute and long-stay adjustments. A new configuration is inserted, an existing one updated or deleted; the
 * database checks every rule and its refusal is shown.
 */
import { useState } from 'react';
import { Button, Card, Checkbox, ColorInput, Fieldset, Group, NumberInput, SimpleGrid, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { DatePickerInput } from '@mantine/dates';
import { useTranslation } from 'react-i18next';
import { database, rowsOf } from '../api/database';
import { ConfirmButton } from '../common/ConfirmButton';
import { ErrorAlert } from '../common/ErrorAlert';
import { localized } from '../common/format';
import { useWorkspace } from '../shell/context';
import { AdjustmentList } from './AdjustmentList';
import { configurationBody, configurationForm, newConfiguration, type ConfigurationForm, type StoredConfiguration } from './configuration-form';
import { currencyDigits } from './intervals';
import { usePickerLabels, useWeekdayNames } from './reader-words';

/** What the last write did, said under the buttons. */
type Done = 'ratesSaved' | 'rulesSaved' | 'deleted';

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
  const { t } = useTranslation(['units', 'common']);
  const pickerLabels = usePickerLabels();
  const weekdayNames = useWeekdayNames();
  const readOnly = !can('product_configurations', 'write');
  const digits = currencyDigits(currency);
  const initial = stored ? configurationForm(stored) : newConfiguration(order);
  const [form, setForm] = useState<ConfigurationForm>(initial);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const [saved, setSaved] = useState<Done | null>(null);
  const changed = JSON.stringify(form) !== JSON.stringify(initial);
  const set = <Key extends keyof ConfigurationForm>(key: Key, value: ConfigurationForm[Key]) => setForm({ ...form, [key]: value });
  const title = localized(stored?.name, locale) || t(stored ? 'configuration.configuration' : 'configuration.new');

  const write = async (action: () => PromiseLike<Parameters<typeof rowsOf>[0]>, done: Done) => {
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
    : database.from('product_configurations').insert({ ...configurationBody(form), product_id: unitId }), onlyRates ? 'ratesSaved' : 'rulesSaved');
  const remove = () => stored && write(() => database.from('product_configurations').delete().eq('id', stored.id), 'deleted');
  const weekdays = (key: 'check_in_days' | 'checkout_days', legend: string) => (
    <Fieldset legend={legend}>
      <Group gap="xs">
        {weekdayNames.map((weekday, index) => (
          <Checkbox key={index} label={weekday} checked={form[key][index]} disabled={readOnly}
            onChange={(event) => set(key, form[key].map((on, at) => (at === index ? event.currentTarget.checked : on)))} />
        ))}
      </Group>
    </Fieldset>
  );
  const checkInDays = weekdays('check_in_days', t('configuration.checkInDays'));
  const checkoutDays = weekdays('checkout_days', t('configuration.checkoutDays'));
  const changeRate = (index: number, row: Partial<ConfigurationForm['rates'][number]>) =>
    set('rates', form.rates.map((old, at) => (at === index ? { ...old, ...row } : old)));

  return (
    <Card withBorder component="section" aria-label={title} style={{ borderLeft: `6px solid ${form.color}` }}>
      <form onSubmit={(event) => { event.preventDefault(); void save(); }}>
        <Stack gap="sm">
          <Title order={4} size="h5">{title}</Title>
          <Text size="sm">{form.periods.map((period) => `${format.date(period.first)} – ${format.date(period.last)}`).join('; ') || t('configuration.everyDate')}</Text>
          <ErrorAlert error={error} title={t('configuration.failed')} />
          <Group align="flex-end" grow>
            <TextInput label={t('configuration.name')} readOnly={readOnly} value={form.name.default} placeholder={t('configuration.namePlaceholder')}
              onChange={(event) => set('name', { ...form.name, default: event.currentTarget.value })} />
            <NumberInput label={t('configuration.priority')} description={t('configuration.priorityHint')} readOnly={readOnly} value={form.order}
              onChange={(value) => set('order', Number(value) || 0)} />
            <ColorInput label={t('configuration.colour')} eyeDropperButtonProps={{ 'aria-label': t('configuration.pickColour') }} readOnly={readOnly} value={form.color} onChange={(color) => set('color', color)} />
          </Group>
          <Fieldset legend={t('configuration.periods')}>
            <Stack gap="xs">
              {form.periods.map((period, index) => (
                <Group key={index} align="flex-end">
                  <DatePickerInput type="range" label={t('configuration.period', { number: index + 1 })} ariaLabels={pickerLabels} readOnly={readOnly} allowSingleDateInRange miw={240}
                    value={[period.first, period.last]}
                    onChange={([first, last]) => first && last && set('periods', form.periods.map((old, at) => (at === index ? { first, last } : old)))} />
                  {!readOnly && <Button size="xs" variant="subtle" color="red" aria-label={t('configuration.removePeriod', { number: index + 1 })}
                    onClick={() => set('periods', form.periods.filter((_, at) => at !== index))}>{t('common:remove')}</Button>}
                </Group>
              ))}
              {!readOnly && <Button size="xs" variant="light" w="fit-content" onClick={() => set('periods', [...form.periods, { first: format.today(), last: format.today() }])}>{t('configuration.addPeriod')}</Button>}
            </Stack>
          </Fieldset>
          <SimpleGrid cols={{ base: 2, md: 5 }}>
            <NumberInput label={t('configuration.minStay')} min={0} readOnly={readOnly} value={form.min_duration} onChange={(value) => set('min_duration', Number(value) || 0)} />
            <NumberInput label={t('configuration.maxStay')} min={0} readOnly={readOnly} value={form.max_duration} onChange={(value) => set('max_duration', Number(value) || 0)} />
            <NumberInput label={t('configuration.minAdvance')} min={0} readOnly={readOnly} value={form.min_advance} onChange={(value) => set('min_advance', Number(value) || 0)} />
            <NumberInput label={t('configuration.maxAdvance')} min={0} readOnly={readOnly} value={form.max_advance} onChange={(value) => set('max_advance', Number(value) || 0)} />
            <NumberInput label={t('configuration.cooldown')} min={0} readOnly={readOnly} value={form.cooldown_time} onChange={(value) => set('cooldown_time', Number(value) || 0)} />
          </SimpleGrid>
          {checkInDays}
          {checkoutDays}
          <Fieldset legend={t('configuration.baseRates')}>
            <Table aria-label={t('configuration.ratesOf', { name: title })}>
              <Table.Thead><Table.Tr><Table.Th>{t('configuration.fromNights')}</Table.Th><Table.Th>{t('configuration.fromGuests')}</Table.Th><Table.Th>{t('configuration.ratePerNight', { currency })}</Table.Th><Table.Th /></Table.Tr></Table.Thead>
              <Table.Tbody>
                {form.rates.map((rate, index) => {
                  const change = (row: Partial<typeof rate>) => changeRate(index, row);
                  return (
                    <Table.Tr key={index}>
                      <Table.Td><NumberInput aria-label={t('configuration.fromNightsOf', { number: index + 1 })} size="xs" w={100} min={0} readOnly={readOnly} value={rate.duration} onChange={(value) => change({ duration: Number(value) || 0 })} /></Table.Td>
                      <Table.Td><NumberInput aria-label={t('configuration.fromGuestsOf', { number: index + 1 })} size="xs" w={100} min={0} readOnly={readOnly} value={rate.occupancy} onChange={(value) => change({ occupancy: Number(value) || 0 })} /></Table.Td>
                      <Table.Td>
                        <NumberInput aria-label={t('configuration.rateFrom', { nights: rate.duration, guests: rate.occupancy })} size="xs" w={140} min={0} decimalScale={digits} fixedDecimalScale readOnly={readOnly}
                          value={rate.rate / 10 ** digits} onChange={(value) => change({ rate: Math.round(Number(value) * 10 ** digits) })} />
                      </Table.Td>
                      <Table.Td>{!readOnly && <Button size="xs" variant="subtle" color="red" aria-label={t('configuration.removeRate', { number: index + 1 })}
                        onClick={() => set('rates', form.rates.filter((_, at) => at !== index))}>{t('common:remove')}</Button>}</Table.Td>
                    </Table.Tr>
                  );
                })}
              </Table.Tbody>
            </Table>
            {!readOnly && <Button size="xs" variant="light" mt="xs" onClick={() => set('rates', [...form.rates, { duration: 1, occupancy: 0, rate: 0 }])}>{t('configuration.addRate')}</Button>}
          </Fieldset>
          <SimpleGrid cols={{ base: 1, md: 3 }}>
            <AdjustmentList kind="earlyBird" threshold="min_advance" readOnly={readOnly}
              value={form.early_bird_adjustments} onChange={(value) => set('early_bird_adjustments', value)} />
            <AdjustmentList kind="lastMinute" threshold="max_advance" readOnly={readOnly}
              value={form.last_minute_adjustments} onChange={(value) => set('last_minute_adjustments', value)} />
            <AdjustmentList kind="longStay" threshold="min_duration" readOnly={readOnly}
              value={form.long_rent_adjustments} onChange={(value) => set('long_rent_adjustments', value)} />
          </SimpleGrid>
          {!readOnly && (
            <Group>
              <Button type="submit" loading={busy} disabled={stored && !changed}>{t(stored ? 'configuration.save' : 'configuration.add')}</Button>
              {onCancel && <Button variant="default" onClick={onCancel}>{t('common:cancel')}</Button>}
              {stored && <ConfirmButton question={t('configuration.deleteQuestion', { name: title })} onConfirm={() => void remove()}>{t('common:delete')}</ConfirmButton>}
              {saved && !changed && <Text size="sm" role="status">{t(`configuration.${saved}`)}</Text>}
            </Group>
          )}
        </Stack>
      </form>
    </Card>
  );
}
