/** The widget's counted events as the analytics table shows them: a row per day, newest first, and the totals. */
import type { Database } from '../../../../schema/database.types.js';

export type AnalyticsEvent = Database['api']['Enums']['widget_analytics_event'];

/** Events of one kind on one day (UTC, as the database's sessions count days). */
export interface AnalyticsCount {
  day: string;
  event: AnalyticsEvent;
  count: number;
}

/** The events the widget records (docs/widget.md): one view per catalogue read, one quote per quote, one booking per booking. */
export const SHOWN_EVENTS = ['view', 'quote', 'booking'] as const satisfies readonly AnalyticsEvent[];
export type ShownEvent = (typeof SHOWN_EVENTS)[number];

export type EventCounts = Record<ShownEvent, number>;

const zero = (): EventCounts => ({ view: 0, quote: 0, booking: 0 });
const isShown = (event: AnalyticsEvent): event is ShownEvent => (SHOWN_EVENTS as readonly AnalyticsEvent[]).includes(event);

export function analyticsByDay(counts: readonly AnalyticsCount[]): { days: { day: string; counts: EventCounts }[]; totals: EventCounts } {
  const byDay = new Map<string, EventCounts>();
  const totals = zero();
  for (const { day, event, count } of counts) {
    if (!isShown(event)) continue;
    const row = byDay.get(day) ?? zero();
    row[event] += count;
    totals[event] += count;
    byDay.set(day, row);
  }
  const days = [...byDay].map(([day, row]) => ({ day, counts: row })).sort((a, b) => b.day.localeCompare(a.day));
  return { days, totals };
}
