/**
 * The webhook events as the server uses them. The catalogue itself — every event a webhook may subscribe to, what it
 * means and the read scopes its payload needs — is the table staykit_internal.webhook_event_types (migration 0218),
 * served by GET /v1/webhook-events (./catalogue.ts). Here: the resources whose row changes are events and the change
 * feed's entries (migration 0050 gives each an outbox trigger; a test keeps the two equal).
 */
export const EVENT_RESOURCES = [
  'products', 'bookings', 'calendar_events', 'calendar_event_tasks', 'contacts', 'coupons', 'invoices',
  'payments', 'members', 'sites', 'widgets', 'external_calendars', 'product_configurations',
] as const;

export type EventResource = (typeof EVENT_RESOURCES)[number];

export const ROW_CHANGES = ['created', 'updated', 'deleted'] as const;

/** `<resource>.created|updated|deleted` of every event resource: the change feed's types. */
export const CHANGE_TYPES: readonly string[] = EVENT_RESOURCES.flatMap((resource) => ROW_CHANGES.map((change) => `${resource}.${change}`));

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
