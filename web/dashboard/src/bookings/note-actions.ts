/**
 * Private notes on a booking's stay (`calendar_event_notes`): the team's, never shown to guests. The database makes
 * the signed-in member the author (migration 0246).
 */
import { database, rowsOf } from '../api/database';

export async function addNote(calendarEventId: string, note: string): Promise<void> {
  rowsOf(await database.from('calendar_event_notes').insert({ calendar_event_id: calendarEventId, note }).select('id'));
}
