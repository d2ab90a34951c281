/**
 * Scheduling of the iCal import. A calendar is due when it is active, nobody holds its lease, and either it was
 * never tried, its last attempt (successful or not) started longer ago than the sync interval, or its
 * `sync_requested_at` differs from the value seen at that attempt (a PATCH of `sync_requested_at` — to now() or
 * any new value — asks for one sync at once; a future timestamp does not cause a loop). Claiming is one statement: `FOR UPDATE SKIP LOCKED` on
 * the calendars, then an upsert of the lease that only succeeds where no live lease exists — so any number of
 * workers (and `perform_sync` requests) never sync one calendar at the same time. The fetch runs outside any
 * transaction; the lease expires by itself if a worker dies.
 */
import type { Config } from '../config.js';
import type { Database } from '../db/types.js';
import { DEFAULT_TIMEOUT_MS } from '../outbound/request.js';
import { syncCalendar, type SyncOptions, type SyncReport } from './sync.js';
import type { CalendarKey } from './mirror-queries.js';
import type { SqlQuery } from './export-queries.js';
import { startPollLoop } from '../jobs/poll-loop.js';
import { silentLogger, type WorkerLogger } from '../observability/worker-logger.js';

export interface IcalWorkerOptions {
  /** How often to look for due calendars (ms). Default 5000. */
  pollIntervalMs?: number;
  /** Calendars synced at once. Default 4. */
  concurrency?: number;
  /** Per-feed deadline (ms). Default 10 000. */
  timeoutMs?: number;
  /** Lease length (s); must exceed the timeout. Default 120. */
  leaseSeconds?: number;
  /** Called after each sync (tests, metrics). */
  onSync?: (report: SyncReport) => void;
  /** Passed to the fetch (tests). */
  resolve?: SyncOptions['resolve'];
}

/** The NOTIFY channel of calendars to import now (migration 0092): a worker listening on it claims at once. */
export const ICAL_WAKE_CHANNEL = 'staykit_ical_sync';

export type IcalWorkerConfig = Pick<Config, 'icalSyncIntervalSeconds' | 'outboundAllowPrivate'>;

export interface IcalWorker {
  /** Look for due calendars now. */
  wake(): void;
  /** Stops claiming and waits for the syncs in flight. */
  stop(): Promise<void>;
}

/**
 * Claims up to `limit` due calendars (or, with `productId`, that unit's active calendars, due or not — of
 * `organizationId` when given: ids are unique per organization only).
 */
export function claimCalendars(
  limit: number, leaseSeconds: number, intervalSeconds: number, productId: string | null, organizationId: string | null = null,
): SqlQuery {
  return {
    text: `WITH candidates AS (
             SELECT c.id, c.organization_id, c.sync_requested_at FROM api.external_calendars c
               LEFT JOIN staykit_internal.ical_sync_claims l ON l.calendar_id = c.id AND l.organization_id = c.organization_id
              WHERE c.active
                AND (l.claimed_until IS NULL OR l.claimed_until < now())
                AND ($4::uuid IS NOT NULL AND c.product_id = $4::uuid AND ($5::uuid IS NULL OR c.organization_id = $5::uuid)
                     OR $4::uuid IS NULL AND (l.calendar_id IS NULL
                                              OR l.attempted_at < now() - make_interval(secs => $3)
                                              OR c.sync_requested_at IS DISTINCT FROM l.requested_seen))
              ORDER BY l.attempted_at NULLS FIRST, c.id
              LIMIT $1
              FOR UPDATE OF c SKIP LOCKED
           )
           INSERT INTO staykit_internal.ical_sync_claims AS l (calendar_id, organization_id, claimed_until, attempted_at, requested_seen)
           SELECT id, organization_id, now() + make_interval(secs => $2), now(), sync_requested_at FROM candidates
           ON CONFLICT (calendar_id, organization_id) DO UPDATE
             SET claimed_until = EXCLUDED.claimed_until, attempted_at = EXCLUDED.attempted_at,
                 requested_seen = EXCLUDED.requested_seen
             WHERE l.claimed_until IS NULL OR l.claimed_until < now()
           RETURNING calendar_id, organization_id`,
    values: [limit, leaseSeconds, intervalSeconds, productId, organizationId],
  };
}

export function releaseCalendar(calendar: CalendarKey): SqlQuery {
  return {
    text: `UPDATE staykit_internal.ical_sync_claims SET claimed_until = NULL WHERE calendar_id = $1 AND organization_id = $2`,
    values: [calendar.id, calendar.organization_id],
  };
}

async function claim(db: Database, query: SqlQuery): Promise<CalendarKey[]> {
  const { rows } = await db.query<{ calendar_id: string; organization_id: string }>(query.text, query.values);
  return rows.map((row) => ({ id: row.calendar_id, organization_id: row.organization_id }));
}

async function syncClaimed(db: Database, calendar: CalendarKey, options: SyncOptions): Promise<SyncReport> {
  try {
    return await syncCalendar(db, calendar, options);
  } finally {
    const release = releaseCalendar(calendar);
    await db.query(release.text, release.values).catch(() => undefined); // the lease expires anyway
  }
}

