/**
 * What the Today page reads, one bounded request per section (date-filtered, with a limit), each made only when the
 * member may read what it asks for (./sections.ts): asking for more would refuse the whole request. Embeds a member
 * may not read are left out of the select, and the answer says so with `null` (e.g. no guest name for a cleaner).
 */
import { database, rowsOf, selectList, when, type Enums } from '../api/database';
import type { Can } from '../api/permissions';
import { addDays } from '../common/dates';
import { localized, type Formatter } from '../common/format';
import { guestCount } from '../../../../src/common/guests.js';
import { loadSumGroups, paymentStateOf, type PaymentState, type Status } from '../bookings/queries';
import { compareMonths, totalsCurrency, type MonthComparison } from '../reports/figures';
import { loadReport } from '../reports/queries';

/** At most this many rows a section lists; more is a sign to open the page where they are handled. */
export const SECTION_LIMIT = 100;

interface GuestLinks {
  contact_bookings?: { contacts: { first_name: string | null; last_name: string | null } | null }[];
}

/** The first guest's name of a booking; null when the member may not read guests (or there is none). */
function guestName(booking: GuestLinks | null | undefined): string | null {
  const contact = booking?.contact_bookings?.find((link) => link.contacts)?.contacts;
  const name = contact ? `${contact.first_name ?? ''} ${contact.last_name ?? ''}`.trim() : '';
  return name || null;
}

const guestsEmbed = (can: Can) => when(can('contacts') && can('contact_bookings'), 'contact_bookings(contacts(first_name,last_name))');

/** A stay as Today lists it; the parts the member may not read are null. */
export interface TodayStay {
  eventId: string;
  bookingId: string | null;
  status: Status;
  start: string;
  end: string;
  unit: string | null;
  reference: string | null;
  guest: string | null;
  guests: number | null;
  /** The booking's "arrival time" answer (a booking detail whose name mentions arrival), when it has one. */
  arrivalTime: string | null;
  payment: PaymentState | undefined;
}

/** The answer a booking form field gives for the arrival time: a detail named "Arrival time" (in any of its languages). */
function arrivalTimeOf(details: readonly { name: Record<string, string>; value: string | null }[] | undefined): string | null {
  const detail = details?.find((field) => Object.values(field.name).some((text) => /arriv|aankomst|ankunft/i.test(text)) && field.value);
  return detail?.value ?? null;
}

const staySelect = (can: Can) => {
  const booking = selectList('reference,occupancy', guestsEmbed(can), when(can('payments'), 'payments(status)'),
    when(can('booking_details'), 'booking_details(name,value)'));
  return selectList('id,booking_id,status,start_date,end_date', when(can('products'), 'products(name)'), when(can('bookings'), `bookings(${booking})`));
};

/**
 * The stays that touch today or tomorrow (arriving, leaving or staying), not cancelled: one request for the
 * arrivals, departures and stays in progress.
 */
export async function loadStays(can: Can, today: string, locale: string): Promise<TodayStay[]> {
  const [result, sumGroups] = await Promise.all([
    database.from('calendar_events').select(staySelect(can))
      .eq('type', 'booking').neq('status', 'CANCELLED').lte('start_date', addDays(today, 1)).gte('end_date', today)
      .order('start_date').order('id').limit(SECTION_LIMIT * 3),
    can('bookings') ? loadSumGroups(can) : [],
  ]);
  const rows = rowsOf(result);
  return rows.map((row) => {
    const booking = 'bookings' in row ? row.bookings : undefined;
    const unit = 'products' in row ? row.products : undefined;
    return {
      eventId: row.id,
      bookingId: row.booking_id,
      status: row.status,
      start: row.start_date,
      end: row.end_date,
      unit: unit ? localized(unit.name, locale) : null,
      reference: booking?.reference ?? null,
      guest: guestName(booking),
      guests: booking ? guestCount(booking.occupancy, sumGroups) : null,
      arrivalTime: arrivalTimeOf(booking && 'booking_details' in booking ? booking.booking_details : undefined),
      payment: paymentStateOf(booking && 'payments' in booking ? booking.payments : undefined),
    };
  });
}

/** A booking request waiting for the host's answer. */
export interface TodayRequest {
  bookingId: string;
  reference: string;
  unit: string;
  start: string;
  end: string;
  guest: string | null;
  guests: number;
  requestedAt: string;
}

