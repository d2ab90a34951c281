/** The `show_*_as` options of availability and search: how bookings, closed dates and pending bookings appear. */

export interface ShowOptions {
  showBookedAs: 'booked' | 'unavailable';
  showClosedAs: 'closed' | 'unavailable';
  showPendingAs: 'CANCELLED' | 'TENTATIVE' | 'CONFIRMED';
}

/** The options as validated (request-schemas.ts), with their defaults. */
export function toShowOptions(source: {
  show_booked_as?: ShowOptions['showBookedAs'];
  show_closed_as?: ShowOptions['showClosedAs'];
  show_pending_as?: ShowOptions['showPendingAs'];
}): ShowOptions {
  return {
    showBookedAs: source.show_booked_as ?? 'unavailable',
    showClosedAs: source.show_closed_as ?? 'unavailable',
    showPendingAs: source.show_pending_as ?? 'TENTATIVE',
  };
}
