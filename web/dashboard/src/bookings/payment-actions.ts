/**
 * A booking's money as a manager records it (docs/payments.md): payments received by hand, refunds bounded by what
 * was paid (the database refuses more: 409 SK664 with how much is left), and the Stripe Checkout link of the next
 * payment. A payment is paid at the moment given (the day it was received, docs/payments.md#manual-payments), or when
 * it is recorded: the database's now, as is a refund's `refunded_at`.
 */
import { database, rowsOf, type Enums } from '../api/database';
import { requestJson } from '../api/http';

export type PaymentMethod = Enums<'payments_method'>;

/** How and when a payment was received; without `paidAt`, now. */
export interface Received {
  method: PaymentMethod;
  paidAt?: string;
}

const paidFields = ({ method, paidAt }: Received) => ({ status: 'paid' as const, method, ...(paidAt ? { paid_at: paidAt } : {}) });

/** A payment received that was not scheduled (or another amount than scheduled): a new paid payment. */
export async function recordPayment(bookingId: string, amount: number, received: Received): Promise<void> {
  rowsOf(await database.from('payments').insert({ booking_id: bookingId, amount, ...paidFields(received) }).select('id'));
}

/** A scheduled payment received: it moves from still to pay to paid, so the schedule keeps adding up. */
export async function markPaymentPaid(paymentId: string, received: Received): Promise<void> {
  rowsOf(await database.from('payments').update(paidFields(received)).eq('id', paymentId).select('id'));
}

export async function refundPayment(paymentId: string, amount: number, reason: string): Promise<void> {
  await requestJson('POST', '/v1/refunds', { payment_id: paymentId, amount, reason });
}

/** A manual payment's refund is paid back by the manager, who then marks it refunded. */
export async function markRefunded(refundId: string): Promise<void> {
  rowsOf(await database.from('refunds').update({ status: 'refunded' }).eq('id', refundId).select('id'));
}

export interface PaymentLink {
  payment_id: string;
  amount: number;
  currency: string;
  payment_url: string;
}

/** The Checkout link of the booking's next payment still to pay (409 SK671 without Stripe, 404 SK676 when nothing is due). */
export function paymentLink(bookingId: string): Promise<PaymentLink> {
  return requestJson<PaymentLink>('POST', '/v1/payment-link', { booking_id: bookingId });
}
