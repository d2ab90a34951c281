/** The `show_*_as` options of availability and search: how bookings, closed dates and pending bookings appear. */
import { invalidInput } from './errors.js';

export interface ShowOptions {
  showBookedAs: 'booked' | 'unavailable';
  showClosedAs: 'closed' | 'unavailable';
  showPendingAs: 'CANCELLED' | 'TENTATIVE' | 'CONFIRMED';
}

function pick<T extends string>(value: unknown, name: string, allowed: readonly T[], fallback: T): T {
  if (value === undefined || value === '') return fallback;
  if (typeof value !== 'string' || !(allowed as readonly string[]).includes(value)) {
    throw invalidInput(`${name} must be one of ${allowed.join(', ')}`);
  }
  return value as T;
}

export function parseShowOptions(source: Record<string, unknown>): ShowOptions {
  return {
    showBookedAs: pick(source.show_booked_as, 'show_booked_as', ['booked', 'unavailable'] as const, 'unavailable'),
    showClosedAs: pick(source.show_closed_as, 'show_closed_as', ['closed', 'unavailable'] as const, 'unavailable'),
    showPendingAs: pick(source.show_pending_as, 'show_pending_as', ['CANCELLED', 'TENTATIVE', 'CONFIRMED'] as const, 'TENTATIVE'),
  };
}
