/**
 * The one scheduler of automation work (migration 0110): claims due jobs — rendered e-mails, deliveries, task
 * notifications — in the shared poll loop (src/jobs/poll-loop.ts) and works each by its kind. Due means
 * `run_at <= now()` by the scheduler's own clock, which tests move. Embedded in `staykit serve` on both backends;
 * `staykit worker` runs one on PostgreSQL, woken by NOTIFY on AUTOMATION_WAKE_CHANNEL.
 */
import type { ComputePool } from '../compute/pool.js';
import { processComputePool } from '../compute/process-pool.js';
import type { Database } from '../db/types.js';
import { startPollLoop } from '../jobs/poll-loop.js';
import { silentLogger, type WorkerLogger } from '../observability/worker-logger.js';
import { runDeliveryJob } from './deliver.js';
import type { Mailer } from './mailer.js';
import type { ReplyAddresses } from '../inbox/reply-address.js';
import { claimDueJobs, type ClaimedJob } from './queries.js';
import type { AutomationRuntime, JobReport } from './runtime.js';
import { runHostNotificationJob } from './host-notification.js';
import { runTaskNotificationJob } from './task-notification.js';
import { runTemplateJob } from './template-job.js';

/** The NOTIFY channel of new automation jobs (migration 0110). */
export const AUTOMATION_WAKE_CHANNEL = 'staykit_automations';

/** Seconds before each retry of an e-mail the server did not take (4xx, timeout): 1 min, 5 min, 30 min, 2 h, 6 h. */
export const DEFAULT_RETRY_SCHEDULE: readonly number[] = [60, 300, 1800, 7200, 21600];

export interface SchedulerOptions {
  mailer: Mailer;
  emailFrom: string;
  publicUrl: string;
  /** The bookings' reply addresses (src/inbox/reply-address.ts); none = no inbox, e-mail carries no reply address. */
  replyAddresses?: ReplyAddresses | undefined;
  now?: () => Date;
  retrySchedule?: readonly number[];
  /** How long a claimed job is held before another worker may take it (s). Must exceed the SMTP timeout. Default 300. */
  leaseSeconds?: number;
  /** Jobs worked at once. Default 4. */
  concurrency?: number;
  /** Look for due jobs this often when nothing wakes the scheduler (ms). Default 1000. */
  pollIntervalMs?: number;
  logger?: WorkerLogger;
  /** Called after every job (tests, metrics). */
  onJob?: (report: JobReport) => void;
  /** Where templates are rendered (default: the process's compute pool). */
  compute?: ComputePool;
}

export interface AutomationScheduler {
  wake(): void;
  stop(): Promise<void>;
}

function runtimeOf(db: Database, options: SchedulerOptions): AutomationRuntime {
  return {
    db,
    mailer: options.mailer,
    now: options.now ?? (() => new Date()),
    emailFrom: options.emailFrom,
    publicUrl: options.publicUrl,
    replyAddresses: options.replyAddresses,
    retrySchedule: options.retrySchedule ?? DEFAULT_RETRY_SCHEDULE,
    logger: options.logger ?? silentLogger,
    compute: options.compute ?? processComputePool(),
  };
}

export async function claimJobs(db: Database, now: Date, limit: number, leaseSeconds: number): Promise<ClaimedJob[]> {
  const claim = claimDueJobs(now, limit, leaseSeconds);
  return (await db.query<ClaimedJob>(claim.text, claim.values)).rows;
}

function runJob(job: ClaimedJob, runtime: AutomationRuntime): Promise<JobReport> {
  switch (job.kind) {
    case 'template': return runTemplateJob(job, runtime);
    case 'delivery': return runDeliveryJob(job, runtime);
    case 'task_notification': return runTaskNotificationJob(job, runtime);
    case 'host_notification': return runHostNotificationJob(job, runtime);
  }
}

/**
 * Works everything due now, batch after batch, including what that work makes due (a rendered message's
 * delivery), and returns the reports. For tests and one-shot runs; stops when a claim finds nothing.
 */
export async function runDueJobs(db: Database, options: SchedulerOptions): Promise<JobReport[]> {
  const runtime = runtimeOf(db, options);
  const reports: JobReport[] = [];
  for (;;) {
    const jobs = await claimJobs(db, runtime.now(), options.concurrency ?? 4, options.leaseSeconds ?? 300);
    if (jobs.length === 0) return reports;
    const done = await Promise.all(jobs.map((job) => runJob(job, runtime)));
    for (const report of done) options.onJob?.(report);
    reports.push(...done);
  }
}

export function startAutomationScheduler(db: Database, options: SchedulerOptions): AutomationScheduler {
  const runtime = runtimeOf(db, options);
  const { logger } = runtime;
  const leaseSeconds = options.leaseSeconds ?? 300;
  const work = async (job: ClaimedJob): Promise<void> => {
    try {
      const report = await runJob(job, runtime);
      options.onJob?.(report);
    } catch (error) {
      // Nothing recorded: the lease expires and the job is tried again then.
      logger.error({ job_id: job.id, kind: job.kind, err: error }, 'automation job failed; retried when its lease expires');
    }
  };
  const loop = startPollLoop({
    pollIntervalMs: options.pollIntervalMs ?? 1000,
    concurrency: options.concurrency ?? 4,
    maxBackoffMs: 30_000,
    claim: (limit) => claimJobs(db, runtime.now(), limit, leaseSeconds),
    work,
    onClaimError: (error) => logger.error({ err: error }, 'claiming automation jobs failed'),
  });
  return {
    wake: () => loop.wake(),
    async stop() {
      await loop.stop();
      options.mailer.close();
    },
  };
}
