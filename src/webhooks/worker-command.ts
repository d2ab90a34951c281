/**
 * `staykit worker`: the delivery worker on its own, for deployments that run `staykit serve` with
 * `STAYKIT_WORKER=off` and scale delivery separately. It needs PostgreSQL (DATABASE_URL): the embedded database
 * can only be opened by one process, and `staykit serve` already runs a worker inside it. SIGTERM/SIGINT stop it
 * after the deliveries in flight are sent and recorded.
 */
import pino from 'pino';
import type { Config } from '../config.js';
import { openMigratedDatabase } from '../cli/database.js';
import { UsageError } from '../cli/usage-error.js';
import { startWebhookWorker, type WebhookWorkerOptions } from './worker.js';
import { startIcalWorker } from '../ical/index.js';

export async function runWorkerCommand(config: Config, options: WebhookWorkerOptions = {}): Promise<void> {
  if (!config.databaseUrl) {
    throw new UsageError('staykit worker needs DATABASE_URL (on the embedded database, staykit serve runs the worker itself)');
  }
  const logger = pino({ level: config.logLevel });
  const db = await openMigratedDatabase(config);
  const worker = startWebhookWorker(db, config, logger, options);
  const icalWorker = startIcalWorker(db, config, logger);
  logger.info({ concurrency: options.concurrency ?? 10 }, 'webhook worker started');
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'stopping: finishing deliveries in flight');
    await worker.stop();
    await icalWorker.stop();
    await db.close();
    process.exit(0);
  };
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
  process.once('SIGINT', () => void shutdown('SIGINT'));
}