/** Syncs every due calendar once (tests, one-shot runs); returns the reports. */
export async function syncDueCalendars(db: Database, config: IcalWorkerConfig, options: IcalWorkerOptions = {}): Promise<SyncReport[]> {
  const reports: SyncReport[] = [];
  const sync: SyncOptions = { allowPrivate: config.outboundAllowPrivate, timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS, resolve: options.resolve };
  for (;;) {
    const calendars = await claim(db, claimCalendars(options.concurrency ?? 4, options.leaseSeconds ?? 120, config.icalSyncIntervalSeconds, null));
    if (calendars.length === 0) return reports;
    reports.push(...(await Promise.all(calendars.map((calendar) => syncClaimed(db, calendar, sync)))));
  }
}

export interface ProductSyncOptions {
  /** The whole call's bound (ms): fetches get at most this long, and calendars held by a worker are waited for
   *  at most this long. Default 5000. */
  timeoutMs?: number;
  allowPrivate?: boolean;
  resolve?: SyncOptions['resolve'];
  /** The caller's organization (from its API key): a unit of another organization is not synced. */
  organizationId?: string;
}

export interface ProductSyncResult {
  /** Syncs this call ran. */
  reports: SyncReport[];
  /** Calendars that were being synced elsewhere and did not finish within the bound. */
  pending: string[];
}

/**
 * `/availability?perform_sync=true`: syncs the unit's active calendars now, within `timeoutMs`. Calendars a
 * worker is syncing at that moment are waited for (their result lands in the database), not fetched twice.
 */
export async function syncProductCalendars(db: Database, productId: string, options: ProductSyncOptions = {}): Promise<ProductSyncResult> {
  const timeoutMs = options.timeoutMs ?? 5000;
  if (options.organizationId !== undefined) {
    const owned = await db.query('SELECT 1 FROM api.products WHERE id = $1 AND organization_id = $2', [productId, options.organizationId]);
    if (owned.rows.length === 0) return { reports: [], pending: [] };
  }
  const deadline = Date.now() + timeoutMs;
  const leaseSeconds = Math.max(30, Math.ceil(timeoutMs / 1000) * 2);
  const organizationId = options.organizationId ?? null;
  const claimed = await claim(db, claimCalendars(1000, leaseSeconds, 0, productId, organizationId));
  const sync: SyncOptions = { allowPrivate: options.allowPrivate ?? false, timeoutMs: Math.max(1, timeoutMs), resolve: options.resolve };
  const reports = await Promise.all(claimed.map((calendar) => syncClaimed(db, calendar, sync)));

  // Calendars held by someone else: wait (bounded) until their lease is released.
  const heldQuery = {
    text: `SELECT c.id FROM api.external_calendars c
             JOIN staykit_internal.ical_sync_claims l ON l.calendar_id = c.id AND l.organization_id = c.organization_id
            WHERE c.product_id = $1 AND ($3::uuid IS NULL OR c.organization_id = $3::uuid) AND c.active
              AND l.claimed_until > now() AND NOT (c.id = ANY($2::uuid[]))`,
    values: [productId, claimed.map((calendar) => calendar.id), organizationId],
  };
  let pending = (await db.query<{ id: string }>(heldQuery.text, heldQuery.values)).rows.map((row) => row.id);
  while (pending.length > 0 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, Math.min(100, Math.max(1, deadline - Date.now()))));
    pending = (await db.query<{ id: string }>(heldQuery.text, heldQuery.values)).rows.map((row) => row.id);
  }
  return { reports, pending };
}

export function startIcalWorker(
  db: Database,
  config: IcalWorkerConfig,
  logger: WorkerLogger = silentLogger,
  options: IcalWorkerOptions = {},
): IcalWorker {
  const pollIntervalMs = options.pollIntervalMs ?? 5000;
  const concurrency = options.concurrency ?? 4;
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const leaseSeconds = options.leaseSeconds ?? 120;
  if (leaseSeconds * 1000 <= timeoutMs) throw new Error(`leaseSeconds (${leaseSeconds}) must be longer than the fetch timeout (${timeoutMs} ms)`);
  const sync: SyncOptions = { allowPrivate: config.outboundAllowPrivate, timeoutMs, resolve: options.resolve };

  const work = (calendar: CalendarKey): Promise<void> =>
    syncClaimed(db, calendar, sync)
      .then((report) => {
        if (report.status === 'failed') logger.warn({ calendar_id: calendar.id, error: report.error }, 'iCal sync failed');
        else if (report.status === 'conflicts') logger.warn({ calendar_id: calendar.id, error: report.error }, 'iCal sync left out conflicting events');
        try {
          options.onSync?.(report);
        } catch (error) {
          logger.error({ err: error }, 'iCal onSync callback failed');
        }
      })
      .catch((error: unknown) => logger.error({ calendar_id: calendar.id, err: error }, 'iCal sync could not be recorded'));

  return startPollLoop({
    pollIntervalMs,
    concurrency,
    maxBackoffMs: 60_000,
    claim: (limit) => claim(db, claimCalendars(limit, leaseSeconds, config.icalSyncIntervalSeconds, null)),
    work,
    onClaimError: (error) => logger.error({ err: error }, 'claiming iCal calendars failed'),
  });
}
