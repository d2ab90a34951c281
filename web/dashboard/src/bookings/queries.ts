/**
 * Bookings as the list and the booking page read them. A booking's stay, unit and status live on its calendar
 * event, so the list is a list of booking events with their booking embedded. Every part a member may not read is
 * left out of the request (asking for it would refuse the whole request).
 */
import { database, rowsOf } from '../api/database';
import { requestJson } from '../api/http';
import type { Can } from '../api/permissions';

export type Status = 'CONFIRMED' | 'TENTATIVE' | 'CANCELLED';

export interface Contact {
  id: string;
  first_name: string;
  last_name: string;
  email: string | null;
  phone: string | null;
  country: string | null;
  language: string | null;
}

export interface BookingRow {
  id: string;
  booking_id: string;
  product_id: string;
  start_date: string;
  end_date: string;
  status: Status;
  title: string;
  products: { name: Record<string, string> } | null;
  bookings: {
    id: string; reference: string; created_at: string; currency: string;
    contact_bookings?: { contacts: Contact | null }[];
    /** Present when the member may read line items / payments. */
    line_items?: { amount: number; fee_type: 'fee' | 'deposit' }[];
    payments?: { amount: number; status: string }[];
  };
}

/** What the list shows first: current and upcoming stays, nearest first (the default); or all, by arrival or booking. */
export type BookingOrder = 'upcoming' | 'latest' | 'booked';

/** The booking's total: its fee lines (deposits are not part of it). */
export function bookingTotal(row: BookingRow): number | undefined {
  const fees = row.bookings.line_items?.filter((item) => item.fee_type === 'fee');
  return fees && fees.length > 0 ? fees.reduce((sum, item) => sum + item.amount, 0) : undefined;
}

/** Paid in full, in part, nothing yet — or nothing to pay — from the booking's payments, when the member may read them. */
export function paymentState(row: BookingRow): 'paid' | 'partly paid' | 'unpaid' | 'nothing to pay' | undefined {
  const payments = row.bookings.payments;
  if (!payments) return undefined;
  const live = payments.filter((payment) => payment.status !== 'cancelled');
  if (live.length === 0) return 'nothing to pay';
  const paid = live.filter((payment) => payment.status === 'paid').length;
  return paid === live.length ? 'paid' : paid > 0 ? 'partly paid' : 'unpaid';
}

export interface BookingFilters {
  status: Status | null;
  unit: string | null;
  /** Stays that overlap `[from, to]`. */
  from: string | null;
  to: string | null;
  guest: string;
  reference: string;
  order: BookingOrder;
  /** Today in the organization's calendar: "upcoming" means stays that end today or later. */
  today: string;
}

export const PAGE_SIZE = 25;

/** A value for an `ilike` pattern: PostgREST's wildcard is `*`; characters that break the `or` list are dropped. */
const pattern = (text: string) => `*${text.replace(/[*,()"\\]/g, ' ').trim()}*`;

export async function listBookings(filters: BookingFilters, page: number, can: Can): Promise<{ rows: BookingRow[]; total: number }> {
  const withGuests = can('contacts');
  const guest = withGuests && filters.guest.trim() !== '';
  // Guests hang off bookings through contact_bookings; `!inner` makes the guest filter drop non-matching bookings.
  const inner = guest ? '!inner' : '';
  const contacts = withGuests ? `,contact_bookings${inner}(contacts${inner}(id,first_name,last_name,email))` : '';
  const money = `${can('line_items') ? ',line_items(amount,fee_type)' : ''}${can('payments') ? ',payments(amount,status)' : ''}`;
  let query = database
    .from('calendar_events')
    .select(`id,booking_id,product_id,start_date,end_date,status,title,products(name),bookings!inner(id,reference,created_at,currency${contacts}${money})`, { count: 'exact' })
    .eq('type', 'booking');
  if (filters.status) query = query.eq('status', filters.status);
  if (filters.unit) query = query.eq('product_id', filters.unit);
  if (filters.to) query = query.lte('start_date', filters.to);
  if (filters.from) query = query.gt('end_date', filters.from);
  if (filters.reference.trim()) query = query.ilike('bookings.reference', pattern(filters.reference.toUpperCase()));
  if (guest) {
    const like = pattern(filters.guest);
    query = query.or(`first_name.ilike.${like},last_name.ilike.${like},email.ilike.${like}`, { referencedTable: 'bookings.contact_bookings.contacts' });
  }
  // Current and upcoming stays, nearest first — unless the member searches for a guest, a reference or dates, which
  // may lie in the past.
  if (filters.order === 'upcoming' && !filters.from && !filters.to && !guest && !filters.reference.trim()) {
    query = query.gte('end_date', filters.today);
  }
  const ordered = filters.order === 'booked'
    ? query.order('created_at', { ascending: false })
    : query.order('start_date', { ascending: filters.order === 'upcoming' });
  const result = await ordered.order('id').range(page * PAGE_SIZE, page * PAGE_SIZE + PAGE_SIZE - 1);
  return { rows: rowsOf(result) as unknown as BookingRow[], total: result.count ?? 0 };
}

export interface LineItem {
  id: string;
  name: Record<string, string>;
  item_type: string;
  fee_type: 'fee' | 'deposit';
  quantity: number;
  amount: number;
}

