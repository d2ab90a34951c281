/** What every job of the scheduler works with: the database, the mailer, the clock and the sender settings. */
import type { ComputePool } from '../compute/pool.js';
import type { Database } from '../db/types.js';
import type { WorkerLogger } from '../observability/worker-logger.js';
import type { Mailer } from './mailer.js';
import type { ReplyAddresses } from '../inbox/reply-address.js';

export interface AutomationRuntime {
  db: Database;
  mailer: Mailer;
  /** The scheduler's clock: due work is what has run_at <= now(). */
  now: () => Date;
  /** The From address when a message has none (`STAYKIT_EMAIL_FROM`); the organization's name is its display name. */
  emailFrom: string;
  /** Base of the links in messages (`STAYKIT_PUBLIC_URL`). */
  publicUrl: string;
  /** The bookings' reply addresses when the server receives mail (STAYKIT_INBOUND_DOMAIN); undefined = no inbox. */
  replyAddresses: ReplyAddresses | undefined;
  /** Seconds before each retry of a delivery that may pass (4xx, timeout); after the last, the message fails. */
  retrySchedule: readonly number[];
  logger: WorkerLogger;
  /** Where templates are rendered (worker threads, under each organization's budget). */
  compute: ComputePool;
}

/** What became of one job, for tests and logs. */
export interface JobReport {
  jobId: string;
  kind: string;
  outcome: 'queued' | 'sent' | 'retry' | 'failed' | 'skipped' | 'lost';
  messageId?: string;
  detail?: string;
}

/** `"Name" <address>`, or the bare address without a name; quotes, angle brackets and line breaks are dropped from it. */
export function namedAddress(name: string | null | undefined, address: string): string {
  const clean = (name ?? '').replace(/["\\\r\n<>]/g, '').trim();
  return clean ? `"${clean}" <${address}>` : address;
}

/** `"Organization name" <address>` when the address has no display name of its own. */
export function fromHeader(emailFrom: string, organizationName: string): string {
  if (emailFrom.includes('<')) return emailFrom;
  return namedAddress(organizationName, emailFrom);
}
