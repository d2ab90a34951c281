/**
 * The booking's payments with their refunds, and what a manager does with them: record a payment received (a
 * scheduled one, or another amount), refund a paid one, mark a manual refund as paid back, and the guest's payment
 * link. The badge says whether the booking is paid, as the bookings list and Today do.
 */
import { Button, Group, Stack, Table, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { ErrorAlert } from '../common/ErrorAlert';
import { useWorkspace } from '../shell/context';
import { PaymentBadge } from './PaymentBadge';
import { PaymentLinkButton } from './PaymentLinkButton';
import { markRefunded } from './payment-actions';
import { paymentStateOf, type BookingDetail } from './queries';
import { RecordPayment } from './RecordPayment';
import { refundedOf, RefundPayment } from './RefundPayment';
import { Section } from './Section';
import { useAction } from '../common/use-action';

const OPEN = new Set(['pending', 'failed', 'expired']);

export function PaymentsSection({ detail, onChanged }: { detail: BookingDetail; onChanged: () => void }) {
  const { t } = useTranslation('booking');
  const { format, can } = useWorkspace();
  const marking = useAction(onChanged);
  const payments = detail.payments;
  const currency = detail.booking.currency;
  const mayPay = can('payments', 'write');
  const mayRefund = can('refunds', 'write');
  const total = detail.lineItems?.filter((line) => line.fee_type === 'fee').reduce((sum, line) => sum + line.amount, 0);
  const paid = (payments ?? []).filter((payment) => payment.status === 'paid').reduce((sum, payment) => sum + payment.amount - refundedOf(payment), 0);
  const toPay = (payments ?? []).filter((payment) => OPEN.has(payment.status)).reduce((sum, payment) => sum + payment.amount, 0);
  const cancelled = detail.event?.status === 'CANCELLED';
  return (
    <Section title={t('payments.title')} shown={payments !== null} empty={payments?.length === 0}
      actions={mayPay && !cancelled && (
        <Group gap="xs">
          <RecordPayment bookingId={detail.booking.id} currency={currency} suggested={toPay} onRecorded={onChanged} />
          <PaymentLinkButton detail={detail} onSent={onChanged} />
        </Group>
      )}>
      <Stack gap="xs">
        <Group gap="xs">
          <PaymentBadge state={paymentStateOf(payments ?? undefined)} />
          {total !== undefined && <Text size="sm">{t('payments.paid', { amount: format.money(paid, currency), total: format.money(total, currency) })}</Text>}
        </Group>
        <ErrorAlert error={marking.error} title={t('payments.markRefundedFailed')} />
        <Table aria-label={t('payments.table')}>
          <Table.Tbody>
            {payments?.map((payment) => (
              <PaymentRows key={payment.id} payment={payment} actions={(
                <Group gap="xs" justify="flex-end" wrap="nowrap">
                  {mayPay && !cancelled && OPEN.has(payment.status) && (
                    <RecordPayment bookingId={detail.booking.id} currency={payment.currency} scheduled={payment} onRecorded={onChanged} />
                  )}
                  {mayRefund && payment.status === 'paid' && refundedOf(payment) < payment.amount && <RefundPayment payment={payment} onRefunded={onChanged} />}
                </Group>
              )} refundActions={(refund) => mayRefund && refund.status === 'pending' && !payment.provider && (
                <Button size="xs" variant="light" loading={marking.busy === refund.id}
                  onClick={() => marking.run(refund.id, () => markRefunded(refund.id))}>{t('payments.markRefunded')}</Button>
              )} />
            ))}
          </Table.Tbody>
        </Table>
      </Stack>
    </Section>
  );
}

type Payment = NonNullable<BookingDetail['payments']>[number];
type Refund = NonNullable<Payment['refunds']>[number];

function PaymentRows({ payment, actions, refundActions }: { payment: Payment; actions: React.ReactNode; refundActions: (refund: Refund) => React.ReactNode }) {
  const { t } = useTranslation('booking');
  const { format } = useWorkspace();
  return (
    <>
      <Table.Tr data-payment-id={payment.id}>
        <Table.Td>{format.money(payment.amount, payment.currency)}</Table.Td>
        <Table.Td>{t(`paymentStatus.${payment.status}`)}</Table.Td>
        <Table.Td>{t(`method.${payment.method}`)}</Table.Td>
        <Table.Td>{payment.paid_at ? t('payments.paidOn', { when: format.date(format.dayOf(payment.paid_at)) }) : payment.due_at ? t('payments.due', { when: format.moment(payment.due_at) }) : ''}</Table.Td>
        <Table.Td>{actions}</Table.Td>
      </Table.Tr>
      {payment.refunds?.map((refund) => (
        <Table.Tr key={refund.id}>
          <Table.Td />
          <Table.Td colSpan={3}>
            <Text size="sm">{t('payments.refundLine', { amount: format.money(refund.amount, payment.currency), status: t(`refundStatus.${refund.status}`) })}</Text>
            {refund.reason && <Text size="xs" c="dimmed">{t('payments.refundReason', { reason: refund.reason })}</Text>}
          </Table.Td>
          <Table.Td>{refundActions(refund)}</Table.Td>
        </Table.Tr>
      ))}
    </>
  );
}
