/**
 * A booking as its page reads it (the list's request is ./list/list-query.ts), and the money sums both show. Every part
 * a member may not read is left out of the request (asking for it would refuse the whole request).
 */
import type { PostgrestSingleResponse } from '@supabase/postgrest-js';
import { database, rowsOf, selectList, when, type Enums, type Permitted, type Selected } from '../api/database';
import { requestJson } from '../api/http';
import type { Can } from '../api/permissions';
import { guestCount, type OccupancyGroup } from '../../../../src/common/guests.js';

export type Status = Enums<'calendar_events_status'>;

/** What a booking's total and payment state are read from: its price lines and payments, when the member may read them. */
interface BookingMoney {
  bookings: { line_items?: readonly { amount: number; fee_type: string }[]; payments?: readonly { status: string }[] };
}

/** The booking's total: its fee lines (deposits are not part of it). */
export function bookingTotal(row: BookingMoney): number | undefined {
  const fees = row.bookings.line_items?.filter((item) => item.fee_type === 'fee');
  return fees && fees.length > 0 ? fees.reduce((sum, item) => sum + item.amount, 0) : undefined;
}

export type PaymentState = 'paid' | 'partly paid' | 'unpaid' | 'nothing to pay';

/** Paid in full, in part, nothing yet — or nothing to pay — from the booking's payments, when the member may read them. */
export function paymentState(row: BookingMoney): PaymentState | undefined {
  return paymentStateOf(row.bookings.payments);
}

/** The payment state of a booking's payments (undefined: the member may not read them). */
export function paymentStateOf(payments: readonly { status: string }[] | undefined): PaymentState | undefined {
  if (!payments) return undefined;
  const live = payments.filter((payment) => payment.status !== 'cancelled');
  if (live.length === 0) return 'nothing to pay';
  const paid = live.filter((payment) => payment.status === 'paid').length;
  return paid === live.length ? 'paid' : paid > 0 ? 'partly paid' : 'unpaid';
}

/** A part of the page the member may read, or null (the page says it is not shown to them). */
async function part<T>(allowed: boolean, read: () => PromiseLike<PostgrestSingleResponse<T>>): Promise<T | null> {
  if (!allowed) return null;
  return rowsOf(await read());
}

/** A booking with each part of its page, null where the member may not read that part. */
export type BookingDetail = NonNullable<Awaited<ReturnType<typeof loadBooking>>>;

export async function loadBooking(bookingId: string, can: Can) {
  const booking = rowsOf(await database.from('bookings')
    .select('id,reference,created_at,confirmed_at,currency,language,method,occupancy')
    .eq('id', bookingId).maybeSingle());
  if (!booking) return null;
  const [events, contacts, lineItems, payments, invoices, messages, details, bookingUpdates, eventUpdates, sumGroups] = await Promise.all([
    part(can('calendar_events'), () => database.from('calendar_events')
      .select(`id,product_id,start_date,end_date,status,title,products(name,rent_period)`).eq('booking_id', bookingId).eq('type', 'booking').limit(1)),
    part(can('contacts') && can('contact_bookings'), () => database.from('contacts')
      .select('id,first_name,last_name,email,phone,country,language,contact_bookings!inner(booking_id)').eq('contact_bookings.booking_id', bookingId)),
    part(can('line_items'), () => database.from('line_items').select('id,name,item_type,fee_type,quantity,amount,invoice_id').eq('booking_id', bookingId).order('created_at')),
    part(can('payments'), () => database.from('payments')
      .select(selectList('id,amount,currency,status,method,provider,due_at,paid_at,created_at', when(can('refunds'), 'refunds(id,amount,reason,status,created_at,refunded_at)')))
      .eq('booking_id', bookingId).order('created_at')),
    part(can('invoices'), () => database.from('invoices')
      .select('id,number,status,currency,total,created_at,updated_at,issued_at,due_at,paid_at,credit_for_id').eq('booking_id', bookingId).order('created_at')),
    part(can('messages'), () => database.from('messages')
      .select('id,channel,direction,status,from_address,to_address,subject,body,contact_id,created_at,sent_at').eq('booking_id', bookingId).order('created_at')),
    part(can('booking_details'), () => database.from('booking_details').select('id,name,value').eq('booking_id', bookingId).order('created_at')),
    part(can('booking_updates'), () => database.from('booking_updates')
      .select('id,created_at,changed_fields,user_id').eq('booking_id', bookingId).order('created_at')),
    part(can('calendar_event_updates'), () => database.from('calendar_event_updates')
      .select('id,created_at,kind,status,previous_status,changed_fields,user_id').eq('booking_id', bookingId).order('created_at')),
    loadSumGroups(can),
  ]);
  const event = events?.[0] ?? null;
  const [tasks, notes] = event ? await Promise.all([
    part(can('calendar_event_tasks'), () => database.from('calendar_event_tasks')
      .select('id,label,due_at,completed_at').eq('calendar_event_id', event.id).order('due_at')),
    part(can('calendar_event_notes'), () => database.from('calendar_event_notes')
      .select('id,note,author_id,created_at').eq('calendar_event_id', event.id).order('created_at')),
  ]) : [null, null];
  return {
    booking, event, contacts, lineItems, payments: payments as BookingPayment[] | null, invoices, messages, tasks, notes, details,
    bookingUpdates, eventUpdates, guests: guestCount(booking.occupancy, sumGroups),
  };
}

