/**
 * Closing and reopening one date of a unit, the way the booking engine reads closures: a per-date price entry with
 * `closed` (docs/booking.md#prices-per-date). Reopening keeps the entry while it still sets a rate or a minimum stay.
 */
import { database, rowsOf, type Row } from '../api/database';

export type DateEntry = Pick<Row<'price_calendar_entries'>, 'id' | 'date' | 'rate' | 'min_duration' | 'closed'>;

export async function setClosed(unitId: string, date: string, entry: DateEntry | undefined, closed: boolean): Promise<void> {
  if (!entry) {
    rowsOf(await database.from('price_calendar_entries').insert({ product_id: unitId, date, closed }));
  } else if (!closed && entry.rate === null && entry.min_duration === null) {
    rowsOf(await database.from('price_calendar_entries').delete().eq('id', entry.id));
  } else {
    rowsOf(await database.from('price_calendar_entries').update({ closed }).eq('id', entry.id));
  }
}
