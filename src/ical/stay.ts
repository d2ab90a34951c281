/**
 * A guest's stay as an iCalendar file: the `.ics` attached to e-mails (`include_ical_data`) and the guest page's
 * "add to calendar" are this one function, so a guest who adds both has the stay once — same UID
 * (`<booking id>@staykit`), and a newer DTSTAMP and status replace the older copy. One all-day VEVENT over the stay,
 * DTEND exclusive as calendar events store end dates.
 */
import ICAL from 'ical.js';
import { PRODID } from './export.js';

export interface GuestStay {
  bookingId: string;
  reference: string;
  /** The unit's name in the guest's language. */
  title: string;
  /** The address the guest may see now (the approximate one until a hidden exact address is revealed). */
  location: string;
  start: string;
  end: string;
  status: 'CONFIRMED' | 'TENTATIVE' | 'CANCELLED' | string;
}

/** The stay's calendar file; `stamp` (DTSTAMP) is when it was made. */
export function stayCalendar(stay: GuestStay, stamp: Date): string {
  const calendar = new ICAL.Component(['vcalendar', [], []]);
  calendar.updatePropertyWithValue('prodid', PRODID);
  calendar.updatePropertyWithValue('version', '2.0');
  calendar.updatePropertyWithValue('method', 'PUBLISH');
  const event = new ICAL.Component('vevent');
  event.updatePropertyWithValue('uid', `${stay.bookingId}@staykit`);
  event.updatePropertyWithValue('dtstamp', ICAL.Time.fromJSDate(new Date(Math.floor(stamp.getTime() / 1000) * 1000), true));
  event.updatePropertyWithValue('dtstart', ICAL.Time.fromDateString(stay.start));
  event.updatePropertyWithValue('dtend', ICAL.Time.fromDateString(stay.end));
  event.updatePropertyWithValue('summary', `${stay.title} (${stay.reference})`);
  if (stay.location) event.updatePropertyWithValue('location', stay.location);
  event.updatePropertyWithValue('status', stay.status === 'CANCELLED' ? 'CANCELLED' : stay.status === 'CONFIRMED' ? 'CONFIRMED' : 'TENTATIVE');
  calendar.addSubcomponent(event);
  return calendar.toString().replace(/\r?\n/g, '\r\n') + '\r\n';
}
