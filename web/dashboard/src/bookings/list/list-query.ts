/**
 * The bookings list's request: booking events with their unit and booking, narrowed by the list's filters and sorted,
 * one page at a time with the total (`Prefer: count=exact`), or every matching row in batches for the CSV export.
 * Every filter is the API's own (no view): the source is derived as the reports derive it (migration 0240,
 * `report_unit_months.bookings_*`), paid/unpaid from the booking's payments through embeds used only to filter.
 */
import { database, innerJoined, rowsOf, selectList, when, type Permitted, type Selected } from '../../api/database';
import type { Can } from '../../api/permissions';
import type { Status } from '../queries';

/** Where a booking came from, in the reports' order of precedence (an import, a widget, a site, a dashboard user, the API). */
export const SOURCES = ['widget', 'site', 'dashboard', 'api', 'import'] as const;
export type Source = (typeof SOURCES)[number];

/** Paid: every payment not cancelled is paid (at least one). Unpaid: some payment is still open. */
export const PAYMENT_FILTERS = ['paid', 'unpaid'] as const;
export type PaymentFilter = (typeof PAYMENT_FILTERS)[number];

/** Upcoming: current and upcoming stays, nearest first (the default); the others list every stay. */
export const SORTS = ['upcoming', 'arrival_desc', 'arrival_asc', 'created_desc', 'created_asc'] as const;
export type Sort = (typeof SORTS)[number];

export interface ListFilters {
  status: Status | null;
  unit: string | null;
  /** Stays that overlap `[from, to]`. */
  from: string | null;
  to: string | null;
  /** Name or e-mail of a guest (only for members who may read contacts). */
  guest: string;
  reference: string;
  source: Source | null;
  payment: PaymentFilter | null;
  sort: Sort;
  /** Today in the organization's calendar: "upcoming" means stays that end today or later. */
  today: string;
}

export const PAGE_SIZE = 25;
/** Rows per request of the export: the API's page limit. */
const EXPORT_BATCH = 1000;

const GUESTS = 'contact_bookings(contacts(id,first_name,last_name,email))';

/**
 * The select: what the member may read, and the embeds the filters need. With a guest search the guests' embeds are
 * `!inner` (a booking without a matching guest is left out); the payment filter embeds the open or the paid payments
 * under their own names, filtered, so that their presence or absence narrows the bookings.
 */
function listSelect(can: Can, guestSearch: boolean, payment: boolean) {
  const guests = guestSearch ? GUESTS.replaceAll('(', '!inner(') as typeof GUESTS : GUESTS;
  const booking = selectList('id,reference,created_at,currency,widget_id,site_id', when(can('contacts'), guests),
    when(can('line_items'), 'line_items(amount,fee_type)'), when(can('payments'), 'payments(amount,status)'),
    when(payment, 'open_payments:payments(id)'), when(payment, 'paid_payments:payments(id)'));
  return selectList('id,booking_id,product_id,start_date,end_date,status,title,origin,creator_id,created_at,products(name)', `bookings!inner(${booking})`);
}

type ListedEvent = Selected<'calendar_events', ReturnType<typeof listSelect>>;

/** A booking of the list: its event, unit and booking; the guests, price lines and payments when the member may read them. */
export type ListedBooking = Omit<ListedEvent, 'bookings'> & {
  bookings: Permitted<NonNullable<ListedEvent['bookings']>, 'contact_bookings' | 'line_items' | 'payments' | 'open_payments' | 'paid_payments'>;
};

/** A value for an `ilike` pattern: PostgREST's wildcard is `*`; characters that break the `or` list are dropped. */
const pattern = (text: string) => `*${text.replace(/[*,()"\\]/g, ' ').trim()}*`;

/** The source of a listed booking, by the reports' rule. */
export function sourceOf(row: Pick<ListedBooking, 'origin' | 'creator_id'> & { bookings: { widget_id: string | null; site_id: string | null } }): Source {
  if (row.origin === 'import') return 'import';
  if (row.bookings.widget_id !== null) return 'widget';
  if (row.bookings.site_id !== null) return 'site';
  return row.creator_id !== null ? 'dashboard' : 'api';
}

function filtered(filters: ListFilters, can: Can) {
  const guest = can('contacts') && filters.guest.trim() !== '';
  const payment = can('payments') ? filters.payment : null;
  let query = database
    .from('calendar_events')
    .select(listSelect(can, guest, payment !== null), { count: 'exact' })
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
  if (filters.source === 'import') query = query.eq('origin', 'import');
  else if (filters.source) {
    query = query.or('origin.is.null,origin.neq.import');
    if (filters.source === 'widget') query = query.not('bookings.widget_id', 'is', null);
    else {
      query = query.is('bookings.widget_id', null);
      if (filters.source === 'site') query = query.not('bookings.site_id', 'is', null);
      else {
        query = query.is('bookings.site_id', null);
        query = filters.source === 'dashboard' ? query.not('creator_id', 'is', null) : query.is('creator_id', null);
      }
    }
  }
  if (payment) {
    query = query.not('bookings.open_payments.status', 'in', '(paid,cancelled)').eq('bookings.paid_payments.status', 'paid');
    query = payment === 'unpaid'
      ? query.not('bookings.open_payments', 'is', null)
      : query.is('bookings.open_payments', null).not('bookings.paid_payments', 'is', null);
  }
  // Current and upcoming stays — unless the member searches for a guest, a reference or dates, which may lie in the past.
  if (filters.sort === 'upcoming' && !filters.from && !filters.to && !guest && !filters.reference.trim()) {
    query = query.gte('end_date', filters.today);
  }
  const [column, ascending] = filters.sort.startsWith('created') ? ['created_at', filters.sort === 'created_asc'] as const
    : ['start_date', filters.sort !== 'arrival_desc'] as const;
  return query.order(column, { ascending }).order('id');
}

/** One page (from 0) of the bookings matching `filters`, and how many match. */
export async function listBookings(filters: ListFilters, page: number, can: Can): Promise<{ rows: ListedBooking[]; total: number }> {
  const result = await filtered(filters, can).range(page * PAGE_SIZE, page * PAGE_SIZE + PAGE_SIZE - 1);
  return { rows: innerJoined(rowsOf(result), 'bookings'), total: result.count ?? 0 };
}

/** Every booking matching `filters`, in the list's order, read in batches of the API's page limit. */
export async function listAllBookings(filters: ListFilters, can: Can): Promise<ListedBooking[]> {
  const rows: ListedBooking[] = [];
  for (let offset = 0; ; offset += EXPORT_BATCH) {
    const result = await filtered(filters, can).range(offset, offset + EXPORT_BATCH - 1);
    rows.push(...innerJoined(rowsOf(result), 'bookings'));
    if (offset + EXPORT_BATCH >= (result.count ?? 0)) return rows;
  }
}
