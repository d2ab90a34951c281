/**
 * Changes a booking's stay: new dates, and another unit if wanted. The server checks every rule and prices the new
 * stay like a quote; the page shows the new total and the difference first (`dry_run`), and applies only when asked.
 */
import { useState } from 'react';
import { Button, Group, Modal, Select, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { DatePickerInput } from '@mantine/dates';
import { loadUnitNames } from '../api/units';
import { addDays } from '../common/dates';
import { ErrorAlert } from '../common/ErrorAlert';
import { localized } from '../common/format';
import { useLoad } from '../common/use-load';
import { useWorkspace } from '../shell/context';
import { changeBooking, type BookingDetail, type ChangeAnswer } from './queries';

export function ChangeStay({ detail, onChanged }: { detail: BookingDetail; onChanged: () => void }) {
  const { t } = useTranslation(['booking', 'common']);
  const { format, locale } = useWorkspace();
  const event = detail.event!;
  // A daily unit's interval ends on its last day; a nightly one's on the departure day (the event's end_date).
  const daily = event.products?.rent_period === 'daily';
  const [open, setOpen] = useState(false);
  const [range, setRange] = useState<[string | null, string | null]>([event.start_date, daily ? addDays(event.end_date, -1) : event.end_date]);
  const [unitId, setUnitId] = useState<string | null>(event.product_id);
  const [quote, setQuote] = useState<ChangeAnswer | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const [idempotencyKey] = useState(() => crypto.randomUUID());
  const units = useLoad(loadUnitNames, []);

  const request = () => ({
    booking_id: detail.booking.id,
    interval: { start: range[0]!, end: range[1]! },
    ...(unitId && unitId !== event.product_id ? { product_id: unitId } : {}),
  });
  const run = async (dryRun: boolean) => {
    setBusy(true);
    setError(null);
    try {
      const answer = await changeBooking(request(), dryRun, idempotencyKey);
      if (dryRun) setQuote(answer);
      else {
        setOpen(false);
        onChanged();
      }
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  };
  const currency = detail.booking.currency;

  return (
    <>
      <Button variant="default" onClick={() => setOpen(true)}>{t('change.button')}</Button>
      <Modal opened={open} onClose={() => setOpen(false)} closeButtonProps={{ 'aria-label': t('common:close') }} title={t('change.title', { reference: detail.booking.reference })}>
        <Stack>
          <ErrorAlert error={error} title={t('change.failed')} />
          <Select label={t('change.unit')} value={unitId} onChange={(value) => { setUnitId(value); setQuote(null); }}
            data={(units.data ?? []).map((unit) => ({ value: unit.id, label: localized(unit.name, locale) }))} />
          <DatePickerInput type="range" label={daily ? t('change.days') : t('change.nights')} value={range}
            onChange={(value) => { setRange(value as [string | null, string | null]); setQuote(null); }} allowSingleDateInRange={daily} />
          {quote && (
            <Stack gap={2} role="status">
              <Text size="sm">{t('change.totals', { before: format.money(quote.previous_total, currency), after: format.money(quote.total, currency) })}</Text>
              <Text size="sm" fw={600}>{t('change.difference', { difference: `${quote.delta >= 0 ? '+' : ''}${format.money(quote.delta, currency)}` })}</Text>
            </Stack>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={() => run(true)} loading={busy && !quote} disabled={!range[0] || !range[1]}>{t('change.check')}</Button>
            <Button onClick={() => run(false)} loading={busy && quote !== null} disabled={!quote}>{t('change.apply')}</Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}
