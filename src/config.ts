import { existsSync } from 'node:fs';
import { availableParallelism, homedir } from 'node:os';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { isIP } from 'node:net';
import { EMBEDDED_COMPILERS, type EmbeddedCompiler } from './db/wasm-compiler.js';

/**
 * Server configuration: every setting comes from an environment variable and can be overridden by the
 * `staykit serve` flag of the same name (`--port`, `--database-url`, …). See the README's configuration table.
 */
export interface Config {
  port: number;
  host: string;
  databaseUrl: string | undefined;
  /** The server itself when DATABASE_URL is a transaction-mode pooler: LISTEN and migrations (docs/scaling.md). */
  databaseDirectUrl: string | undefined;
  /** Read replicas for reads that may be slightly stale (docs/scaling.md#read-replicas). */
  databaseReadUrls: string[];
  /** Named (prepared) statements on PostgreSQL connections: `auto` = on unless DATABASE_URL is a pooler (docs/scaling.md). */
  preparedStatements: 'auto' | 'on' | 'off';
  /** Seconds after a write during which the same key reads from the primary. */
  readYourWritesSeconds: number;
  /** Months each partitioned log keeps (0 = for ever), by table (docs/scaling.md#partitioned-logs). */
  logRetentionMonths: Record<LogTable, number>;
  /** API processes `staykit serve` starts (node:cluster). */
  processes: number;
  dataDir: string;
  /** How V8 compiles the embedded Postgres (WebAssembly): also optimised (default), or baseline code only (docs/deployment.md). */
  embeddedCompiler: EmbeddedCompiler;
  redisUrl: string | undefined;
  /**
   * Fastify's `trustProxy`: whose `X-Forwarded-For` / `X-Forwarded-Proto` give the client's address and protocol —
   * nobody's (false), every peer's (true), or the proxies' addresses and CIDRs (docs/deployment.md#behind-a-reverse-proxy).
   */
  trustProxy: boolean | string[];
  /** Compress answers for clients that ask (Accept-Encoding); 'off' behind a proxy that compresses (docs/deployment.md). */
  compression: 'on' | 'off';
  /** Encrypts organizations' payment keys at rest (docs/payments.md#stripe); unset = no online payments. */
  secretKey: string | undefined;
  /** Where the Stripe SDK sends its requests (a local Stripe-speaking server); unset = api.stripe.com. */
  stripeApiUrl: string | undefined;
  /** Where e-mail is sent (docs/automations.md#delivery); unset = .eml files in DATA_DIR/outbox/. */
  smtpUrl: string | undefined;
  /** From address of automated e-mail when a message names none. */
  emailFrom: string;
  /** DKIM signing of outgoing mail (docs/deployment.md#dkim): all three or none. */
  dkim: DkimSetting | undefined;
  /** Base URL of links in e-mail (the booking status page). */
  publicUrl: string;
  /**
   * The domain whose mail reaches Staykit (docs/automations.md#inbox): e-mail to a booking's guest gets the reply
   * address `reply+<token>@<domain>`. Unset = no inbox: guests' replies go to the unit's reply-to address only.
   */
  inboundDomain: string | undefined;
  /** Port of the inbound SMTP listener `serve` runs; unset = none. */
  inboundSmtpPort: number | undefined;
  /** Largest inbound e-mail in bytes (SMTP: announced with SIZE, 552 beyond; the provider webhook: 413). */
  inboundMaxBytes: number;
  /** The password a mail provider's inbound webhook sends (POST /v1/inbound-email); unset = that route is off. */
  inboundWebhookSecret: string | undefined;
  outboundAllowPrivate: boolean;
  webhookRetrySchedule: number[];
  webhookInFlightPerEndpoint: number;
  webhookInFlightPerOrganization: number;
  icalSyncIntervalSeconds: number;
  /** Days GET /v1/changes keeps a change (docs/webhooks.md#change-feed). */
  changeRetentionDays: number;
  rateLimitPerMinute: number;
  rateLimitBurst: number;
  bodyLimitBytes: number;
  maxUrlBytes: number;
  statementTimeoutSeconds: number;
  maxPatternLength: number;
  tenantConcurrency: number;
  tenantQueue: number;
  tenantQueueTimeoutSeconds: number;
  /** Percentage of an organization's slots and queue that publishable-key (public) traffic may take (docs/limits.md). */
  tenantPublicShare: number;
  authFailureLimit: number;
  /** Seconds a dashboard session stays valid without a request (docs/dashboard.md#sessions-api). */
  sessionIdleTimeoutSeconds: number;
  /** Seconds a dashboard session stays valid at most, however active. */
  sessionMaxAgeSeconds: number;
  /** Dashboard login tries per 15 minutes for one e-mail address at one client address, and for one client address (0: no limit). */
  loginLimitPerEmail: number;
  loginLimitPerAddress: number;
  /** Worker threads for CPU-heavy work: rendering templates, PDFs (docs/security.md#no-requests-work-on-the-event-loop). */
  computeThreads: number;
  /** Of those, tasks of one organization running at once. */
  computePerOrganization: number;
  /** Tasks of one organization waiting for a thread (429 SK683 beyond). */
  computeQueue: number;
  /** Seconds a task may run (422 SK684 beyond), and wait for a thread (429 SK683 beyond). */
  computeTimeoutSeconds: number;
  /** Where media files live (docs/media.md): an S3-compatible bucket's URL; unset = DATA_DIR/media. */
  mediaS3Url: string | undefined;
  /** Largest image upload in bytes (413 SK761 beyond). */
  mediaMaxBytes: number;
  /** Most pixels (width × height) an uploaded image may declare (422 SK762 beyond): decompression bombs. */
  mediaMaxPixels: number;
  /** Most images one organization keeps (422 SK763 beyond). */
  mediaPerOrganization: number;
  /** Seconds one image upload may take to be resized into its copies (422 SK684 beyond): longer than other tasks. */
  mediaTimeoutSeconds: number;
  /** Seconds between the backups `serve` writes itself (docs/operations.md#scheduled-backups); 0 = none. */
  backupIntervalSeconds: number;
  /** Scheduled backups kept: the oldest beyond are deleted. */
  backupKeep: number;
  /** Where scheduled backups are written; unset = DATA_DIR/backups. */
  backupDir: string | undefined;
  worker: 'embedded' | 'off';
  workerPollIntervalSeconds: number;
  logLevel: string;
}

