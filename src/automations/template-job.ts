/**
 * A template job: render an e-mail template for a booking and queue the message — the message inserted in one
 * transaction with the job's end, so a message is queued exactly once per job. Checked again at run time: the booking
 * still exists and is not silent, a scheduled send's (or a payment received's) booking still has the template's
 * status, a payment reminder's payment is still to pay, the guest has an e-mail address. What is skipped is recorded on the job (`last_error`) and logged.
 *
 * The rendering runs in the compute pool between two short transactions, never inside one: waiting for a thread
 * must not hold a database connection (on the embedded database, the only one). The job's lease keeps it this
 * worker's meanwhile; each transaction first checks it still holds the job.
 */
import type { Transaction } from '../db/types.js';
import { ApiError } from '../errors/api-error.js';
import { loadBookingRecord, loadOrganizationLogo, loadProductCover } from './context.js';
import { describeDelivery, finishJob, holdJob, insertMessage, type ClaimedJob } from './queries.js';
import { composeMessage } from './rendering.js';
import { namedAddress, type AutomationRuntime, type JobReport } from './runtime.js';
import { loadTemplate } from './template-queries.js';
import { isPaymentOpen } from './variables.js';

/**
 * Triggers whose template's status is compared with the booking's when the job runs: scheduled sends (the booking
 * may have changed since), and a payment received (the payment may be what confirms the booking, in the same
 * transaction, after the job was written).
 */
const STATUS_CHECKED_AT_RUN: readonly string[] = ['moment', 'payment_due', 'payment_received'];

const lost = (job: ClaimedJob): JobReport => ({ jobId: job.id, kind: job.kind, outcome: 'lost' });

/** Runs `work` in a transaction that holds the job; reports it lost when another worker has it now. */
function holding(job: ClaimedJob, runtime: AutomationRuntime, work: (tx: Transaction) => Promise<JobReport>): Promise<JobReport> {
  return runtime.db.transaction(async (tx) => {
    const hold = holdJob(job);
    if ((await tx.query(hold.text, hold.values)).rows.length === 0) return lost(job);
    return work(tx);
  });
}

function skip(job: ClaimedJob, runtime: AutomationRuntime, reason: string): Promise<JobReport> {
  return holding(job, runtime, async (tx) => {
    const finish = finishJob(job, runtime.now(), reason);
    await tx.query(finish.text, finish.values);
    runtime.logger.info({ job_id: job.id, booking_id: job.booking_id, reason }, 'automated e-mail not sent');
    return { jobId: job.id, kind: job.kind, outcome: 'skipped', detail: reason };
  });
}

export async function runTemplateJob(job: ClaimedJob, runtime: AutomationRuntime): Promise<JobReport> {
  const { db } = runtime;
  const record = await loadBookingRecord(db, job.organization_id, job.booking_id ?? '');
  if (!record) return skip(job, runtime, 'the booking no longer exists');
  const template = await loadTemplate(db, job.organization_id, job.email_template_id, job.message_template_id);
  if (!template) return skip(job, runtime, 'the template no longer exists');
  if (template.include_product_image) record.cover = await loadProductCover(db, job.organization_id, record.product.id);
  record.logo = await loadOrganizationLogo(db, job.organization_id);
  if (record.booking.silent) return skip(job, runtime, 'the booking is silent');
  const status = template.status ?? 'CONFIRMED';
  if (STATUS_CHECKED_AT_RUN.includes(job.trigger ?? '') && record.event.status !== status) {
    return skip(job, runtime, `the booking is ${record.event.status}, the template is for ${status} bookings`);
  }
  record.payment_id = job.payment_id;
  if (job.trigger === 'payment_due') {
    const payment = record.payments.find((candidate) => candidate.id === job.payment_id);
    if (!payment || !isPaymentOpen(payment)) return skip(job, runtime, 'the payment is no longer to pay');
  }
  const email = record.contact?.email;
  if (!email) return skip(job, runtime, 'the guest has no e-mail address');

  // A render past the pool's time limit would be as slow next time: skipped like one that fails. A full queue (429)
  // is thrown: the job's lease runs out and it is tried again later.
  const rendered = await composeMessage(runtime.compute, template, record, runtime.publicUrl, runtime.now())
    .catch((error: unknown) => {
      if (error instanceof ApiError && error.code === 'SK684') return { problem: error.message };
      throw error;
    });
  if ('problem' in rendered) return skip(job, runtime, `the template does not render: ${rendered.problem}`);
  const composed = rendered.message;
  return holding(job, runtime, async (tx) => {
    const insert = insertMessage(job.organization_id, {
      to_address: namedAddress([record.contact?.first_name, record.contact?.last_name].filter(Boolean).join(' '), email),
      from_address: null, subject: composed.subject, body: composed.body, booking_id: record.booking.id,
      contact_id: record.contact?.id ?? null, message_template_id: job.message_template_id,
    });
    const messageId = (await tx.query<{ id: string }>(insert.text, insert.values)).rows[0]!.id;
    const describe = describeDelivery(messageId, composed.attachments, null, composed.html);
    await tx.query(describe.text, describe.values);
    const finish = finishJob(job, runtime.now());
    await tx.query(finish.text, finish.values);
    return { jobId: job.id, kind: job.kind, outcome: 'queued', messageId };
  });
}
