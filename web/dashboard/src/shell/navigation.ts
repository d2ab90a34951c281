/** The pages a member sees in the navigation, by what their permissions let them read. */
import type { Can } from '../api/permissions';

export interface NavigationItem {
  to: string;
  label: string;
}

export function navigationFor(can: Can): NavigationItem[] {
  const items: (NavigationItem & { visible: boolean })[] = [
    { to: '/', label: 'Calendar', visible: can('calendar_events') },
    { to: '/bookings', label: 'Bookings', visible: can('bookings') },
    { to: '/units', label: 'Units and prices', visible: can('products') },
    { to: '/settings/keys', label: 'API keys', visible: can('api_keys') },
    { to: '/settings/webhooks', label: 'Webhooks', visible: can('webhooks') },
    { to: '/settings/ical', label: 'iCal feeds', visible: can('external_calendars') },
    { to: '/settings/templates', label: 'E-mail templates', visible: can('email_templates') },
    { to: '/settings/members', label: 'Members', visible: can('members') },
    // Organization settings: who may change them (every member reads the organization).
    { to: '/settings/terms', label: 'Booking terms', visible: can('organizations', 'write') },
    // Every member chooses their own e-mails about bookings.
    { to: '/settings/notifications', label: 'My notifications', visible: true },
  ];
  return items.filter((item) => item.visible).map(({ to, label }) => ({ to, label }));
}
