/**
 * The delivery worker: an in-process loop that claims due notifications in batches (a short statement with
 * `FOR UPDATE SKIP LOCKED` that also leases them), delivers them concurrently outside any transaction over
 * keep-alive connections, and records each outcome (outcomes that finish together are written in one statement).
 * Any number of workers may run on one PostgreSQL database (`staykit serve` embeds one, `staykit worker` runs one
 * alone); they never hold the same notification at once. A worker that dies between sending and recording leaves
 * the lease to expire, after which the notification is sent again with the same `webhook-id` (at-least-once,
 * never lost).
 *
 * Per delivery that is one HTTP request on a pooled connection and a share of two statements (the claim and the
 * outcome write); what used to cost a new TCP connection and two or three commits per delivery.
 */
import { loadConfig, type Config } from '../config.js';
import type { Database } from '../db/types.js';
import { DEFAULT_TIMEOUT_MS } from '../outbound/request.js';
import { claimDue, type ClaimedNotification } from './queries.js';
import { deliverClaimed, type DeliveryOptions, type DeliveryReport } from './deliver.js';
import { createOutcomeRecorder } from './recorder.js';
import { WebhookTransport } from './transport.js';
import { startPollLoop } from '../jobs/poll-loop.js';
import { silentLogger, type WorkerLogger } from '../observability/worker-logger.js';

export interface WebhookWorkerOptions {
  /** How often to look for due notifications when idle (ms). Default 1000. */
  pollIntervalMs?: number;
  /**
   * Deliveries in flight at once (each holds one connection to its endpoint while in flight; idle connections
   * are kept for reuse). Default 100.
   */
  concurrency?: number;
  /** Most notifications claimed by one statement. Default 100 (at most `concurrency`). */
  claimBatch?: number;
  /** Per-request deadline (ms). Default 10 000. */
  timeoutMs?: number;
  /** How long a claim is held before another worker may take it over (s). Must exceed the timeout. Default 60. */
  leaseSeconds?: number;
  /** Called after every recorded (or lost-lease) attempt; tests and metrics. */
  onDelivery?: (report: DeliveryReport) => void;
}

/** The in-flight caps are optional: without them, the documented defaults. */
export type WorkerConfig = Pick<Config, 'webhookRetrySchedule' | 'outboundAllowPrivate'>
  & Partial<Pick<Config, 'webhookInFlightPerEndpoint' | 'webhookInFlightPerOrganization'>>;

export interface WebhookWorker {
  /** Look for due notifications now instead of at the next poll. */
  wake(): void;
  /** Stops claiming, waits for in-flight deliveries to be sent and recorded, closes its connections. */
  stop(): Promise<void>;
}

/** The NOTIFY channel of new due work (migration 0092): a worker listening on it claims at once. */
export const WEBHOOK_WAKE_CHANNEL = 'staykit_webhook_queue';

export const DEFAULT_CONCURRENCY = 100;
export const DEFAULT_CLAIM_BATCH = 100;
/** The documented defaults (not the environment), for callers that leave a setting out. */
const DEFAULTS = loadConfig({});

/** Claims one batch and leases it. Exposed for tests and for a one-shot `drain`. */
export async function claimNotifications(
  db: Database,
  config: WorkerConfig,
  limit: number,
  leaseSeconds: number,
): Promise<ClaimedNotification[]> {
  const query = claimDue(limit, leaseSeconds, config.webhookRetrySchedule[0] ?? 0, {
    perWebhook: config.webhookInFlightPerEndpoint ?? DEFAULTS.webhookInFlightPerEndpoint,
    perOrganization: config.webhookInFlightPerOrganization ?? DEFAULTS.webhookInFlightPerOrganization,
  });
  const { rows } = await db.query<ClaimedNotification>(query.text, query.values);
  return rows;
}

function deliveryOptions(config: WorkerConfig, options: WebhookWorkerOptions): DeliveryOptions {
  return {
    schedule: config.webhookRetrySchedule,
    allowPrivate: config.outboundAllowPrivate,
    timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
  };
}

