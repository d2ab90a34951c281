/**
 * Refunds (part of) a paid payment. The database bounds it by what was paid: a refund beyond what is left is refused
 * (409 SK664), and the API's words are shown at the amount. A Stripe payment's refund goes to Stripe; a manual one
 * is paid back by the manager, who marks it refunded afterwards.
 */
import { useState } from 'react';
import { Button, Group, Modal, NumberInput, Stack, Text, Textarea } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { toApiError } from '../api/errors';
import { ErrorAlert } from '../common/ErrorAlert';
import { useWorkspace } from '../shell/context';
import { currencyDigits, fromMinor, toMinor } from './money-input';
import { refundPayment } from './payment-actions';
import type { BookingPayment } from './queries';
import { useAction } from '../common/use-action';

/** What the payment's refunds take (failed ones do not count). */
export const refundedOf = (payment: BookingPayment) =>
  (payment.refunds ?? []).filter((refund) => refund.status !== 'failed').reduce((sum, refund) => sum + refund.amount, 0);

export function RefundPayment({ payment, onRefunded }: { payment: BookingPayment; onRefunded: () => void }) {
  const { t } = useTranslation(['booking', 'common']);
  const { format } = useWorkspace();
  const refunded = refundedOf(payment);
  const left = payment.amount - refunded;
  const [open, setOpen] = useState(false);
  const [amount, setAmount] = useState<number | string>(fromMinor(left, payment.currency));
  const [reason, setReason] = useState('');
  const action = useAction(onRefunded);
  const save = async () => {
    if (await action.run('refund', () => refundPayment(payment.id, toMinor(Number(amount), payment.currency), reason.trim()))) setOpen(false);
  };
  // The database's refusal (SK664: more than was paid) is about the amount: said at the field, in the API's words.
  const refusal = action.error ? toApiError(action.error).body : null;
  const atAmount = refusal && (refusal.code === 'SK664' || /amount/.test(refusal.message)) ? [refusal.message, refusal.hint].filter(Boolean).join(' ') : null;
  const paid = format.money(payment.amount, payment.currency);
  return (
    <>
      <Button size="xs" variant="default" aria-label={t('payments.refundFor', { amount: paid })}
        onClick={() => { action.setError(null); setAmount(fromMinor(left, payment.currency)); setOpen(true); }}>{t('payments.refund')}</Button>
      <Modal opened={open} onClose={() => setOpen(false)} closeButtonProps={{ 'aria-label': t('common:close') }} title={t('payments.refundTitle', { amount: paid })}>
        <Stack>
          {!atAmount && <ErrorAlert error={action.error} title={t('payments.refundFailed')} />}
          <Text size="sm">{t('payments.refundLeft', { refunded: format.money(refunded, payment.currency), left: format.money(left, payment.currency) })}</Text>
          <NumberInput label={t('payments.amount', { currency: payment.currency })} value={amount} onChange={setAmount} min={0}
            decimalScale={currencyDigits(payment.currency)} fixedDecimalScale required error={atAmount} />
          <Textarea label={t('payments.reason')} placeholder={t('payments.reasonPlaceholder')} value={reason}
            onChange={(event) => setReason(event.currentTarget.value)} maxLength={2000} />
          {!payment.provider && <Text size="sm" c="dimmed">{t('payments.refundManual')}</Text>}
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setOpen(false)}>{t('common:cancel')}</Button>
            <Button color="red" onClick={save} loading={action.busy !== null} disabled={!(Number(amount) > 0)}>{t('payments.refundSave')}</Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}
