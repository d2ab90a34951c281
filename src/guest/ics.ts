/** The guest's "add to calendar" file: one all-day VEVENT over the stay (end exclusive, as stored), with ical.js. */
import ICAL from 'ical.js';
import { PRODID } from '../ical/export.js';

export interface GuestStay {
  bookingId: string;
  reference: string;
  title: string;
  address: string;
  start: string;
  end: string;
  status: string;
}

export function guestCalendar(stay: GuestStay): string {
  const calendar = new ICAL.Component(['vcalendar', [], []]);
  calendar.updatePropertyWithValue('prodid', PRODID);
  calendar.updatePropertyWithValue('version', '2.0');
  const event = new ICAL.Component('vevent');
  event.updatePropertyWithValue('uid', `${stay.bookingId}-guest@staykit`);
  event.updatePropertyWithValue('dtstamp', ICAL.Time.fromJSDate(new Date(0), true));
  event.updatePropertyWithValue('dtstart', ICAL.Time.fromDateString(stay.start));
  event.updatePropertyWithValue('dtend', ICAL.Time.fromDateString(stay.end));
  event.updatePropertyWithValue('summary', `${stay.title} (${stay.reference})`);
  if (stay.address) event.updatePropertyWithValue('location', stay.address);
  event.updatePropertyWithValue('status', stay.status === 'CANCELLED' ? 'CANCELLED' : stay.status === 'CONFIRMED' ? 'CONFIRMED' : 'TENTATIVE');
  calendar.addSubcomponent(event);
  return calendar.toString().replace(/\r?\n/g, '\r\n') + '\r\n';
}