/** The requests still waiting (tentative stays of units booked on request) that have not ended, nearest first. */
export async function loadRequests(can: Can, today: string, locale: string): Promise<TodayRequest[]> {
  const [result, sumGroups] = await Promise.all([
    database.from('calendar_events')
      .select(selectList('booking_id,start_date,end_date,products!inner(name,interaction)', `bookings!inner(${selectList('id,reference,occupancy,created_at', guestsEmbed(can))})`))
      .eq('type', 'booking').eq('status', 'TENTATIVE').eq('products.interaction', 'request').gte('end_date', today)
      .order('start_date').order('id').limit(SECTION_LIMIT),
    loadSumGroups(can),
  ]);
  const rows = rowsOf(result);
  return rows.flatMap((row) => {
    if (!row.bookings || !row.products) return [];
    return [{
      bookingId: row.bookings.id,
      reference: row.bookings.reference,
      unit: localized(row.products.name, locale),
      start: row.start_date,
      end: row.end_date,
      guest: guestName(row.bookings),
      guests: guestCount(row.bookings.occupancy, sumGroups),
      requestedAt: row.bookings.created_at,
    }];
  });
}

/** A payment due before now and not paid. */
export interface OverduePayment {
  id: string;
  bookingId: string;
  reference: string | null;
  guest: string | null;
  amount: number;
  currency: string;
  status: Enums<'payments_status'>;
  dueAt: string;
}

/** Payments still owed (pending, failed or expired) whose due moment has passed, the longest overdue first. */
export async function loadOverduePayments(can: Can, now: Date): Promise<OverduePayment[]> {
  const rows = rowsOf(await database.from('payments')
    .select(selectList('id,booking_id,amount,currency,status,due_at', when(can('bookings'), `bookings(${selectList('reference', guestsEmbed(can))})`)))
    .in('status', ['pending', 'failed', 'expired']).lt('due_at', now.toISOString()).not('booking_id', 'is', null)
    .order('due_at').order('id').limit(SECTION_LIMIT));
  return rows.flatMap((row) => {
    if (!row.booking_id || !row.due_at) return [];
    const booking = 'bookings' in row ? row.bookings : undefined;
    return [{
      id: row.id, bookingId: row.booking_id, reference: booking?.reference ?? null, guest: guestName(booking),
      amount: row.amount, currency: row.currency, status: row.status, dueAt: row.due_at,
    }];
  });
}

/** A task due today in the organization's time zone. */
export interface TodayTask {
  id: string;
  label: string;
  dueAt: string;
  done: boolean;
  unit: string | null;
  bookingId: string | null;
}

/** The tasks due today (in the organization's time zone), done or not, the earliest first. */
export async function loadTasksDueToday(can: Can, format: Formatter): Promise<TodayTask[]> {
  const today = format.today();
  const event = selectList('booking_id', when(can('products'), 'products(name)'));
  const rows = rowsOf(await database.from('calendar_event_tasks')
    .select(selectList('id,label,due_at,completed_at', when(can('calendar_events'), `calendar_events(${event})`)))
    // A day's margin on both sides covers every time zone; the day in the organization's is kept below.
    .gte('due_at', addDays(today, -1)).lt('due_at', addDays(today, 2)).order('due_at').order('id').limit(SECTION_LIMIT * 3));
  return rows.filter((row) => format.dayOf(row.due_at) === today).map((row) => {
    const stay = 'calendar_events' in row ? row.calendar_events : undefined;
    const unit = stay && 'products' in stay ? stay.products : undefined;
    return {
      id: row.id, label: row.label, dueAt: row.due_at, done: row.completed_at !== null,
      unit: unit ? localized(unit.name, format.locale) : null, bookingId: stay?.booking_id ?? null,
    };
  });
}

/** An imported iCal calendar whose last sync had a problem. */
export interface SyncProblem {
  id: string;
  name: string | null;
  unit: string | null;
  error: string;
  lastSynced: string | null;
}

export async function loadSyncProblems(can: Can, locale: string): Promise<SyncProblem[]> {
  const rows = rowsOf(await database.from('external_calendars')
    .select(selectList('id,name,error,last_synced', when(can('products'), 'products(name)')))
    .not('error', 'is', null).order('created_at').limit(SECTION_LIMIT));
  return rows.flatMap((row) => {
    if (!row.error) return [];
    const unit = 'products' in row ? row.products : undefined;
    return [{ id: row.id, name: row.name, unit: unit ? localized(unit.name, locale) : null, error: row.error, lastSynced: row.last_synced }];
  });
}

/**
 * This month's occupancy and revenue and those of the same month a year earlier, as the reports page computes them
 * (reports/figures.ts), from /v1/report_unit_months of every unit.
 */
export async function loadMonthComparison(month: string, organizationCurrency: string): Promise<{ comparison: MonthComparison; currency: string }> {
  const { rows, lastYearRows } = await loadReport({ from: month, to: month, units: [] });
  const currency = totalsCurrency(rows, organizationCurrency);
  return { comparison: compareMonths([month], rows, lastYearRows, currency)[0]!, currency };
}
