/**
 * A refused overlap (409 `23P01` from the calendar's no-overlap constraint) in a manager's words: which booking — its
 * reference and guest — or which block holds the dates, read back from the unit's calendar. Row-level security keeps
 * PostgreSQL itself from naming the other row.
 */
import { database, rowsOf, selectList, type Selected } from '../api/database';
import { ApiError, toApiError } from '../api/errors';
import type { Can } from '../api/permissions';
import { namedBooking, type NamedBooking } from './queries';

const holdersSelect = (can: Can) => selectList('type,title,start_date,end_date', namedBooking(can));
/** What holds the dates: a booking (named as on the timeline, when the member may read bookings) or a block. */
type Holder = Omit<Selected<'calendar_events', ReturnType<typeof holdersSelect>>, 'bookings'> & { bookings?: NamedBooking | null };

export async function explainOverlap(error: unknown, unitId: string, start: string, end: string, can: Can, date: (day: string) => string): Promise<unknown> {
  const failure = toApiError(error);
  if (failure.body.code !== '23P01') return error;
  const holders: Holder[] = rowsOf(await database.from('calendar_events').select(holdersSelect(can))
    .eq('product_id', unitId).neq('status', 'CANCELLED').in('type', ['booking', 'blocked period'])
    .lt('start_date', end).gte('end_date', start).order('start_date').limit(3));
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
