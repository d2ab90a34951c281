/**
 * Every namespace of the dashboard's words, one per feature, each defined beside its pages (`<feature>/messages.ts`).
 * This list is the one place a namespace is registered: i18next's resources and the types of `t` come from it.
 */
import { bookingMessages } from '../bookings/booking-messages.js';
import { bookingsMessages } from '../bookings/messages.js';
import { businessSettingsMessages } from '../settings/business-settings-messages.js';
import { calendarMessages } from '../timeline/messages.js';
import { commonMessages } from '../common/messages.js';
import { inboxMessages } from '../inbox/messages.js';
import { organizationMessages } from '../settings/organization-messages.js';
import { reportsMessages } from '../reports/messages.js';
import { settingsMessages } from '../settings/messages.js';
import { shellMessages } from '../shell/messages.js';
import { tasksMessages } from '../tasks/messages.js';
import { templatesMessages } from '../settings/templates/messages.js';
import { todayMessages } from '../today/messages.js';
import { unitsMessages } from '../units/messages.js';
import { widgetsMessages } from '../widgets/messages.js';

export const NAMESPACES = {
  booking: bookingMessages,
  bookings: bookingsMessages,
  businessSettings: businessSettingsMessages,
  calendar: calendarMessages,
  common: commonMessages,
  inbox: inboxMessages,
  organization: organizationMessages,
  reports: reportsMessages,
  settings: settingsMessages,
  shell: shellMessages,
  tasks: tasksMessages,
  templates: templatesMessages,
  today: todayMessages,
  units: unitsMessages,
  widgets: widgetsMessages,
};

export type Namespace = keyof typeof NAMESPACES;
