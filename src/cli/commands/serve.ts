/**
 * `staykit serve`: migrate, make sure the embedded default has a demo organization to try, listen, and shut
 * down gracefully on SIGTERM/SIGINT (in-flight requests finish first).
 */
import { chmod, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { dataDirInsideWorkingDirectory, type Config } from '../../config.js';
import type { Database } from '../../db/types.js';
import type { FastifyBaseLogger } from 'fastify';
import { rateLimitOptions } from '../../limits/rate-limit.js';
import { openServerDatabases } from '../support/database.js';
import { seedDemoOrganizationInTwoSteps } from '../../seed/demo-organization.js';
import { processComputePool } from '../../compute/process-pool.js';
import { openMediaStore } from '../../media/open-store.js';
import { firstLoginHint, savedDemoLogin, saveDemoLogin } from './user.js';
import type { BackgroundWorkers } from './worker.js';
import { clusterWorkerConfig, isClusterPrimary, serveCluster } from '../../cluster/serve-cluster.js';
import { describeMailDestination } from '../../automations/mailer.js';
import { exitGracefullyOnSignals } from '../support/exit-on-signals.js';
import { embeddedSchemaCache } from '../support/schema-snapshot.js';
import { startScheduledBackups, type ScheduledBackups } from '../../backup/schedule.js';
import { replyAddressesFor } from '../../inbox/reply-address.js';
import { startInboundSmtp, type InboundSmtpListener } from '../../inbox/smtp-listener.js';

/**
 * The inbound SMTP listener (STAYKIT_INBOUND_SMTP_PORT) in every API process, as the HTTP port is: it is a front door
 * like the provider webhook (POST /v1/inbound-email), not background work, so it runs where requests are served and
 * not in `staykit worker`; the processes of a cluster share its port as they share the HTTP one.
 */
async function inboundSmtp(db: Database, config: Config, logger: FastifyBaseLogger): Promise<InboundSmtpListener | undefined> {
  const addresses = replyAddressesFor(config);
  if (config.inboundSmtpPort === undefined || addresses === undefined) return undefined;
  return startInboundSmtp({ db, addresses, store: openMediaStore(config), port: config.inboundSmtpPort, host: config.host, maxBytes: config.inboundMaxBytes, logger });
}

const DEMO_KEY_FILE = 'demo-api-key';

interface Demo {
  apiKey: string | undefined;
  /** On the first start: the demo's bookings, still to be added (after the server listens). */
  seedBookings?: () => Promise<number>;
}

/**
 * On the embedded default only: the first start seeds the demo organization and keeps its key in the data folder
 * (mode 0600) so later starts can print it again. A server on DATABASE_URL is never seeded implicitly. The bookings
 * are left for after the server listens (`seedBookings`): they are most of the seed's time, and the key, the login
 * and the products the printed curl lists exist before the banner.
 */
async function demo(db: Database, config: Config): Promise<Demo> {
  if (config.databaseUrl) return { apiKey: undefined };
  const file = join(config.dataDir, DEMO_KEY_FILE);
  const saved = await readFile(file, 'utf8').then((text) => text.trim(), () => undefined);
  if (saved) return { apiKey: saved };
  const { rows } = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM api.organizations');
  if ((rows[0]?.n ?? 0) > 0) return { apiKey: undefined };
  const { organization, seedBookings } = await seedDemoOrganizationInTwoSteps(db, undefined, {
    compute: processComputePool(config), store: openMediaStore(config), timeLimitMs: config.mediaTimeoutSeconds * 1000,
  });
  await writeFile(file, `${organization.api_key}\n`, { mode: 0o600 });
  await chmod(file, 0o600);
  if (organization.dashboard_login) await saveDemoLogin(config.dataDir, organization.dashboard_login);
  return { apiKey: organization.api_key, seedBookings };
}

export async function serve(settings: Config): Promise<void> {
  // --processes N: this process supervises N API processes (src/cluster), or is one of them.
  if (isClusterPrimary(settings)) return serveCluster(settings);
  const config = clusterWorkerConfig(settings);
  // The app's and the workers' modules load while the database opens: the embedded one opens in a thread of its
  // own, so the two take about the time of the longer instead of their sum.
  const [databases, { buildApp }, { startBackgroundWorkers }] = await Promise.all([
    openServerDatabases(config), import('../../http/app.js'), import('./worker.js'),
  ]);
  const { api: db, background } = databases;
  const { apiKey, seedBookings } = await demo(db, config);
  let workers: BackgroundWorkers | undefined;
  let backups: ScheduledBackups | undefined;
  const app = await buildApp({
    db,
    schemaCache: config.databaseUrl ? undefined : await embeddedSchemaCache(db, config.dataDir),
    backgroundDb: background,
    config,
    logLevel: config.logLevel,
    webhookWorker: () => workers?.webhooks,
    rateLimit: rateLimitOptions(config),
  });
  const address = await app.listen({ port: config.port, host: config.host });
  const inbound = await inboundSmtp(db, config, app.log);
  const { rows } = await db.query<{ version: string }>(`SELECT current_setting('server_version') AS version`);
  const where = config.databaseUrl ? 'PostgreSQL (DATABASE_URL)' : `embedded PGlite in ${config.dataDir}`;
  const login = apiKey ? await savedDemoLogin(config.dataDir) : undefined;
  const dashboard = login ? `\nDashboard: ${address}/admin  login ${login.email} / ${login.password}` : await firstLoginHint(db);
  const banner = apiKey
    ? `\n\nDemo organization API key: ${apiKey}${dashboard}\nTry it:\n  curl -H "Authorization: Bearer ${apiKey}" "${address}/v1/products?select=id,name,rent_period"\n`
    : dashboard;
  // Set below, in the same synchronous block as the banner, so a signal can only be handled once both are set.
  let demoBookings: Promise<unknown> = Promise.resolve();
  exitGracefullyOnSignals(async (signal) => {
    console.log(`${signal} received: finishing in-flight requests`);
    await inbound?.close();
    await app.close();
    await demoBookings;
    await backups?.stop();
    await workers?.stop();
    await databases.close();
  });
  if (!config.databaseUrl && dataDirInsideWorkingDirectory(config.dataDir)) {
    console.warn(`staykit: the data folder ${config.dataDir} is inside the working directory; move it out (docs/deployment.md#the-data-folder) and set DATA_DIR`);
  }
  // One write, so whoever reads the banner sees the key with it.
  const mail = (config.worker === 'embedded' ? `\nAutomations: ${describeMailDestination(config)}` : '')
    + (inbound ? `\nInbound e-mail: SMTP on ${inbound.url} for reply+…@${config.inboundDomain}` : '');
  console.log(`Staykit is listening on ${address} — database: ${where}, Postgres ${rows[0]?.version}${mail}${banner}`);
  // After the banner, so serving comes first: the demo's bookings, then the workers' first rounds.
  if (seedBookings) demoBookings = seedBookings().catch((error: unknown) => app.log.error({ err: error }, 'the demo bookings were not added'));
  if (config.worker === 'embedded') {
    workers = startBackgroundWorkers(background, config, app.log);
    // With the background work: one process of a cluster writes them (docs/operations.md#scheduled-backups).
    backups = startScheduledBackups(background, config, app.log);
  }
}