export const CONFIG_VARIABLES = {
  port: 'PORT',
  host: 'HOST',
  databaseUrl: 'DATABASE_URL',
  databaseDirectUrl: 'DATABASE_DIRECT_URL',
  databaseReadUrls: 'DATABASE_READ_URL',
  preparedStatements: 'STAYKIT_PREPARED_STATEMENTS',
  readYourWritesSeconds: 'STAYKIT_READ_YOUR_WRITES',
  logRetentionMonths: 'STAYKIT_LOG_RETENTION',
  processes: 'STAYKIT_PROCESSES',
  dataDir: 'DATA_DIR',
  embeddedCompiler: 'STAYKIT_EMBEDDED_COMPILER',
  redisUrl: 'REDIS_URL',
  trustProxy: 'STAYKIT_TRUST_PROXY',
  compression: 'STAYKIT_COMPRESSION',
  secretKey: 'STAYKIT_SECRET_KEY',
  stripeApiUrl: 'STAYKIT_STRIPE_API_URL',
  smtpUrl: 'SMTP_URL',
  emailFrom: 'STAYKIT_EMAIL_FROM',
  dkim: ['STAYKIT_DKIM_DOMAIN', 'STAYKIT_DKIM_SELECTOR', 'STAYKIT_DKIM_PRIVATE_KEY_FILE'],
  publicUrl: 'STAYKIT_PUBLIC_URL',
  inboundDomain: 'STAYKIT_INBOUND_DOMAIN',
  inboundSmtpPort: 'STAYKIT_INBOUND_SMTP_PORT',
  inboundMaxBytes: 'STAYKIT_INBOUND_MAX_BYTES',
  inboundWebhookSecret: 'STAYKIT_INBOUND_WEBHOOK_SECRET',
  outboundAllowPrivate: 'STAYKIT_OUTBOUND_ALLOW_PRIVATE',
  webhookRetrySchedule: 'STAYKIT_WEBHOOK_RETRY_SCHEDULE',
  webhookInFlightPerEndpoint: 'STAYKIT_WEBHOOK_IN_FLIGHT_PER_ENDPOINT',
  webhookInFlightPerOrganization: 'STAYKIT_WEBHOOK_IN_FLIGHT_PER_ORGANIZATION',
  icalSyncIntervalSeconds: 'STAYKIT_ICAL_SYNC_INTERVAL',
  changeRetentionDays: 'STAYKIT_CHANGE_RETENTION',
  rateLimitPerMinute: 'STAYKIT_RATE_LIMIT',
  rateLimitBurst: 'STAYKIT_RATE_LIMIT_BURST',
  bodyLimitBytes: 'STAYKIT_BODY_LIMIT',
  maxUrlBytes: 'STAYKIT_MAX_URL_LENGTH',
  statementTimeoutSeconds: 'STAYKIT_STATEMENT_TIMEOUT',
  maxPatternLength: 'STAYKIT_MAX_PATTERN_LENGTH',
  tenantConcurrency: 'STAYKIT_TENANT_CONCURRENCY',
  tenantQueue: 'STAYKIT_TENANT_QUEUE',
  tenantQueueTimeoutSeconds: 'STAYKIT_TENANT_QUEUE_TIMEOUT',
  tenantPublicShare: 'STAYKIT_TENANT_PUBLIC_SHARE',
  authFailureLimit: 'STAYKIT_AUTH_FAILURE_LIMIT',
  sessionIdleTimeoutSeconds: 'STAYKIT_SESSION_IDLE_TIMEOUT',
  sessionMaxAgeSeconds: 'STAYKIT_SESSION_MAX_AGE',
  loginLimitPerEmail: 'STAYKIT_LOGIN_LIMIT_PER_EMAIL',
  loginLimitPerAddress: 'STAYKIT_LOGIN_LIMIT_PER_ADDRESS',
  computeThreads: 'STAYKIT_COMPUTE_THREADS',
  computePerOrganization: 'STAYKIT_COMPUTE_PER_ORGANIZATION',
  computeQueue: 'STAYKIT_COMPUTE_QUEUE',
  computeTimeoutSeconds: 'STAYKIT_COMPUTE_TIMEOUT',
  mediaS3Url: 'STAYKIT_MEDIA_S3_URL',
  mediaMaxBytes: 'STAYKIT_MEDIA_MAX_BYTES',
  mediaMaxPixels: 'STAYKIT_MEDIA_MAX_PIXELS',
  mediaPerOrganization: 'STAYKIT_MEDIA_PER_ORGANIZATION',
  mediaTimeoutSeconds: 'STAYKIT_MEDIA_TIMEOUT',
  backupIntervalSeconds: 'STAYKIT_BACKUP_INTERVAL',
  backupKeep: 'STAYKIT_BACKUP_KEEP',
  backupDir: 'STAYKIT_BACKUP_DIR',
  worker: 'STAYKIT_WORKER',
  workerPollIntervalSeconds: 'STAYKIT_WORKER_POLL_INTERVAL',
  logLevel: 'LOG_LEVEL',
} as const satisfies Record<keyof Config, string | readonly string[]>;

