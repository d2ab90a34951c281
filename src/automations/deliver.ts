/**
 * A delivery job: send one queued outbound e-mail, outside any transaction, then record what came of it in one
 * transaction with the job's end — but only while this worker still holds the job. The message's `status`,
 * `sent_at` and `from_address` change, and a `message_events` row keeps the server's answer:
 * - sent: `sent`, with the answer;
 * - an answer or failure that may pass (4xx, timeout, lost connection): a `failed` event with `retry_at`, and the
 *   job is due again after the next delay of the retry schedule; after the last one the message fails;
 * - a refusal (5xx): `failed` for good.
 * A worker that dies while sending leaves the job leased; when the lease expires another worker sends the message
 * again with the same Message-ID. A server that had not yet accepted the message (no 250 answer) received nothing;
 * one that had could see it twice and deduplicate by Message-ID (docs/automations.md#delivery).
 */
import type { MailAttachment, OutgoingMail, SendOutcome } from './mailer.js';
import { outboundMessageId } from './message-id.js';
import { finishJob, holdJob, retryJob, type ClaimedJob } from './queries.js';
import { fromHeader, namedAddress, type AutomationRuntime, type JobReport } from './runtime.js';

interface MessageRow {
  status: string;
  to_address: string;
  from_address: string | null;
  subject: string;
  body: string;
  organization_name: string;
  reply_to: { name: string; email: string } | null;
  attachments: MailAttachment[];
  /** The HTML alternative composed with the message, if any (migration 0233). */
  html: string | null;
  calendar_event_task_id: string | null;
  /** A message to a guest about their booking (both set) gets the booking's reply address. */
  booking_id: string | null;
  contact_id: string | null;
  /** A reply's threading: the answered message's Message-ID, and the thread's (its own answered one's first). */
  in_reply_to: string | null;
  thread: string[] | null;
}

const MESSAGE = `
  SELECT m.status, m.to_address, m.from_address, m.subject, m.body, o.name AS organization_name,
         j.attachments, j.html, j.calendar_event_task_id, m.booking_id, m.contact_id,
         answered.rfc_message_id AS in_reply_to, answered.thread,
         (SELECT jsonb_build_object('name', r.name, 'email', r.email)
          FROM api.calendar_events AS e
          JOIN api.product_reply_to_addresses AS pr ON pr.product_id = e.product_id AND pr.organization_id = e.organization_id
          JOIN api.reply_to_addresses AS r ON r.id = pr.reply_to_address_id AND r.organization_id = pr.organization_id
          WHERE e.booking_id = m.booking_id AND e.organization_id = m.organization_id AND e.type = 'booking'
          ORDER BY e.created_at LIMIT 1) AS reply_to
  FROM api.messages AS m
  JOIN api.organizations AS o ON o.id = m.organization_id
  JOIN staykit_internal.automation_jobs AS j ON j.id = $3
  LEFT JOIN LATERAL (
    SELECT r.rfc_message_id, array_remove(ARRAY[earlier.rfc_message_id, r.rfc_message_id], NULL) AS thread
    FROM api.messages AS r
    LEFT JOIN api.messages AS earlier ON earlier.id = r.in_reply_to_id AND earlier.organization_id = r.organization_id
    WHERE r.id = m.in_reply_to_id AND r.organization_id = m.organization_id
  ) AS answered ON true
  WHERE m.id = $1 AND m.organization_id = $2`;

const RECORD_SENT = `
  WITH message AS (
    UPDATE api.messages SET status = 'sent', sent_at = $3, from_address = coalesce(from_address, $4),
                            rfc_message_id = coalesce(rfc_message_id, $7)
    WHERE id = $1 AND organization_id = $2
    RETURNING id, organization_id
  ), task AS (
    UPDATE api.calendar_event_tasks SET notification_sent_at = $3 WHERE id = $6 AND organization_id = $2
  )
  INSERT INTO api.message_events (organization_id, message_id, type, payload)
  SELECT organization_id, id, 'sent', $5 FROM message`;

const RECORD_FAILED = `
  WITH message AS (
    UPDATE api.messages SET status = 'failed' WHERE id = $1 AND organization_id = $2 RETURNING id, organization_id
  )
  INSERT INTO api.message_events (organization_id, message_id, type, payload)
  SELECT organization_id, id, 'failed', $3 FROM message`;