type SelectedPayment = Selected<'payments', 'id,amount,currency,status,method,provider,due_at,paid_at,created_at,refunds(id,amount,reason,status,created_at,refunded_at)'>;
/** A payment of the booking page, with its refunds when the member may read them. */
export type BookingPayment = Permitted<SelectedPayment, 'refunds'>;

/** Cancels the booking with a reason (POST /v1/booking-cancel): its dates are free at once, its coupon uses released. */
export async function cancelBooking(bookingId: string, reason: string, refund?: 'full'): Promise<void> {
  await requestJson('POST', '/v1/booking-cancel', {
    booking_id: bookingId, ...(reason.trim() ? { reason: reason.trim() } : {}), ...(refund ? { refund } : {}),
  });
}

/**
 * The capacity groups that sum others (e.g. "Guests" = adults + children), which a guest count leaves out
 * (src/common/guests.ts: `guestCount(occupancy, sumGroups)`). None when the member may not read them: every group
 * then counts.
 */
export async function loadSumGroups(can: Can): Promise<OccupancyGroup<null>[]> {
  if (!can('capacity_group_dependencies')) return [];
  const rows = rowsOf(await database.from('capacity_group_dependencies').select('accumulator_id').limit(1000));
  return [...new Set(rows.map((row) => row.accumulator_id))].map((id) => ({ id, name: null, accumulator: true }));
}

/** Confirms a booking request: its tentative stays become confirmed (the guest's confirmation e-mail follows). */
export async function confirmRequest(bookingId: string): Promise<void> {
  rowsOf(await database.from('calendar_events').update({ status: 'CONFIRMED' }).eq('booking_id', bookingId).eq('status', 'TENTATIVE'));
}

export interface ChangeAnswer {
  previous_total: number;
  total: number;
  delta: number;
  changes: Record<string, { old: unknown; new: unknown }>;
}

/**
 * Changes the stay (POST /v1/booking-change): every rule of /book again, re-priced like /quote. `dryRun` shows the new
 * total without changing anything; the real change carries an Idempotency-Key, so a retry cannot apply it twice.
 */
export function changeBooking(change: { booking_id: string; interval: { start: string; end: string }; product_id?: string }, dryRun: boolean, idempotencyKey: string): Promise<ChangeAnswer> {
  return requestJson<ChangeAnswer>('POST', '/v1/booking-change', { ...change, dry_run: dryRun }, dryRun ? {} : { 'Idempotency-Key': idempotencyKey });
}