export class ConfigError extends Error {}

export interface DkimSetting {
  domain: string;
  selector: string;
  /** A PEM file with the private key whose public half is published at `<selector>._domainkey.<domain>`. */
  privateKeyFile: string;
}

/**
 * Compute threads by default: the cores, at least two (so a second organization finds a thread while one works, even
 * on one core) and at most four (each thread holds its own copy of the rendering libraries, ~40 MiB).
 */
const DEFAULT_COMPUTE_THREADS = Math.min(4, Math.max(2, availableParallelism()));

/** The logs partitioned by month (migration 0160) and the months each keeps unless STAYKIT_LOG_RETENTION says otherwise. */
export const LOG_RETENTION_DEFAULTS = {
  api_requests: 3,
  webhook_notifications: 3,
  message_events: 12,
  booking_updates: 36,
  calendar_event_updates: 36,
} as const;

export type LogTable = keyof typeof LOG_RETENTION_DEFAULTS;

type Source = Record<string, string | undefined>;

/** Where earlier versions kept the embedded database by default: inside the working directory. */
export const LEGACY_DATA_DIR = './.staykit';

/**
 * The embedded database's folder when DATA_DIR is not set: the user's data folder of the platform (XDG's
 * `$XDG_DATA_HOME/staykit`, `~/Library/Application Support/Staykit`, `%LOCALAPPDATA%\Staykit`), never inside the
 * working directory, where the server's own files and any relative path would reach it. A database that an earlier
 * version made in `./.staykit` is still used there (`serve` says so at start), so an upgrade loses nothing.
 */
