/** What the timeline shows for a month: the units, their events in it, and tasks due in it. */
import { database, rowsOf } from '../api/database';
import type { Can } from '../api/permissions';
import { addDays } from '../common/dates';
import { localized } from '../common/format';

export interface Unit {
  id: string;
  name: string;
}

export interface TimelineEvent {
  id: string;
  product_id: string;
  booking_id: string | null;
  calendar_id: string | null;
  type: 'booking' | 'blocked period' | 'note';
  status: 'CONFIRMED' | 'TENTATIVE' | 'CANCELLED';
  start_date: string;
  end_date: string;
  padding: number;
  title: string;
  external_calendars?: { name: string | null } | null;
  bookings?: { reference: string; contact_bookings?: { contacts: { first_name: string; last_name: string } | null }[] } | null;
}

/**
 * What a booking's bar says: its title when someone wrote one, else its guest's name (when the member may read
 * contacts), else its reference.
 */
export function bookingLabel(event: TimelineEvent): string {
  const contact = event.bookings?.contact_bookings?.find((link) => link.contacts)?.contacts;
  const guest = contact ? `${contact.first_name} ${contact.last_name}`.trim() : '';
  return event.title || guest || event.bookings?.reference || 'Booking';
}

export interface TimelineTask {
  id: string;
  label: string;
  due_at: string;
  completed_at: string | null;
  calendar_events: { product_id: string } | null;
}

export interface TimelineData {
  units: Unit[];
  events: TimelineEvent[];
  tasks: TimelineTask[];
}

export async function loadTimeline(first: string, days: number, can: Can, locale: string, showCancelled: boolean): Promise<TimelineData> {
  const monthEnd = addDays(first, days);
  // Embeds only of what the member may read: asking for more would be refused as a whole.
  const guests = can('contacts') && can('contact_bookings') ? ',contact_bookings(contacts(first_name,last_name))' : '';
  const embeds = [can('external_calendars') && 'external_calendars(name)', can('bookings') && `bookings(reference${guests})`].filter(Boolean);
  let events = database
    .from('calendar_events')
    .select(['id,product_id,booking_id,calendar_id,type,status,start_date,end_date,padding,title', ...embeds].join(','))
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
    ? database.from('calendar_event_tasks').select('id,label,due_at,completed_at,calendar_events(product_id)')
      // A day's margin on both sides covers every time zone; the page keeps the tasks due this month there.
      .gte('due_at', addDays(first, -1)).lt('due_at', addDays(monthEnd, 1)).order('due_at').limit(1000)
    : null;
  const [eventRows, unitRows, taskRows] = await Promise.all([events, unitsQuery, tasksQuery]);
  const eventList = rowsOf(eventRows) as unknown as TimelineEvent[];
  const units = unitRows
    ? (rowsOf(unitRows) as { id: string; name: Record<string, string> }[]).map((unit) => ({ id: unit.id, name: localized(unit.name, locale) }))
    : unitsFromEvents(eventList);
  return { units, events: eventList, tasks: taskRows ? (rowsOf(taskRows) as unknown as TimelineTask[]) : [] };
}

/** Without access to the units, the rows are the units that have events this month. */
function unitsFromEvents(events: TimelineEvent[]): Unit[] {
  const ids = [...new Set(events.map((event) => event.product_id))];
  return ids.map((id, index) => ({ id, name: `Unit ${index + 1}` }));
}
