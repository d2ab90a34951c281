/** The webhook event names a webhook may subscribe to (the server's catalogue; `*` is every event). */
const RESOURCES = [
  'products', 'bookings', 'calendar_events', 'calendar_event_tasks', 'contacts', 'coupons', 'invoices', 'payments', 'members',
  'sites', 'widgets', 'external_calendars', 'product_configurations',
];

export const WEBHOOK_EVENTS = [
  '*',
  ...RESOURCES.flatMap((resource) => ['created', 'updated', 'deleted'].map((change) => `${resource}.${change}`)),
  'calendar_events.confirmed', 'calendar_events.cancelled', 'calendar_event_tasks.completed', 'payments.paid', 'external_calendars.sync_failed',
];