const RECORD_RETRY = `
  INSERT INTO api.message_events (organization_id, message_id, type, payload) VALUES ($2, $1, 'failed', $3)`;

type Decision =
  | { kind: 'sent'; payload: object }
  | { kind: 'retry'; payload: object; at: Date }
  | { kind: 'failed'; payload: object };

function decide(outcome: SendOutcome, job: ClaimedJob, runtime: AutomationRuntime): Decision {
  if (outcome.kind === 'sent') return { kind: 'sent', payload: { response: outcome.response } };
  const delay = runtime.retrySchedule[job.attempts];
  const base = { response: outcome.response, code: outcome.code ?? null, attempt: job.attempts + 1 };
  if (outcome.kind === 'retry' && delay !== undefined) {
    const at = new Date(runtime.now().getTime() + delay * 1000);
    return { kind: 'retry', at, payload: { ...base, permanent: false, retry_at: at.toISOString() } };
  }
  return { kind: 'failed', payload: { ...base, permanent: outcome.kind === 'failed' } };
}

export async function runDeliveryJob(job: ClaimedJob, runtime: AutomationRuntime): Promise<JobReport> {
  const { db, mailer, logger } = runtime;
  const messageId = job.message_id ?? '';
  const found = await db.query<MessageRow>(MESSAGE, [messageId, job.organization_id, job.id]);
  const message = found.rows[0];
  if (!message || message.status !== 'queued') {
    const finish = finishJob(job, runtime.now());
    await db.query(finish.text, finish.values);
    return { jobId: job.id, kind: job.kind, outcome: 'skipped', messageId, detail: 'not queued' };
  }
  const from = message.from_address ?? fromHeader(runtime.emailFrom, message.organization_name);
  const rfcMessageId = outboundMessageId(messageId, runtime.emailFrom);
  // A guest's reply reaches Staykit (the booking's reply address) and the unit's own reply-to address, if it has one.
  const guestMail = message.booking_id !== null && message.contact_id !== null;
  const replyTo = [
    guestMail && runtime.replyAddresses ? runtime.replyAddresses.forBooking(message.booking_id!) : undefined,
    message.reply_to ? namedAddress(message.reply_to.name, message.reply_to.email) : undefined,
  ].filter((address) => address !== undefined);
  const mail: OutgoingMail = {
    messageId: rfcMessageId,
    from,
    replyTo: replyTo.length > 0 ? replyTo.join(', ') : undefined,
    inReplyTo: message.in_reply_to ?? undefined,
    references: message.thread !== null && message.thread.length > 0 ? message.thread : undefined,
    to: message.to_address,
    subject: message.subject,
    text: message.body,
    html: message.html ?? undefined,
    attachments: message.attachments,
  };
  const outcome = await mailer.send(mail);
  const decision = decide(outcome, job, runtime);

  return db.transaction(async (tx) => {
    const hold = holdJob(job);
    if ((await tx.query(hold.text, hold.values)).rows.length === 0) {
      logger.warn({ message_id: messageId }, 'e-mail attempt not recorded: the lease expired and another worker has the message');
      return { jobId: job.id, kind: job.kind, outcome: 'lost', messageId };
    }
    if (decision.kind === 'sent') {
      await tx.query(RECORD_SENT, [messageId, job.organization_id, runtime.now(), from, JSON.stringify(decision.payload),
        message.calendar_event_task_id, rfcMessageId]);
    } else if (decision.kind === 'retry') {
      await tx.query(RECORD_RETRY, [messageId, job.organization_id, JSON.stringify(decision.payload)]);
      const retry = retryJob(job, decision.at, outcome.response);
      await tx.query(retry.text, retry.values);
      logger.warn({ message_id: messageId, response: outcome.response, retry_at: decision.at }, 'e-mail not delivered; will retry');
      return { jobId: job.id, kind: job.kind, outcome: 'retry', messageId, detail: outcome.response };
    } else {
      await tx.query(RECORD_FAILED, [messageId, job.organization_id, JSON.stringify(decision.payload)]);
      logger.warn({ message_id: messageId, response: outcome.response }, 'e-mail failed');
    }
    const finish = finishJob(job, runtime.now());
    await tx.query(finish.text, finish.values);
    return { jobId: job.id, kind: job.kind, outcome: decision.kind, messageId, detail: outcome.response };
  });
}