export interface Payment {
  id: string;
  amount: number;
  currency: string;
  status: string;
  method: string;
  due_at: string | null;
  paid_at: string | null;
}

export interface Message {
  id: string;
  channel: string;
  direction: 'inbound' | 'outbound';
  status: string;
  from_address: string | null;
  to_address: string;
  subject: string;
  body: string;
  created_at: string;
  sent_at: string | null;
}

export interface Task {
  id: string;
  label: string;
  due_at: string;
  completed_at: string | null;
}

export interface ChangeEntry {
  id: string;
  created_at: string;
  what: string;
  user_id: string | null;
}

export interface BookingDetail {
  booking: { id: string; reference: string; created_at: string; confirmed_at: string | null; currency: string; language: string; method: string; occupancy: Record<string, number> };
  event: { id: string; product_id: string; start_date: string; end_date: string; status: Status; title: string; products: { name: Record<string, string>; rent_period: string } | null } | null;
  contacts: Contact[] | null;
  lineItems: LineItem[] | null;
  payments: Payment[] | null;
  messages: Message[] | null;
  tasks: Task[] | null;
  changes: ChangeEntry[] | null;
  details: { id: string; name: Record<string, string>; value: string | null }[] | null;
}

/** A part of the page the member may read, or null (the page says it is not shown to them). */
async function part<T>(allowed: boolean, read: () => PromiseLike<{ data: unknown; error: unknown; status: number }>): Promise<T | null> {
  if (!allowed) return null;
  return rowsOf(await read()) as T;
}

export async function loadBooking(bookingId: string, can: Can): Promise<BookingDetail | null> {
  const booking = rowsOf(await database.from('bookings')
    .select('id,reference,created_at,confirmed_at,currency,language,method,occupancy')
    .eq('id', bookingId).maybeSingle()) as BookingDetail['booking'] | null;
  if (!booking) return null;
  const [events, contacts, lineItems, payments, messages, details, bookingUpdates, eventUpdates] = await Promise.all([
    part<NonNullable<BookingDetail['event']>[]>(can('calendar_events'), () => database.from('calendar_events')
      .select(`id,product_id,start_date,end_date,status,title,products(name,rent_period)`).eq('booking_id', bookingId).eq('type', 'booking').limit(1)),
    part<Contact[]>(can('contacts') && can('contact_bookings'), () => database.from('contacts')
      .select('id,first_name,last_name,email,phone,country,language,contact_bookings!inner(booking_id)').eq('contact_bookings.booking_id', bookingId)),
    part<LineItem[]>(can('line_items'), () => database.from('line_items').select('id,name,item_type,fee_type,quantity,amount').eq('booking_id', bookingId).order('created_at')),
    part<Payment[]>(can('payments'), () => database.from('payments').select('id,amount,currency,status,method,due_at,paid_at').eq('booking_id', bookingId).order('created_at')),
    part<Message[]>(can('messages'), () => database.from('messages').select('id,channel,direction,status,from_address,to_address,subject,body,created_at,sent_at').eq('booking_id', bookingId).order('created_at')),
    part<BookingDetail['details']>(can('booking_details'), () => database.from('booking_details').select('id,name,value').eq('booking_id', bookingId).order('created_at')),
    part<{ id: string; created_at: string; changed_fields: string[]; user_id: string | null }[]>(can('booking_updates'), () => database.from('booking_updates')
      .select('id,created_at,changed_fields,user_id').eq('booking_id', bookingId).order('created_at')),
    part<{ id: string; created_at: string; kind: string; status: string | null; previous_status: string | null; changed_fields: string[]; user_id: string | null }[]>(
      can('calendar_event_updates'), () => database.from('calendar_event_updates')
        .select('id,created_at,kind,status,previous_status,changed_fields,user_id').eq('booking_id', bookingId).order('created_at')),
  ]);
  const event = events?.[0] ?? null;
  const tasks = event ? await part<Task[]>(can('calendar_event_tasks'), () => database.from('calendar_event_tasks')
    .select('id,label,due_at,completed_at').eq('calendar_event_id', event.id).order('due_at')) : null;
  const changes = bookingUpdates || eventUpdates ? [
    ...(bookingUpdates ?? []).map((update) => ({ id: update.id, created_at: update.created_at, user_id: update.user_id, what: `Booking changed: ${update.changed_fields.join(', ')}` })),
    ...(eventUpdates ?? []).map((update) => ({
      id: update.id, created_at: update.created_at, user_id: update.user_id,
      what: update.kind === 'created' ? `Stay created (${update.status?.toLowerCase()})`
        : update.previous_status !== update.status ? `Status ${update.previous_status?.toLowerCase()} → ${update.status?.toLowerCase()}`
          : `Stay ${update.kind}: ${update.changed_fields.join(', ')}`,
    })),
  ].sort((a, b) => a.created_at.localeCompare(b.created_at)) : null;
  return { booking, event, contacts, lineItems, payments, messages, tasks, changes, details };
}

/** Cancels the booking with a reason (POST /v1/booking-cancel): its dates are free at once, its coupon uses released. */
export async function cancelBooking(bookingId: string, reason: string, refund?: 'full'): Promise<void> {
  await requestJson('POST', '/v1/booking-cancel', {
    booking_id: bookingId, ...(reason.trim() ? { reason: reason.trim() } : {}), ...(refund ? { refund } : {}),
  });
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
