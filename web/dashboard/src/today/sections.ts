/**
 * Who sees which section of the Today page: each needs exactly what its request reads (./queries.ts), so a member
 * never triggers a refused request — a section they may not read is left out. The page is in the navigation when
 * any section is readable.
 */
import type { Can } from '../api/permissions';

export const TODAY_SECTIONS = {
  /** Arrivals, departures and stays in progress; guest, payment and arrival time only as far as the member may read them. */
  stays: (can: Can) => can('calendar_events'),
  requests: (can: Can) => can('calendar_events') && can('bookings') && can('products'),
  overduePayments: (can: Can) => can('payments'),
  tasks: (can: Can) => can('calendar_event_tasks'),
  syncProblems: (can: Can) => can('external_calendars'),
  month: (can: Can) => can('reports'),
} as const satisfies Record<string, (can: Can) => boolean>;

type TodaySection = keyof typeof TODAY_SECTIONS;

/** Each section: whether this member sees it. */
export const visibleSections = (can: Can) =>
  Object.fromEntries(Object.entries(TODAY_SECTIONS).map(([section, visible]) => [section, visible(can)])) as Record<TodaySection, boolean>;

export const mayReadToday = (can: Can) => Object.values(TODAY_SECTIONS).some((visible) => visible(can));
