/**
 * A task notification job: e-mail the assignee of an open task that it is due soon (the job is due 24 hours
 * before the task, migration 0110). The message is queued like any other and linked to the task's booking; once
 * it is sent, the task's `notification_sent_at` is set (deliver.ts).
 */
import { describeDelivery, finishJob, holdJob, insertMessage, type ClaimedJob } from './queries.js';
import type { AutomationRuntime, JobReport } from './runtime.js';
import type { MultiLanguageString } from './context.js';
import { localized } from './variables.js';

interface TaskRow {
  label: string;
  due_at: string;
  completed_at: string | null;
  assignee_name: string | null;
  assignee_email: string | null;
  assignee_active: boolean | null;
  product_name: MultiLanguageString;
  timezone: string;
  booking_id: string | null;
  reference: string | null;
  start_date: string;
  end_date: string;
  language: string;
}

const TASK = `
  SELECT t.label, t.due_at, t.completed_at, m.name AS assignee_name, m.email AS assignee_email,
         m.active AS assignee_active, p.name AS product_name, p.timezone, e.booking_id, b.reference,
         e.start_date::text AS start_date, e.end_date::text AS end_date, o.language
  FROM api.calendar_event_tasks AS t
  JOIN api.calendar_events AS e ON e.id = t.calendar_event_id AND e.organization_id = t.organization_id
  JOIN api.products AS p ON p.id = e.product_id AND p.organization_id = e.organization_id
  JOIN api.organizations AS o ON o.id = t.organization_id
  LEFT JOIN api.members AS m ON m.id = t.assignee_id AND m.organization_id = t.organization_id
  LEFT JOIN api.bookings AS b ON b.id = e.booking_id AND b.organization_id = e.organization_id
  WHERE t.id = $1 AND t.organization_id = $2`;

function localTime(at: Date, timeZone: string, language: string): string {
  const options: Intl.DateTimeFormatOptions = { dateStyle: 'full', timeStyle: 'short', timeZone };
  try {
    return new Intl.DateTimeFormat(language, options).format(at);
  } catch {
    return new Intl.DateTimeFormat('en', options).format(at);
  }
}

export async function runTaskNotificationJob(job: ClaimedJob, runtime: AutomationRuntime): Promise<JobReport> {
  return runtime.db.transaction(async (tx) => {
    const hold = holdJob(job);
    if ((await tx.query(hold.text, hold.values)).rows.length === 0) return { jobId: job.id, kind: job.kind, outcome: 'lost' };
    const task = (await tx.query<TaskRow>(TASK, [job.calendar_event_task_id, job.organization_id])).rows[0];
    const finish = finishJob(job, runtime.now());
    if (!task || task.completed_at !== null || !task.assignee_email || task.assignee_active === false) {
      await tx.query(finish.text, finish.values);
      return { jobId: job.id, kind: job.kind, outcome: 'skipped', detail: 'no open task with an assignee who has an e-mail address' };
    }
    const unit = localized(task.product_name, task.language);
    const due = localTime(new Date(task.due_at), task.timezone, task.language);
    const booking = task.reference ? `Booking ${task.reference}: ${task.start_date} to ${task.end_date}.\n` : '';
    const insert = insertMessage(job.organization_id, {
      to_address: task.assignee_email,
      from_address: null,
      subject: `Task due ${due}: ${task.label} (${unit})`,
      body: `Hello ${task.assignee_name ?? ''},\n\n"${task.label}" at ${unit} is due ${due} (${task.timezone}).\n${booking}`,
      booking_id: task.booking_id,
      contact_id: null,
      message_template_id: null,
    });
    const messageId = (await tx.query<{ id: string }>(insert.text, insert.values)).rows[0]!.id;
    const describe = describeDelivery(messageId, [], job.calendar_event_task_id);
    await tx.query(describe.text, describe.values);
    await tx.query(finish.text, finish.values);
    return { jobId: job.id, kind: job.kind, outcome: 'queued', messageId };
  });
}
