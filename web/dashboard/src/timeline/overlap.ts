/**
 * A refused overlap (409 `23P01` from the calendar's no-overlap constraint) in a manager's words: which booking — its
 * reference and guest — or which block holds the dates, read back from the unit's calendar. Row-level security keeps
 * PostgreSQL itself from naming the other row. Worded in the reader's language: the error is made here, not by the API.
 */
import i18next from 'i18next';
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
  const t = i18next.getFixedT(null, 'calendar');
  const names = holders.map((holder) => {
    const contact = holder.bookings?.contact_bookings?.find((link) => link.contacts)?.contacts;
    const reference = holder.bookings?.reference ?? '';
    const who = holder.type === 'booking'
      ? (contact ? t('overlap.bookingOf', { reference, guest: `${contact.first_name} ${contact.last_name}` }) : t('overlap.booking', { reference })).replace(/\s+/g, ' ')
      : t('overlap.block', { title: holder.title || t('grid.blocked') });
    return t('overlap.holder', { who, start: date(holder.start_date), end: date(holder.end_date) });
  });
  return new ApiError(failure.status, {
    code: failure.body.code,
    message: t('overlap.taken', { holders: names.join('; ') }),
    details: null,
    hint: t('overlap.hint'),
  });
}
