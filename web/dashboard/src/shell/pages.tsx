/**
 * Every page of the dashboard, written once: its path, what it shows, and — for the pages in the navigation — the
 * link's label and who sees it (by what their permissions let them read). Page.tsx picks the page for a path and
 * navigation.ts the links a member sees, both from this list, so a new page is one entry here.
 */
import { lazy, Suspense, type ReactNode } from 'react';
import type { Can } from '../api/permissions';
import type { shellMessages } from './messages';
import { Loading } from '../common/Loading';
import { BookingPage } from '../bookings/BookingPage';
import { BookingsList } from '../bookings/BookingsList';
import { Inbox } from '../inbox/Inbox';
import { Thread } from '../inbox/Thread';
import { UnreadBadge } from '../inbox/UnreadBadge';
import { ApiKeys } from '../settings/ApiKeys';
import { Attributes } from '../settings/Attributes';
import { BookingTerms } from '../settings/BookingTerms';
import { EmailTemplates } from '../settings/EmailTemplates';
import { IcalFeeds } from '../settings/IcalFeeds';
import { InvoiceSettings } from '../settings/InvoiceSettings';
import { Members } from '../settings/Members';
import { Notifications } from '../settings/Notifications';
import { OrganizationProfile } from '../settings/OrganizationProfile';
import { PaymentSettings } from '../settings/PaymentSettings';
import { Seasons } from '../settings/Seasons';
import { Taxes } from '../settings/Taxes';
import { UnitMessages } from '../settings/UnitMessages';
import { Webhooks } from '../settings/Webhooks';
import { MyTasks } from '../tasks/MyTasks';
import { TaskBoard } from '../tasks/TaskBoard';
import { mayUseTaskBoard } from '../tasks/board-access';
import { Timeline } from '../timeline/Timeline';
import { mayReadToday } from '../today/sections';
import { Today } from '../today/Today';
import { UnitPage } from '../units/UnitPage';
import { Units } from '../units/Units';
import { WidgetPage } from '../widgets/WidgetPage';
import { Widgets } from '../widgets/Widgets';

// The chart library is loaded with the reports page only, not by every page of the dashboard.
const Reports = lazy(() => import('../reports/Reports').then((module) => ({ default: module.Reports })));

/** A page's link text: a key of the shell's `navigation` words. */
export type NavigationLabel = keyof typeof shellMessages.en.navigation;

export interface DashboardPage {
  /** The path inside /admin; `:name` parts are passed to `render`. */
  path: string;
  render: (params: Record<string, string>) => ReactNode;
  /** The page's link in the navigation, in this list's order; pages reached from other pages have none. */
  navigation?: { label: NavigationLabel; visible: (can: Can) => boolean; badge?: () => ReactNode };
}

export const PAGES: readonly DashboardPage[] = [
  // The landing page after login for members who may read bookings (App.tsx); the calendar keeps `/`.
  { path: '/today', render: () => <Today />, navigation: { label: 'today', visible: mayReadToday } },
  { path: '/', render: () => <Timeline />, navigation: { label: 'calendar', visible: (can) => can('calendar_events') } },
  { path: '/bookings', render: () => <BookingsList />, navigation: { label: 'bookings', visible: (can) => can('bookings') } },
  {
    path: '/inbox',
    render: () => <Inbox />,
    navigation: { label: 'inbox', visible: (can) => can('messages'), badge: () => <UnreadBadge /> },
  },
  { path: '/inbox/booking/:id', render: ({ id }) => <Thread threadKey={{ kind: 'booking', bookingId: id! }} key={id} /> },
  { path: '/inbox/sender/:address', render: ({ address }) => <Thread threadKey={{ kind: 'sender', address: address! }} key={address} /> },
  { path: '/bookings/:id', render: ({ id }) => <BookingPage bookingId={id!} key={id} /> },
  // The board assigns tasks to members; a cleaner (no members to read) has their own list instead.
  { path: '/tasks', render: () => <TaskBoard />, navigation: { label: 'tasks', visible: mayUseTaskBoard } },
  // The landing page after login for members who may read tasks but not bookings (App.tsx).
  { path: '/my-tasks', render: () => <MyTasks />, navigation: { label: 'myTasks', visible: (can) => can('calendar_event_tasks') } },
  { path: '/units', render: () => <Units />, navigation: { label: 'units', visible: (can) => can('products') } },
  { path: '/units/:id', render: ({ id }) => <UnitPage unitId={id!} key={id} /> },
  { path: '/widgets', render: () => <Widgets />, navigation: { label: 'widgets', visible: (can) => can('widgets') } },
  { path: '/widgets/:id', render: ({ id }) => <WidgetPage widgetId={id!} key={id} /> },
  {
    path: '/reports',
    render: () => <Suspense fallback={<Loading />}><Reports /></Suspense>,
    navigation: { label: 'reports', visible: (can) => can('reports') },
  },
  { path: '/settings/keys', render: () => <ApiKeys />, navigation: { label: 'apiKeys', visible: (can) => can('api_keys') } },
  { path: '/settings/webhooks', render: () => <Webhooks />, navigation: { label: 'webhooks', visible: (can) => can('webhooks') } },
  { path: '/settings/ical', render: () => <IcalFeeds />, navigation: { label: 'ical', visible: (can) => can('external_calendars') } },
  { path: '/settings/templates', render: () => <EmailTemplates />, navigation: { label: 'templates', visible: (can) => can('email_templates') } },
  { path: '/settings/unit-messages', render: () => <UnitMessages />, navigation: { label: 'unitMessages', visible: (can) => can('message_templates') } },
  { path: '/settings/members', render: () => <Members />, navigation: { label: 'members', visible: (can) => can('members') } },
  // Organization settings: who may change them (every member reads the organization).
  { path: '/settings/organization', render: () => <OrganizationProfile />, navigation: { label: 'organization', visible: (can) => can('organizations', 'write') } },
  { path: '/settings/terms', render: () => <BookingTerms />, navigation: { label: 'terms', visible: (can) => can('organizations', 'write') } },
  { path: '/settings/invoices', render: () => <InvoiceSettings />, navigation: { label: 'invoiceSettings', visible: (can) => can('organizations', 'write') } },
  { path: '/settings/payments', render: () => <PaymentSettings />, navigation: { label: 'paymentSettings', visible: (can) => can('organizations', 'write') } },
  { path: '/settings/taxes', render: () => <Taxes />, navigation: { label: 'taxes', visible: (can) => can('taxes') } },
  { path: '/settings/seasons', render: () => <Seasons />, navigation: { label: 'seasons', visible: (can) => can('seasons') } },
  { path: '/settings/attributes', render: () => <Attributes />, navigation: { label: 'attributes', visible: (can) => can('attributes') } },
  // Every member chooses their own e-mails about bookings.
  { path: '/settings/notifications', render: () => <Notifications />, navigation: { label: 'notifications', visible: () => true } },
];
