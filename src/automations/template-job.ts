/**
 * A template job: render an e-mail template for a booking and queue the message — in one transaction with the
 * job's end, so a message is queued exactly once per job. Checked again at run time: the booking still exists and
 * is not silent, a scheduled send's booking still has the template's status, the guest has an e-mail address.
 * What is skipped is recorded on the job (`last_error`) and logged.
 */
import type { Transaction } from '../db/types.js';
import { loadBookingRecord, type MultiLanguageString } from './context.js';
import { bookingIcs } from './ics.js';
import type { MailAttachment } from './mailer.js';
import { describeDelivery, finishJob, holdJob, insertMessage, type ClaimedJob } from './queries.js';
import { renderMessage, type TemplateContent } from './render.js';
import type { AutomationRuntime, JobReport } from './runtime.js';

interface TemplateRow {
  email_subject: MultiLanguageString | null;
  email_body: MultiLanguageString | null;
  message_subject: MultiLanguageString | null;
  message_body: MultiLanguageString | null;
  include_booking_details: boolean | null;
  include_booking_link: boolean | null;
  include_ical_data: boolean | null;
  attachments: TemplateAttachment[] | null;
  status: string | null;
  found: boolean;
}

/** An entry of `email_templates.attachments` (checked when the template is saved). */
export interface TemplateAttachment {
  filename: string;
  content_type?: string;
  content: string;
}

const TEMPLATE = `
  SELECT e.subject AS email_subject, e.body AS email_body, m.subject AS message_subject, m.body AS message_body,
         e.include_booking_details, e.include_booking_link, e.include_ical_data, e.attachments, e.status,
         (e.id IS NOT NULL OR m.id IS NOT NULL) AS found
  FROM (SELECT 1) AS one
  LEFT JOIN api.email_templates AS e ON e.id = $1 AND e.organization_id = $3
  LEFT JOIN api.message_templates AS m ON m.id = $2 AND m.organization_id = $3`;

const isBlank = (text: MultiLanguageString | null): boolean =>
  !text || Object.values(text).every((value) => value.trim() === '');

/** A message template's own subject and body unless blank, else its e-mail template's; the e-mail template's flags. */
function contentOf(row: TemplateRow): TemplateContent {
  return {
    subject: (isBlank(row.message_subject) ? row.email_subject : row.message_subject) ?? { default: '' },
    body: (isBlank(row.message_body) ? row.email_body : row.message_body) ?? { default: '' },
    include_booking_details: row.include_booking_details ?? false,
    include_booking_link: row.include_booking_link ?? false,
  };
}

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
    const { rows } = await tx.query<TemplateRow>(TEMPLATE, [job.email_template_id, job.message_template_id, job.organization_id]);
    const template = rows[0];
    if (!template?.found) return skip(tx, job, runtime, 'the template no longer exists');
    if (record.booking.silent) return skip(tx, job, runtime, 'the booking is silent');
    const status = template.status ?? 'CONFIRMED';
    if (job.trigger === 'moment' && record.event.status !== status) {
      return skip(tx, job, runtime, `the booking is ${record.event.status}, the template is for ${status} bookings`);
    }
    const to = record.contact?.email;
    if (!to) return skip(tx, job, runtime, 'the guest has no e-mail address');

    let rendered;
    try {
      rendered = renderMessage(contentOf(template), record, runtime.publicUrl);
    } catch (error) {
      return skip(tx, job, runtime, `the template does not render: ${(error as Error).message}`);
    }
    const attachments: MailAttachment[] = (template.attachments ?? []).map((file) => ({
      filename: file.filename, contentType: file.content_type ?? 'application/octet-stream', content: file.content,
    }));
    if (template.include_ical_data) {
      attachments.push({
        filename: `booking-${record.booking.reference}.ics`,
        contentType: 'text/calendar; charset=utf-8; method=PUBLISH',
        content: Buffer.from(bookingIcs(record, runtime.now()), 'utf8').toString('base64'),
      });
    }
    const insert = insertMessage(job.organization_id, {
      to_address: to, from_address: null, subject: rendered.subject, body: rendered.body, booking_id: record.booking.id,
      contact_id: record.contact?.id ?? null, message_template_id: job.message_template_id,
    });
    const messageId = (await tx.query<{ id: string }>(insert.text, insert.values)).rows[0]!.id;
    if (attachments.length > 0) {
      const describe = describeDelivery(messageId, attachments, null);
      await tx.query(describe.text, describe.values);
    }
    const finish = finishJob(job, runtime.now());
    await tx.query(finish.text, finish.values);
    return { jobId: job.id, kind: job.kind, outcome: 'queued', messageId };
  });
}
