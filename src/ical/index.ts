/**
 * iCal (issue 7): the export feed route, the import (`syncCalendar`), the background worker and the bounded
 * per-unit sync behind `/availability?perform_sync=true`. See docs/ical.md.
 */
export { icalRoutes, type IcalRoutesOptions } from './routes.js';
export { syncCalendar, type CalendarKey, type SyncOptions, type SyncReport, type SyncConflict } from './sync.js';
export {
  startIcalWorker, syncDueCalendars, syncProductCalendars,
  type IcalWorker, type IcalWorkerConfig, type IcalWorkerOptions, type ProductSyncOptions, type ProductSyncResult,
} from './worker.js';
export { buildFeed } from './export.js';
export { parseFeed, FeedParseError, type FeedEvent } from './parse.js';
