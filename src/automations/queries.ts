/**
 * The scheduler's SQL on `staykit_internal.automation_jobs` (migration 0110), one function per statement. Times
 * come from the scheduler's clock (`now`), never from the database's, so tests move time by moving that clock.
 */
export interface SqlQuery {
  text: string;
  values: unknown[];
}

export type JobKind = 'template' | 'delivery' | 'task_notification' | 'host_notification';

export interface ClaimedJob {
  id: string;
  organization_id: string;
  kind: JobKind;
  attempts: number;
  lease_token: string;
  booking_id: string | null;
  trigger: string | null;
  email_template_id: string | null;
  message_template_id: string | null;
  message_id: string | null;
  calendar_event_task_id: string | null;
  /** host_notification jobs: which notification (migration 0219). */
  notification: string | null;
  /** template jobs of a payment trigger: the payment the e-mail is about (migration 0226). */
  payment_id: string | null;
}

/**
 * The triggers of scheduled sends: their jobs are kept once done, so that moving the booking (or the payment) never
 * sends them twice (migrations 0110, 0226).
 */
export const SCHEDULED_TRIGGERS: readonly string[] = ['moment', 'payment_due'];

/**
 * Leases up to `limit` due jobs: their run_at moves `leaseSeconds` past `now`, so a worker that dies gives them
 * back when that passes. `FOR UPDATE SKIP LOCKED` lets workers claim disjoint sets at the same moment. The jobs of
 * one booking run one at a time, in order (migration 0111): at most its earliest due job, and none while another of
 * its jobs is leased (a lease is live while its run_at is ahead of `now`).
 */
export function claimDueJobs(now: Date, limit: number, leaseSeconds: number): SqlQuery {
  return {
    text: `WITH firsts AS (
             SELECT DISTINCT ON (coalesce(j.booking_key, j.id)) j.id, j.run_at
             FROM staykit_internal.automation_jobs AS j
             WHERE j.done_at IS NULL AND j.run_at <= $1
               AND (j.booking_key IS NULL OR NOT EXISTS (
                 SELECT 1 FROM staykit_internal.automation_jobs AS busy
                 WHERE busy.booking_key = j.booking_key AND busy.lease_token IS NOT NULL AND busy.run_at > $1
                   AND busy.done_at IS NULL))
             ORDER BY coalesce(j.booking_key, j.id), j.run_at, j.created_at, j.id
           ),
           due AS (
             SELECT j.id FROM staykit_internal.automation_jobs AS j
             WHERE j.id IN (SELECT f.id FROM firsts AS f ORDER BY f.run_at LIMIT $2) AND j.run_at <= $1
             FOR UPDATE SKIP LOCKED
           )
           UPDATE staykit_internal.automation_jobs AS j
           SET lease_token = gen_random_uuid(), run_at = $1::timestamptz + make_interval(secs => $3::double precision)
           FROM due WHERE j.id = due.id
           RETURNING j.id, j.organization_id, j.kind, j.attempts, j.lease_token, j.booking_id, j.trigger,
                     j.email_template_id, j.message_template_id, j.message_id, j.calendar_event_task_id, j.notification,
                     j.payment_id`,
    values: [now, limit, leaseSeconds],
  };
}

/**
 * Keeps a job this worker is still working leased for another `leaseSeconds` from `now` (the worker's heartbeat),
 * so a lease can be short — a job of a worker that died comes back within one lease — and still outlast a slow send.
 */
export function renewJobLease(job: Pick<ClaimedJob, 'id' | 'lease_token'>, now: Date, leaseSeconds: number): SqlQuery {
  return {
    text: `UPDATE staykit_internal.automation_jobs SET run_at = $3::timestamptz + make_interval(secs => $4::double precision)
           WHERE id = $1 AND lease_token = $2 AND done_at IS NULL`,
    values: [job.id, job.lease_token, now, leaseSeconds],
  };
}

/** Locks the job if this worker still holds it (inside the transaction that records its outcome). */
export function holdJob(job: ClaimedJob): SqlQuery {
  return {
    text: 'SELECT attachments FROM staykit_internal.automation_jobs WHERE id = $1 AND lease_token = $2 FOR UPDATE',
    values: [job.id, job.lease_token],
  };
}

/** Done: deleted, or — a scheduled send — kept as done so it is never scheduled again. */
export function finishJob(job: ClaimedJob, now: Date, note: string | null = null): SqlQuery {
  if (job.kind === 'template' && SCHEDULED_TRIGGERS.includes(job.trigger ?? '')) {
    return {
      text: `UPDATE staykit_internal.automation_jobs SET done_at = $3, lease_token = NULL, last_error = $4
             WHERE id = $1 AND lease_token = $2`,
      values: [job.id, job.lease_token, now, note],
    };
  }
  return { text: 'DELETE FROM staykit_internal.automation_jobs WHERE id = $1 AND lease_token = $2', values: [job.id, job.lease_token] };
}

/** Due again at `runAt`, one attempt more. */
export function retryJob(job: ClaimedJob, runAt: Date, error: string): SqlQuery {
  return {
    text: `UPDATE staykit_internal.automation_jobs
           SET run_at = $3, lease_token = NULL, attempts = attempts + 1, last_error = $4
           WHERE id = $1 AND lease_token = $2`,
    values: [job.id, job.lease_token, runAt, error],
  };
}

/** What a delivery job's attachments and task (a task notification) are, set by whoever queued the message. */
export function describeDelivery(messageId: string, attachments: unknown[], taskId: string | null, html: string | null = null): SqlQuery {
  return {
    text: `UPDATE staykit_internal.automation_jobs SET attachments = $2, calendar_event_task_id = $3, html = $4
           WHERE kind = 'delivery' AND message_id = $1`,
    values: [messageId, JSON.stringify(attachments), taskId, html],
  };
}

export interface QueuedMessage {
  to_address: string;
  from_address: string | null;
  subject: string;
  body: string;
  booking_id: string | null;
  contact_id: string | null;
  message_template_id: string | null;
}

/** A new outbound e-mail, queued: its insert trigger gives it a delivery job and a `queued` event. */
export function insertMessage(organizationId: string, message: QueuedMessage): SqlQuery {
  return {
    text: `INSERT INTO api.messages (organization_id, booking_id, contact_id, message_template_id, channel, direction,
                                     status, from_address, to_address, subject, body)
           VALUES ($1, $2, $3, $4, 'email', 'outbound', 'queued', $5, $6, $7, $8)
           RETURNING id`,
    values: [organizationId, message.booking_id, message.contact_id, message.message_template_id, message.from_address,
      message.to_address, message.subject, message.body],
  };
}
