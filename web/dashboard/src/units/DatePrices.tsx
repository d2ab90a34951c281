/**
 * Per-date prices of a unit: set a rate, a minimum stay or a closure on a range of dates — on every day of it or only
 * on some weekdays (a weekend rate: Fridays and Saturdays, whose nights are the weekend's) — or remove one.
 */
import { useState } from 'react';
import { Button, Card, Checkbox, Fieldset, Group, Loader, NumberInput, Stack, Table, Text, Title } from '@mantine/core';
import { DatePickerInput } from '@mantine/dates';
import { useTranslation } from 'react-i18next';
import { database, rowsOf } from '../api/database';
import { addDays, daysBetween } from '../common/dates';
import { ErrorAlert } from '../common/ErrorAlert';
import { useLoad } from '../common/use-load';
import { useWorkspace } from '../shell/context';
import { currencyDigits, weekdayIndex } from './intervals';
import { usePickerLabels, useWeekdayNames } from './reader-words';

/** `version` changes when the calendar changed a date; `onChanged` tells it this section did. */
export function DatePrices({ unitId, currency, version, onChanged }: { unitId: string; currency: string; version: number; onChanged: () => void }) {
  const { can, format } = useWorkspace();
  const { t } = useTranslation(['units', 'common']);
  const pickerLabels = usePickerLabels();
  const weekdayNames = useWeekdayNames();
  const today = format.today();
  const entries = useLoad(async () => rowsOf(await database.from('price_calendar_entries').select('id,date,rate,min_duration,closed')
    .eq('product_id', unitId).gte('date', today).order('date').limit(366)), [unitId, today, version]);
  const [range, setRange] = useState<[string | null, string | null]>([null, null]);
  const [rate, setRate] = useState<number | string>('');
  const [minStay, setMinStay] = useState<number | string>('');
  const [closed, setClosed] = useState(false);
  const [weekdays, setWeekdays] = useState(() => weekdayNames.map(() => true));
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const digits = currencyDigits(currency);

  const apply = async () => {
    const [start, last] = range;
    if (!start || !last) return;
    setBusy(true);
    setError(null);
    const dates = Array.from({ length: daysBetween(start, last) + 1 }, (_, index) => addDays(start, index)).filter((date) => weekdays[weekdayIndex(date)]);
    const rows = dates.map((date) => ({
      product_id: unitId, date, closed,
      rate: rate === '' ? null : Math.round(Number(rate) * 10 ** digits), min_duration: minStay === '' ? null : Number(minStay),
    }));
    try {
      rowsOf(await database.from('price_calendar_entries').upsert(rows, { onConflict: 'product_id,date' }));
      onChanged();
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  };
  const remove = async (id: string) => {
    try {
      rowsOf(await database.from('price_calendar_entries').delete().eq('id', id));
      onChanged();
    } catch (failure) {
      setError(failure);
    }
  };

  return (
    <Card withBorder component="section" aria-label={t('datePrices.title')}>
      <Stack>
        <Title order={3} size="h4">{t('datePrices.title')}</Title>
        <ErrorAlert error={entries.error ?? error} title={t('datePrices.title')} />
        {can('price_calendar_entries', 'write') && (
          <Group align="flex-end" wrap="wrap">
            <DatePickerInput type="range" label={t('datePrices.dates')} ariaLabels={pickerLabels} value={range} onChange={(value) => setRange(value as [string | null, string | null])} minDate={today} allowSingleDateInRange miw={220} />
            <NumberInput label={t('datePrices.ratePerNight', { currency })} value={rate} onChange={setRate} min={0} decimalScale={digits} w={170} />
            <NumberInput label={t('datePrices.minStay')} value={minStay} onChange={setMinStay} min={0} w={130} />
            <Checkbox label={t('datePrices.closed')} checked={closed} onChange={(e) => setClosed(e.currentTarget.checked)} />
            <Fieldset legend={t('datePrices.weekdays')} variant="unstyled">
              <Group gap="xs">
                {weekdayNames.map((weekday, index) => (
                  <Checkbox key={index} label={weekday} checked={weekdays[index]} onChange={(event) => {
                    const checked = event.currentTarget.checked;
                    setWeekdays((list) => list.map((on, at) => (at === index ? checked : on)));
                  }} />
                ))}
              </Group>
            </Fieldset>
            <Button onClick={apply} loading={busy} disabled={!range[0] || !range[1] || !weekdays.some(Boolean)}>{t('datePrices.apply')}</Button>
          </Group>
        )}
        {entries.loading && !entries.data && <Loader size="sm" role="status" aria-label={t('datePrices.loading')} />}
        {entries.data?.length === 0 && <Text size="sm" c="dimmed">{t('datePrices.empty')}</Text>}
        {entries.data && entries.data.length > 0 && (
          <Table aria-label={t('datePrices.title')}>
            <Table.Thead><Table.Tr><Table.Th>{t('datePrices.date')}</Table.Th><Table.Th>{t('datePrices.rate')}</Table.Th><Table.Th>{t('datePrices.minStay')}</Table.Th><Table.Th>{t('datePrices.closed')}</Table.Th><Table.Th /></Table.Tr></Table.Thead>
            <Table.Tbody>
              {entries.data.map((entry) => (
                <Table.Tr key={entry.id}>
                  <Table.Td>{format.date(entry.date)}</Table.Td>
                  <Table.Td>{entry.rate === null ? '—' : format.money(entry.rate, currency)}</Table.Td>
                  <Table.Td>{entry.min_duration ?? '—'}</Table.Td>
                  <Table.Td>{entry.closed ? t('datePrices.closedMark') : ''}</Table.Td>
                  <Table.Td>{can('price_calendar_entries', 'write') && <Button size="xs" variant="outline" color="red" onClick={() => remove(entry.id)} aria-label={t('datePrices.removePrice', { date: format.date(entry.date) })}>{t('common:remove')}</Button>}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </Stack>
    </Card>
  );
}
