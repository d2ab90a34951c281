/**
 * The webhook event catalogue (docs/design.md#webhooks). The database holds the same list in
 * `staykit_internal.webhook_event_catalogue()` (it validates `webhooks.events`); a test keeps the two equal.
 */
export const EVENT_RESOURCES = [
  'products', 'bookings', 'calendar_events', 'calendar_event_tasks', 'contacts', 'coupons', 'invoices',
  'payments', 'members', 'sites', 'widgets', 'external_calendars', 'product_configurations',
] as const;

export type EventResource = (typeof EVENT_RESOURCES)[number];

export const SEMANTIC_EVENTS = [
  'calendar_events.confirmed',
  'calendar_events.cancelled',
  'calendar_event_tasks.completed',
  'payments.paid',
  'external_calendars.sync_failed',
  // Automations (docs/automations.md): a message's delivery recorded as sent, or as failed for good.
  'messages.sent',
  'messages.failed',
  // The whole booking as one transaction commits it (docs/webhooks.md#booking-events, migration 0131).
  'booking.created',
  'booking.updated',
  'booking.confirmed',
  'booking.cancelled',
  // A unit's availability or prices changed on some dates, coalesced per second (docs/webhooks.md, migration 0132).
  'availability.changed',
  'rates.changed',
] as const;

export const EVENT_TYPES: readonly string[] = [
  ...EVENT_RESOURCES.flatMap((resource) => ['created', 'updated', 'deleted'].map((op) => `${resource}.${op}`)),
  ...SEMANTIC_EVENTS,
];

/** `webhooks.events` matching: the exact type or `*`. */
export function isSubscribed(events: readonly string[], eventType: string): boolean {
  return events.includes('*') || events.includes(eventType);
}

/** The body that is POSTed (docs/design.md#webhooks). */
export interface NotificationBody {
  id: string;
  date: number;
  event_type: string;
  payload: { new: Record<string, unknown> | null; old: Record<string, unknown> | null } | Record<string, unknown>;
}