export function defaultDataDir(source: Source, platform: NodeJS.Platform = process.platform, cwd = process.cwd()): string {
  if (existsSync(join(cwd, LEGACY_DATA_DIR, 'PG_VERSION'))) return LEGACY_DATA_DIR;
  const home = source.HOME || homedir();
  if (platform === 'darwin') return join(home, 'Library', 'Application Support', 'Staykit');
  if (platform === 'win32') return join(source.LOCALAPPDATA || join(home, 'AppData', 'Local'), 'Staykit');
  return join(source.XDG_DATA_HOME || join(home, '.local', 'share'), 'staykit');
}

/** Whether `dataDir` lies inside the working directory (where a relative path of anything can reach it). */
export function dataDirInsideWorkingDirectory(dataDir: string, cwd = process.cwd()): boolean {
  const path = relative(resolve(cwd), resolve(cwd, dataDir));
  return !path.startsWith('..') && !isAbsolute(path);
}

function integer(source: Source, name: string, fallback: number, min: number): number {
  const raw = source[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < min) throw new ConfigError(`${name} must be an integer ≥ ${min}, got "${raw}"`);
  return Number(raw);
}

function percentage(source: Source, name: string, fallback: number): number {
  const value = integer(source, name, fallback, 1);
  if (value > 100) throw new ConfigError(`${name} must be a percentage from 1 to 100, got "${source[name]}"`);
  return value;
}

function boolean(source: Source, name: string): boolean {
  const raw = (source[name] ?? '').toLowerCase();
  if (raw === '' || raw === 'false' || raw === '0') return false;
  if (raw === 'true' || raw === '1') return true;
  throw new ConfigError(`${name} must be true or false, got "${source[name]}"`);
}

function seconds(source: Source, name: string, fallback: string): number[] {
  const raw = source[name] || fallback;
  const parts = raw.split(',').map((part) => part.trim());
  if (parts.some((part) => !/^\d+$/.test(part))) throw new ConfigError(`${name} must be comma-separated seconds, got "${raw}"`);
  return parts.map(Number);
}

function oneOf<T extends string>(source: Source, name: string, allowed: readonly T[], fallback: T): T {
  const raw = source[name];
  if (raw === undefined || raw === '') return fallback;
  if (!(allowed as readonly string[]).includes(raw)) throw new ConfigError(`${name} must be one of ${allowed.join(', ')}, got "${raw}"`);
  return raw as T;
}

/** An http(s) URL: the guest pages' origin check compares with its origin, so it must have one. */
function httpUrl(source: Source, name: string, fallback: string): string {
  const raw = source[name] || fallback;
  let protocol: string | undefined;
  try {
    protocol = new URL(raw).protocol;
  } catch {
    protocol = undefined;
  }
  if (protocol !== 'http:' && protocol !== 'https:') throw new ConfigError(`${name} must be an http or https URL, got "${raw}"`);
  return raw;
}

/** STAYKIT_MEDIA_S3_URL read: the service, the bucket and the credentials of the media bucket in one URL, as DATABASE_URL is for the database. */
export interface S3Location {
  endpoint: string;
  bucket: string;
  region: string;
  credentials?: { accessKeyId: string; secretAccessKey: string };
}

/** STAYKIT_MEDIA_S3_URL → where and how to reach the bucket; throws a message for the configuration error. */
export function parseS3Url(raw: string): S3Location {
  const url = new URL(raw);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('must be an http(s) URL');
  const bucket = decodeURIComponent(url.pathname.split('/').filter(Boolean)[0] ?? '');
  if (!bucket) throw new Error('must name the bucket as its path: https://host/BUCKET');
  const credentials = url.username
    ? { accessKeyId: decodeURIComponent(url.username), secretAccessKey: decodeURIComponent(url.password) }
    : undefined;
  return { endpoint: `${url.protocol}//${url.host}`, bucket, region: url.searchParams.get('region') ?? 'us-east-1', credentials };
}

