/**
 * Records a payment received: a scheduled one (it becomes paid, with how it was paid) or another amount (a new paid
 * payment), on the day it was received — today by default, in the organization's time zone. Today is left to the
 * database (the moment it is recorded, by its clock); an earlier day, a transfer seen on the bank statement, is sent
 * as noon of that day.
 */
import { useState } from 'react';
import { Button, Group, Modal, NumberInput, Select, Stack, Text } from '@mantine/core';
import { DatePickerInput } from '@mantine/dates';
import { useTranslation } from 'react-i18next';
import { valuesOf } from '../api/database';
import { ErrorAlert } from '../common/ErrorAlert';
import { useWorkspace } from '../shell/context';
import { usePickerLabels } from '../units/reader-words';
import { markPaymentPaid, recordPayment, type PaymentMethod, type Received } from './payment-actions';
import { currencyDigits, fromMinor, toMinor } from './money-input';
import { useAction } from '../common/use-action';

export const PAYMENT_METHODS = valuesOf<'payments_method'>()('bank_transfer', 'cash', 'card', 'ideal', 'paypal', 'other');

interface RecordPaymentProps {
  bookingId: string;
  currency: string;
  /** A payment still to pay that this records as paid; without it, a new payment of the amount typed. */
  scheduled?: { id: string; amount: number; due_at: string | null };
  /** Without a scheduled payment: the amount the field starts with (what is still to pay). */
  suggested?: number;
  onRecorded: () => void;
}

export function RecordPayment({ bookingId, currency, scheduled, suggested = 0, onRecorded }: RecordPaymentProps) {
  const { t } = useTranslation(['booking', 'common']);
  const { format } = useWorkspace();
  const pickerLabels = usePickerLabels();
  const [open, setOpen] = useState(false);
  const [method, setMethod] = useState<PaymentMethod>('bank_transfer');
  const [amount, setAmount] = useState<number | string>(fromMinor(suggested, currency));
  const [receivedOn, setReceivedOn] = useState(format.today());
  const action = useAction(onRecorded);
  const save = async () => {
    const received: Received = { method, ...(receivedOn < format.today() ? { paidAt: format.noonOn(receivedOn) } : {}) };
    const done = await action.run('record', () => (scheduled
      ? markPaymentPaid(scheduled.id, received)
      : recordPayment(bookingId, toMinor(Number(amount), currency), received)));
    if (done) setOpen(false);
  };
  const label = scheduled ? t('payments.recordFor', { amount: format.money(scheduled.amount, currency) }) : undefined;
  return (
    <>
      <Button size={scheduled ? 'xs' : 'sm'} variant={scheduled ? 'light' : 'filled'} aria-label={label}
        onClick={() => { action.setError(null); setAmount(fromMinor(suggested, currency)); setReceivedOn(format.today()); setOpen(true); }}>{t('payments.record')}</Button>
      <Modal opened={open} onClose={() => setOpen(false)} closeButtonProps={{ 'aria-label': t('common:close') }} title={t('payments.recordTitle')}>
        <Stack>
          <ErrorAlert error={action.error} title={t('payments.recordFailed')} />
          {scheduled
            ? <Text size="sm">{t('payments.scheduled', { amount: format.money(scheduled.amount, currency), when: format.moment(scheduled.due_at) })}</Text>
            : <NumberInput label={t('payments.amount', { currency })} value={amount} onChange={setAmount} min={0}
                decimalScale={currencyDigits(currency)} fixedDecimalScale required />}
          <DatePickerInput label={t('payments.receivedOn')} value={receivedOn} maxDate={format.today()} ariaLabels={pickerLabels}
            onChange={(value) => value && setReceivedOn(value)} required />
          <Select label={t('payments.method')} value={method} allowDeselect={false} onChange={(value) => value && setMethod(value as PaymentMethod)}
            data={PAYMENT_METHODS.map((value) => ({ value, label: t(`method.${value}`) }))} />
          <Text size="sm" c="dimmed">{t('payments.recordExplain')}</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setOpen(false)}>{t('common:cancel')}</Button>
            <Button onClick={save} loading={action.busy !== null} disabled={!scheduled && !(Number(amount) > 0)}>{t('payments.save')}</Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}
