/**
 * The background workers of a process — webhook deliveries, iCal imports and automations (e-mails, task
 * notifications: src/automations) — and `staykit worker`, which runs
 * them on their own for deployments that start `staykit serve` with `STAYKIT_WORKER=off` and scale delivery
 * separately (`serve` starts the same workers inside itself by default).
 *
 * On PostgreSQL the workers also LISTEN for wake-ups (src/jobs/wake-listener.ts), so work written by any process
 * is picked up at once rather than at the next poll. On the embedded database there is one process: the API wakes
 * its own worker after a redelivery, and the workers poll.
 */
import { replyAddressesFor } from '../../inbox/reply-address.js';
import pino from 'pino';
import type { Config } from '../../config.js';
import type { Database } from '../../db/types.js';
import { databaseConfig, openMigratedDatabase } from '../support/database.js';
import { listenUrl } from '../../db/open.js';
import { UsageError } from '../support/usage-error.js';
import { exitGracefullyOnSignals } from '../support/exit-on-signals.js';
import { listenForWakes } from '../../jobs/wake-listener.js';
import { loggerOptions } from '../../observability/logger.js';
import { type WorkerLogger } from '../../observability/worker-logger.js';
import { startWebhookWorker, WEBHOOK_WAKE_CHANNEL, type WebhookWorker, type WebhookWorkerOptions } from '../../webhooks/worker.js';
import { ICAL_WAKE_CHANNEL, startIcalWorker, type IcalWorker, type IcalWorkerOptions } from '../../ical/worker.js';
import { startPartitionMaintenance, type PartitionMaintenanceOptions } from '../../partitions/maintenance.js';
import { startAvailabilityHorizon } from '../../booking/availability-horizon.js';
import { startChangeRetention } from '../../changes/retention.js';
import { startMediaSweep } from '../../media/sweep.js';
import { openMediaStore } from '../../media/open-store.js';
import { startProductEvents } from '../../webhooks/product-events.js';
import { mailerFor } from '../../automations/mailer.js';
import { processComputePool } from '../../compute/process-pool.js';
import { startStripeRefundRetries } from '../../money/stripe-refunds.js';
import { stripeClientFactory } from '../../money/stripe-client.js';
import {
  AUTOMATION_WAKE_CHANNEL, startAutomationScheduler, type AutomationScheduler, type SchedulerOptions,
} from '../../automations/scheduler.js';

/** iCal imports are looked for this many times less often than webhook deliveries when nothing wakes them. */
const ICAL_POLL_FACTOR = 5;

export interface BackgroundWorkerOptions {
  webhooks?: WebhookWorkerOptions;
  ical?: IcalWorkerOptions;
  /** The log partitions' maintenance clock and interval (tests). */
  partitions?: Pick<PartitionMaintenanceOptions, 'now' | 'intervalMs'>;
  /** The automation scheduler's settings a caller varies (mailer, clock, …). */
  automations?: Partial<SchedulerOptions>;
}

export interface BackgroundWorkers {
  webhooks: WebhookWorker;
  ical: IcalWorker;
  /** E-mails, deliveries and task notifications (docs/automations.md). */
  automations: AutomationScheduler;
  /** Stops listening and claiming, and waits for the work in flight. */
  stop(): Promise<void>;
}

export function startBackgroundWorkers(
  db: Database,
  config: Config,
  logger: WorkerLogger,
  options: BackgroundWorkerOptions = {},
): BackgroundWorkers {
  const pollIntervalMs = config.workerPollIntervalSeconds * 1000;
  const webhooks = startWebhookWorker(db, config, logger, { pollIntervalMs, ...options.webhooks });
  const ical = startIcalWorker(db, config, logger, { pollIntervalMs: ICAL_POLL_FACTOR * pollIntervalMs, ...options.ical });
  const automations = startAutomationScheduler(db, {
    mailer: mailerFor(config),
    emailFrom: config.emailFrom,
    publicUrl: config.publicUrl,
    replyAddresses: replyAddressesFor(config),
    compute: processComputePool(config),
    pollIntervalMs,
    logger,
    ...options.automations,
  });
  const refunds = startStripeRefundRetries(db, stripeClientFactory(config.stripeApiUrl), config.secretKey, logger);
  const partitions = startPartitionMaintenance(db, { retentionMonths: config.logRetentionMonths, logger, ...options.partitions });
  const changeRetention = startChangeRetention(db, { retentionDays: config.changeRetentionDays, logger, ...options.partitions });
  const productEvents = startProductEvents(db, { logger });
  const availabilityHorizon = startAvailabilityHorizon(db, { logger, ...options.partitions });
  const mediaSweep = startMediaSweep(db, { store: openMediaStore(config), logger, ...options.partitions });
  const wakeUrl = listenUrl(databaseConfig(config));
  const listener = wakeUrl
    ? listenForWakes({
      connectionString: wakeUrl,
      logger,
      channels: {
        [WEBHOOK_WAKE_CHANNEL]: () => webhooks.wake(),
        [ICAL_WAKE_CHANNEL]: () => ical.wake(),
        [AUTOMATION_WAKE_CHANNEL]: () => automations.wake(),
      },
    })
    : undefined;
  return {
    webhooks,
    ical,
    automations,
    async stop() {
      await listener?.close();
      await Promise.all([webhooks.stop(), ical.stop(), automations.stop(), partitions.stop(), refunds.stop(), changeRetention.stop(), productEvents.stop(), availabilityHorizon.stop(), mediaSweep.stop()]);
    },
  };
}

/** `staykit worker`: runs until SIGTERM/SIGINT, then finishes the deliveries and imports in flight. */
export async function runWorkerCommand(config: Config, options: BackgroundWorkerOptions = {}): Promise<void> {
  if (!config.databaseUrl) {
    throw new UsageError('staykit worker needs DATABASE_URL (on the embedded database, staykit serve runs the worker itself)');
  }
  const logger = pino(loggerOptions(config.logLevel));
  const db = await openMigratedDatabase(config);
  const workers = startBackgroundWorkers(db, config, logger, options);
  exitGracefullyOnSignals(async (signal) => {
    logger.info({ signal }, 'stopping: finishing deliveries in flight');
    await workers.stop();
    await db.close();
  });
  logger.info({ poll_interval_s: config.workerPollIntervalSeconds }, 'background workers started');
}