/** An S3-compatible bucket's URL (src/media/s3-store.ts), checked at start rather than at the first upload. */
function s3Url(source: Source, name: string): string | undefined {
  const raw = source[name] || undefined;
  if (raw === undefined) return undefined;
  try {
    parseS3Url(raw);
  } catch (error) {
    throw new ConfigError(`${name} ${(error as Error).message}: https://ACCESS_KEY:SECRET@host/BUCKET?region=…, got "${raw.replace(/\/\/[^@/]*@/, '//…@')}"`);
  }
  return raw;
}

/** STAYKIT_DKIM_DOMAIN, _SELECTOR and _PRIVATE_KEY_FILE: all three (signing) or none; half a setting is a mistake said at start. */
function dkim(source: Source): DkimSetting | undefined {
  const names = CONFIG_VARIABLES.dkim;
  const [domain, selector, privateKeyFile] = names.map((name) => source[name] || undefined);
  if (domain === undefined && selector === undefined && privateKeyFile === undefined) return undefined;
  if (domain === undefined || selector === undefined || privateKeyFile === undefined) {
    throw new ConfigError(`DKIM signing needs all of ${names.join(', ')}; missing: ${names.filter((name) => !source[name]).join(', ')}`);
  }
  return { domain, selector, privateKeyFile };
}

