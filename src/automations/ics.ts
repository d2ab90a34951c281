/**
 * The `.ics` attachment of `include_ical_data`: the stay as one all-day event (DTEND exclusive, as calendar
 * events store end dates), with a UID stable per booking so a calendar app updates it rather than adding another.
 */
import type { BookingRecord } from './context.js';
import { localized, guestLanguage } from './variables.js';

const compact = (date: string) => date.replaceAll('-', '');

/** RFC 5545 TEXT escaping, and lines folded at 75 octets. */
function text(value: string): string {
  return value.replace(/[\\;,]/g, (c) => `\\${c}`).replace(/\r?\n/g, '\\n');
}

function fold(line: string): string {
  const bytes = Buffer.from(line, 'utf8');
  if (bytes.length <= 75) return line;
  const parts: string[] = [];
  let current = '';
  for (const char of line) {
    if (Buffer.byteLength(current + char, 'utf8') > (parts.length === 0 ? 75 : 74)) {
      parts.push(current);
      current = char;
    } else current += char;
  }
  parts.push(current);
  return parts.join('\r\n ');
}

export function bookingIcs(record: BookingRecord, now: Date): string {
  const language = guestLanguage(record);
  const stamp = now.toISOString().replace(/[-:]/g, '').replace(/\.\d{3}/, '');
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//Staykit//Automations//EN',
    'METHOD:PUBLISH',
    'BEGIN:VEVENT',
    `UID:${record.booking.id}@staykit`,
    `DTSTAMP:${stamp}`,
    `DTSTART;VALUE=DATE:${compact(record.event.start_date)}`,
    `DTEND;VALUE=DATE:${compact(record.event.end_date)}`,
    `SUMMARY:${text(`${localized(record.product.name, language)} (${record.booking.reference})`)}`,
    `LOCATION:${text(record.product.hide_exact_address || !record.product.exact_address ? record.product.approximate_address : record.product.exact_address)}`,
    `STATUS:${record.event.status === 'CANCELLED' ? 'CANCELLED' : record.event.status === 'TENTATIVE' ? 'TENTATIVE' : 'CONFIRMED'}`,
    'END:VEVENT',
    'END:VCALENDAR',
  ];
  return `${lines.map(fold).join('\r\n')}\r\n`;
}
