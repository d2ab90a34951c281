/**
 * A refused overlap (409 `23P01` from the calendar's no-overlap constraint) in a manager's words: which booking — its
 * reference and guest — or which block holds the dates, read back from the unit's calendar. Row-level security keeps
 * PostgreSQL itself from naming the other row.
 */
import { database, rowsOf } from '../api/database';
import { ApiError, toApiError } from '../api/errors';
import type { Can } from '../api/permissions';

interface Holder {
  type: 'booking' | 'blocked period';
  title: string;
  start_date: string;
  end_date: string;
  bookings?: { reference: string; contact_bookings?: { contacts: { first_name: string; last_name: string } | null }[] } | null;
}

export async function explainOverlap(error: unknown, unitId: string, start: string, end: string, can: Can, date: (day: string) => string): Promise<unknown> {
  const failure = toApiError(error);
  if (failure.body.code !== '23P01') return error;
  const guests = can('contacts') && can('contact_bookings') ? ',contact_bookings(contacts(first_name,last_name))' : '';
  const holders = rowsOf(await database.from('calendar_events')
    .select(`type,title,start_date,end_date${can('bookings') ? `,bookings(reference${guests})` : ''}`)
    .eq('product_id', unitId).neq('status', 'CANCELLED').in('type', ['booking', 'blocked period'])
    .lt('start_date', end).gte('end_date', start).order('start_date').limit(3)) as unknown as Holder[];
  if (holders.length === 0) return error;
  const names = holders.map((holder) => {
    const contact = holder.bookings?.contact_bookings?.find((link) => link.contacts)?.contacts;
    const who = holder.type === 'booking'
      ? `booking ${holder.bookings?.reference ?? ''}${contact ? ` (${contact.first_name} ${contact.last_name})` : ''}`.replace(/\s+/g, ' ')
      : `the block "${holder.title || 'Blocked'}"`;
    return `${who}, ${date(holder.start_date)} – ${date(holder.end_date)}`;
  });
  return new ApiError(failure.status, {
    code: failure.body.code,
    message: `These dates are taken by ${names.join('; ')}.`,
    details: null,
    hint: 'Choose other days, or move or cancel what holds them (a cooldown after a stay counts too).',
  });
}