function concurrencyOf(options: WebhookWorkerOptions): { concurrency: number; claimBatch: number } {
  const concurrency = Math.max(1, options.concurrency ?? DEFAULT_CONCURRENCY);
  return { concurrency, claimBatch: Math.min(concurrency, Math.max(1, options.claimBatch ?? DEFAULT_CLAIM_BATCH)) };
}

function checkedLease(options: WebhookWorkerOptions): number {
  const leaseSeconds = options.leaseSeconds ?? 60;
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  if (leaseSeconds * 1000 <= timeoutMs) {
    throw new Error(`leaseSeconds (${leaseSeconds}) must be longer than the delivery timeout (${timeoutMs} ms)`);
  }
  return leaseSeconds;
}

/**
 * Delivers everything due right now, batch after batch, and returns the reports (tests, `POST /v1/webhook-test`
 * style one-shots, benchmarks). Stops when a claim finds nothing.
 */
export async function deliverDue(
  db: Database,
  config: WorkerConfig,
  options: WebhookWorkerOptions = {},
): Promise<DeliveryReport[]> {
  const leaseSeconds = checkedLease(options);
  const { concurrency } = concurrencyOf(options);
  const transport = new WebhookTransport();
  const delivery = { ...deliveryOptions(config, options), transport, recorder: createOutcomeRecorder(db) };
  const reports: DeliveryReport[] = [];
  try {
    for (;;) {
      const batch = await claimNotifications(db, config, concurrency, leaseSeconds);
      if (batch.length === 0) return reports;
      const done = await Promise.all(batch.map((claimed) => deliverClaimed(db, claimed, delivery)));
      for (const report of done) options.onDelivery?.(report);
      reports.push(...done);
    }
  } finally {
    transport.close();
  }
}

export function startWebhookWorker(
  db: Database,
  config: WorkerConfig,
  logger: WorkerLogger = silentLogger,
  options: WebhookWorkerOptions = {},
): WebhookWorker {
  const pollIntervalMs = options.pollIntervalMs ?? 1000;
  const { concurrency, claimBatch } = concurrencyOf(options);
  const leaseSeconds = checkedLease(options);
  const transport = new WebhookTransport();
  const delivery = { ...deliveryOptions(config, options), transport, recorder: createOutcomeRecorder(db) };

  const deliver = async (claimed: ClaimedNotification): Promise<void> => {
    let report: DeliveryReport;
    try {
      report = await deliverClaimed(db, claimed, delivery);
    } catch (error) {
      // Recording failed (database down): the lease expires and the notification is sent again later.
      logger.error({ notification_id: claimed.id, err: error }, 'webhook delivery could not be recorded');
      return;
    }
    if (report.refusedDetail !== undefined) {
      logger.warn({ notification_id: claimed.id, webhook_id: claimed.webhook_id, detail: report.refusedDetail }, 'webhook target refused');
    }
    if (!report.recorded) {
      logger.warn({ notification_id: claimed.id }, 'webhook attempt not recorded: the lease expired (another worker retries) or the webhook was deleted');
    } else if (report.outcome.kind === 'gone') {
      logger.warn({ webhook_id: claimed.webhook_id }, 'webhook endpoint answered 410 Gone; webhook disabled');
    } else if (report.outcome.kind === 'error') {
      logger.warn({ notification_id: claimed.id, webhook_id: claimed.webhook_id, response: report.response },
        'webhook notification failed its last scheduled try');
    }
    try {
      options.onDelivery?.(report);
    } catch (error) {
      logger.error({ err: error }, 'webhook onDelivery callback failed');
    }
  };

  const loop = startPollLoop({
    pollIntervalMs,
    concurrency,
    // Claim in batches: once a quarter of the slots (at most a batch) are free, not after every delivery.
    claimBatch,
    minClaim: Math.max(1, Math.min(claimBatch, Math.ceil(concurrency / 4))),
    maxBackoffMs: 30_000,
    claim: (limit) => claimNotifications(db, config, limit, leaseSeconds),
    work: deliver,
    onClaimError: (error) => logger.error({ err: error }, 'claiming webhook notifications failed'),
  });
  return {
    wake: () => loop.wake(),
    async stop() {
      await loop.stop();
      transport.close();
    },
  };
}
