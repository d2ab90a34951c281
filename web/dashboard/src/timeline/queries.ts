/** What the timeline shows for a month: the units, their events in it, and tasks due in it. */
import { database, rowsOf, selectList, when, type Permitted, type Selected } from '../api/database';
import type { Can } from '../api/permissions';
import { addDays } from '../common/dates';
import { localized } from '../common/format';

export interface Unit {
  id: string;
  name: string;
}

/** An event's booking as a bar or an overlap names it: its reference and, when the member may read them, its guests. */
export const namedBooking = (can: Can) =>
  when(can('bookings'), `bookings(${selectList('reference', when(can('contacts') && can('contact_bookings'), 'contact_bookings(contacts(first_name,last_name))'))})`);
export type NamedBooking = Permitted<NonNullable<Selected<'calendar_events', ReturnType<typeof namedBooking>>['bookings']>, 'contact_bookings'>;

const eventsSelect = (can: Can) => selectList('id,product_id,booking_id,calendar_id,type,status,start_date,end_date,padding,title',
  when(can('external_calendars'), 'external_calendars(name)'), namedBooking(can));
type LoadedEvent = Selected<'calendar_events', ReturnType<typeof eventsSelect>>;

/** An event of the month; its feed's name and its booking when the member may read them. */
export type TimelineEvent = Permitted<Omit<LoadedEvent, 'bookings'> & { bookings: NamedBooking | null }, 'external_calendars' | 'bookings'>;

/**
 * What a booking's bar says: its title when someone wrote one, else its guest's name (when the member may read
 * contacts), else its reference, else `fallback` (the word "Booking").
 */
export function bookingLabel(event: TimelineEvent, fallback: string): string {
  const contact = event.bookings?.contact_bookings?.find((link) => link.contacts)?.contacts;
  const guest = contact ? `${contact.first_name} ${contact.last_name}`.trim() : '';
  return event.title || guest || event.bookings?.reference || fallback;
}

const TASK = 'id,label,due_at,completed_at,calendar_events(product_id)';
export type TimelineTask = Selected<'calendar_event_tasks', typeof TASK>;

export interface TimelineData {
  units: Unit[];
  events: TimelineEvent[];
  tasks: TimelineTask[];
}

/** `unnamed`: the name of the n-th unit of a member who may not read units ("Unit 2"). */
export async function loadTimeline(first: string, days: number, can: Can, locale: string, showCancelled: boolean, unnamed: (number: number) => string): Promise<TimelineData> {
  const monthEnd = addDays(first, days);
  // Embeds only of what the member may read: asking for more would be refused as a whole.
  let events = database
    .from('calendar_events')
    .select(eventsSelect(can))
    .lt('start_date', monthEnd)
    .gt('end_date', first)
    .neq('type', 'note')
    .order('start_date')
    .limit(1000);
  if (!showCancelled) events = events.neq('status', 'CANCELLED');
  const unitsQuery = can('products')
    ? database.from('products').select('id,name').is('deleted_at', null).order('created_at').limit(1000)
    : null;
  const tasksQuery = can('calendar_event_tasks')
    ? database.from('calendar_event_tasks').select(TASK)
      // A day's margin on both sides covers every time zone; the page keeps the tasks due this month there.
      .gte('due_at', addDays(first, -1)).lt('due_at', addDays(monthEnd, 1)).order('due_at').limit(1000)
    : null;
  const [eventRows, unitRows, taskRows] = await Promise.all([events, unitsQuery, tasksQuery]);
  const eventList: TimelineEvent[] = rowsOf(eventRows);
  const units = unitRows
    ? rowsOf(unitRows).map((unit) => ({ id: unit.id, name: localized(unit.name, locale) }))
    : unitsFromEvents(eventList, unnamed);
  return { units, events: eventList, tasks: taskRows ? rowsOf(taskRows) : [] };
}

/** Without access to the units, the rows are the units that have events this month. */
function unitsFromEvents(events: TimelineEvent[], unnamed: (number: number) => string): Unit[] {
  const ids = [...new Set(events.map((event) => event.product_id))];
  return ids.map((id, index) => ({ id, name: unnamed(index + 1) }));
}