const HOSTNAME = /^(?=.{1,253}$)[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/i;

/**
 * The inbox's settings (docs/automations.md#inbox): a reply address is signed with STAYKIT_SECRET_KEY, and the SMTP
 * listener and the provider webhook accept only reply addresses — so each needs what comes before it.
 */
function inbound(source: Source): Pick<Config, 'inboundDomain' | 'inboundSmtpPort' | 'inboundMaxBytes' | 'inboundWebhookSecret'> {
  const names = CONFIG_VARIABLES;
  const domain = source[names.inboundDomain] || undefined;
  if (domain !== undefined && !HOSTNAME.test(domain)) throw new ConfigError(`${names.inboundDomain} must be a domain name, got "${domain}"`);
  if (domain !== undefined && !source[names.secretKey]) {
    throw new ConfigError(`${names.inboundDomain} needs ${names.secretKey}: reply addresses are signed with it`);
  }
  const port = source[names.inboundSmtpPort] ? integer(source, names.inboundSmtpPort, 0, 0) : undefined;
  if (port !== undefined && port > 65535) throw new ConfigError(`${names.inboundSmtpPort} must be a port (0 to 65535), got "${port}"`);
  const webhookSecret = source[names.inboundWebhookSecret] || undefined;
  for (const [name, value] of [[names.inboundSmtpPort, port], [names.inboundWebhookSecret, webhookSecret]] as const) {
    if (value !== undefined && domain === undefined) {
      throw new ConfigError(`${name} needs ${names.inboundDomain}: only mail to its reply addresses is received`);
    }
  }
  return {
    inboundDomain: domain?.toLowerCase(),
    inboundSmtpPort: port,
    inboundMaxBytes: integer(source, names.inboundMaxBytes, 10 * 1024 * 1024, 1024),
    inboundWebhookSecret: webhookSecret,
  };
}

function urls(source: Source, name: string): string[] {
  return (source[name] ?? '').split(',').map((part) => part.trim()).filter((part) => part !== '');
}

/** The names @fastify/proxy-addr gives address ranges: 127.0.0.0/8 and ::1, 169.254.0.0/16 and fe80::/10, private ranges. */
const PROXY_RANGE_NAMES = ['loopback', 'linklocal', 'uniquelocal'];

function addressOrCidr(value: string): boolean {
  if (PROXY_RANGE_NAMES.includes(value)) return true;
  const [address, prefix, extra] = value.split('/');
  const version = isIP(address ?? '');
  if (version === 0 || extra !== undefined) return false;
  return prefix === undefined || (/^\d{1,3}$/.test(prefix) && Number(prefix) <= (version === 4 ? 32 : 128));
}

/**
 * `false` (default), `true`, or comma-separated addresses, CIDRs and range names. A hop count is refused: Fastify
 * ignores it (a count cannot tell a proxy from a client that connects directly and sends the headers itself).
 */
function trustProxy(source: Source, name: string): boolean | string[] {
  const raw = (source[name] ?? '').trim();
  if (raw === '' || raw.toLowerCase() === 'false') return false;
  if (raw.toLowerCase() === 'true') return true;
  if (/^\d+$/.test(raw)) {
    throw new ConfigError(`${name} must be true, false or the proxies' addresses/CIDRs: a hop count ("${raw}") cannot tell a proxy from a client that sends X-Forwarded-For itself`);
  }
  const values = raw.split(',').map((part) => part.trim());
  const bad = values.find((value) => !addressOrCidr(value));
  if (bad !== undefined) {
    throw new ConfigError(`${name} must be true, false or comma-separated addresses, CIDRs or ${PROXY_RANGE_NAMES.join('/')}, got "${bad}"`);
  }
  return values;
}

/** `table=months,…` over the defaults; an unknown table or a bad number is an error. */
function logRetention(source: Source, name: string): Record<LogTable, number> {
  const result: Record<LogTable, number> = { ...LOG_RETENTION_DEFAULTS };
  for (const part of (source[name] ?? '').split(',').map((item) => item.trim()).filter((item) => item !== '')) {
    const match = /^([a-z_]+)=(\d+)$/.exec(part);
    if (!match || !Object.hasOwn(LOG_RETENTION_DEFAULTS, match[1]!)) {
      throw new ConfigError(`${name} must be table=months pairs (tables: ${Object.keys(LOG_RETENTION_DEFAULTS).join(', ')}), got "${part}"`);
    }
    result[match[1] as LogTable] = Number(match[2]);
  }
  return result;
}

export function loadConfig(source: Source = process.env): Config {
  return {
    port: integer(source, CONFIG_VARIABLES.port, 3000, 0),
    host: source[CONFIG_VARIABLES.host] || '127.0.0.1',
    databaseUrl: source[CONFIG_VARIABLES.databaseUrl] || undefined,
    databaseDirectUrl: source[CONFIG_VARIABLES.databaseDirectUrl] || undefined,
    databaseReadUrls: urls(source, CONFIG_VARIABLES.databaseReadUrls),
    preparedStatements: oneOf(source, CONFIG_VARIABLES.preparedStatements, ['auto', 'on', 'off'] as const, 'auto'),
    readYourWritesSeconds: integer(source, CONFIG_VARIABLES.readYourWritesSeconds, 5, 0),
    logRetentionMonths: logRetention(source, CONFIG_VARIABLES.logRetentionMonths),
    processes: integer(source, CONFIG_VARIABLES.processes, 1, 1),
    dataDir: source[CONFIG_VARIABLES.dataDir] || defaultDataDir(source),
    embeddedCompiler: oneOf(source, CONFIG_VARIABLES.embeddedCompiler, EMBEDDED_COMPILERS, 'optimizing'),
    redisUrl: source[CONFIG_VARIABLES.redisUrl] || undefined,
    trustProxy: trustProxy(source, CONFIG_VARIABLES.trustProxy),
    compression: oneOf(source, CONFIG_VARIABLES.compression, ['on', 'off'] as const, 'on'),
    secretKey: source[CONFIG_VARIABLES.secretKey] || undefined,
    stripeApiUrl: source[CONFIG_VARIABLES.stripeApiUrl] || undefined,
    smtpUrl: source[CONFIG_VARIABLES.smtpUrl] || undefined,
    emailFrom: source[CONFIG_VARIABLES.emailFrom] || 'no-reply@staykit.localhost',
    dkim: dkim(source),
    publicUrl: httpUrl(source, CONFIG_VARIABLES.publicUrl, 'http://localhost:3000'),
    ...inbound(source),
    outboundAllowPrivate: boolean(source, CONFIG_VARIABLES.outboundAllowPrivate),
    webhookRetrySchedule: seconds(source, CONFIG_VARIABLES.webhookRetrySchedule, '0,5,300,1800,7200,18000,36000,50400,72000,86400'),
    webhookInFlightPerEndpoint: integer(source, CONFIG_VARIABLES.webhookInFlightPerEndpoint, 5, 1),
    webhookInFlightPerOrganization: integer(source, CONFIG_VARIABLES.webhookInFlightPerOrganization, 25, 1),
    icalSyncIntervalSeconds: integer(source, CONFIG_VARIABLES.icalSyncIntervalSeconds, 900, 1),
    changeRetentionDays: integer(source, CONFIG_VARIABLES.changeRetentionDays, 30, 1),
    rateLimitPerMinute: integer(source, CONFIG_VARIABLES.rateLimitPerMinute, 600, 1),
    rateLimitBurst: integer(source, CONFIG_VARIABLES.rateLimitBurst, 100, 0),
    bodyLimitBytes: integer(source, CONFIG_VARIABLES.bodyLimitBytes, 1024 * 1024, 1024),
    maxUrlBytes: integer(source, CONFIG_VARIABLES.maxUrlBytes, 8192, 256),
    statementTimeoutSeconds: integer(source, CONFIG_VARIABLES.statementTimeoutSeconds, 10, 1),
    maxPatternLength: integer(source, CONFIG_VARIABLES.maxPatternLength, 1000, 1),
    tenantConcurrency: integer(source, CONFIG_VARIABLES.tenantConcurrency, 4, 1),
    tenantQueue: integer(source, CONFIG_VARIABLES.tenantQueue, 32, 0),
    tenantQueueTimeoutSeconds: integer(source, CONFIG_VARIABLES.tenantQueueTimeoutSeconds, 5, 0),
    tenantPublicShare: percentage(source, CONFIG_VARIABLES.tenantPublicShare, 50),
    authFailureLimit: integer(source, CONFIG_VARIABLES.authFailureLimit, 30, 0),
    sessionIdleTimeoutSeconds: integer(source, CONFIG_VARIABLES.sessionIdleTimeoutSeconds, 12 * 3600, 60),
    sessionMaxAgeSeconds: integer(source, CONFIG_VARIABLES.sessionMaxAgeSeconds, 7 * 86_400, 60),
    loginLimitPerEmail: integer(source, CONFIG_VARIABLES.loginLimitPerEmail, 10, 0),
    loginLimitPerAddress: integer(source, CONFIG_VARIABLES.loginLimitPerAddress, 30, 0),
    computeThreads: integer(source, CONFIG_VARIABLES.computeThreads, DEFAULT_COMPUTE_THREADS, 1),
    computePerOrganization: integer(source, CONFIG_VARIABLES.computePerOrganization, 1, 1),
    computeQueue: integer(source, CONFIG_VARIABLES.computeQueue, 16, 0),
    computeTimeoutSeconds: integer(source, CONFIG_VARIABLES.computeTimeoutSeconds, 10, 1),
    mediaS3Url: s3Url(source, CONFIG_VARIABLES.mediaS3Url),
    mediaMaxBytes: integer(source, CONFIG_VARIABLES.mediaMaxBytes, 25 * 1024 * 1024, 1024),
    mediaMaxPixels: integer(source, CONFIG_VARIABLES.mediaMaxPixels, 100_000_000, 1),
    mediaPerOrganization: integer(source, CONFIG_VARIABLES.mediaPerOrganization, 5000, 1),
    mediaTimeoutSeconds: integer(source, CONFIG_VARIABLES.mediaTimeoutSeconds, 60, 1),
    backupIntervalSeconds: integer(source, CONFIG_VARIABLES.backupIntervalSeconds, 0, 0),
    backupKeep: integer(source, CONFIG_VARIABLES.backupKeep, 7, 1),
    backupDir: source[CONFIG_VARIABLES.backupDir] || undefined,
    worker: oneOf(source, CONFIG_VARIABLES.worker, ['embedded', 'off'] as const, 'embedded'),
    workerPollIntervalSeconds: integer(source, CONFIG_VARIABLES.workerPollIntervalSeconds, 1, 1),
    logLevel: source[CONFIG_VARIABLES.logLevel] || 'info',
  };
}
