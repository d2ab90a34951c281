/**
 * A template job: render an e-mail template for a booking and queue the message — in one transaction with the
 * job's end, so a message is queued exactly once per job. Checked again at run time: the booking still exists and
 * is not silent, a scheduled send's booking still has the template's status, the guest has an e-mail address.
 * What is skipped is recorded on the job (`last_error`) and logged.
 */
import type { Transaction } from '../db/types.js';
import { composeMessage, loadTemplate, type ComposedMessage } from './compose.js';
import { loadBookingRecord } from './context.js';
import { describeDelivery, finishJob, holdJob, insertMessage, type ClaimedJob } from './queries.js';
import { namedAddress, type AutomationRuntime, type JobReport } from './runtime.js';

async function skip(tx: Transaction, job: ClaimedJob, runtime: AutomationRuntime, reason: string): Promise<JobReport> {
  const finish = finishJob(job, runtime.now(), reason);
  await tx.query(finish.text, finish.values);
  runtime.logger.info({ job_id: job.id, booking_id: job.booking_id, reason }, 'automated e-mail not sent');
  return { jobId: job.id, kind: job.kind, outcome: 'skipped', detail: reason };
}

export async function runTemplateJob(job: ClaimedJob, runtime: AutomationRuntime): Promise<JobReport> {
  return runtime.db.transaction(async (tx) => {
    const hold = holdJob(job);
    if ((await tx.query(hold.text, hold.values)).rows.length === 0) return { jobId: job.id, kind: job.kind, outcome: 'lost' };
    const record = await loadBookingRecord(tx, job.organization_id, job.booking_id ?? '');
    if (!record) return skip(tx, job, runtime, 'the booking no longer exists');
    const template = await loadTemplate(tx, job.organization_id, job.email_template_id, job.message_template_id);
    if (!template) return skip(tx, job, runtime, 'the template no longer exists');
    if (record.booking.silent) return skip(tx, job, runtime, 'the booking is silent');
    const status = template.status ?? 'CONFIRMED';
    if (job.trigger === 'moment' && record.event.status !== status) {
      return skip(tx, job, runtime, `the booking is ${record.event.status}, the template is for ${status} bookings`);
    }
    const email = record.contact?.email;
    if (!email) return skip(tx, job, runtime, 'the guest has no e-mail address');

    let composed: ComposedMessage;
    try {
      composed = await composeMessage(template, record, runtime.publicUrl, runtime.now());
    } catch (error) {
      return skip(tx, job, runtime, `the template does not render: ${(error as Error).message}`);
    }
    const insert = insertMessage(job.organization_id, {
      to_address: namedAddress([record.contact?.first_name, record.contact?.last_name].filter(Boolean).join(' '), email),
      from_address: null, subject: composed.subject, body: composed.body, booking_id: record.booking.id,
      contact_id: record.contact?.id ?? null, message_template_id: job.message_template_id,
    });
    const messageId = (await tx.query<{ id: string }>(insert.text, insert.values)).rows[0]!.id;
    if (composed.attachments.length > 0) {
      const describe = describeDelivery(messageId, composed.attachments, null);
      await tx.query(describe.text, describe.values);
    }
    const finish = finishJob(job, runtime.now());
    await tx.query(finish.text, finish.values);
    return { jobId: job.id, kind: job.kind, outcome: 'queued', messageId };
  });
}
