/**
 * A template and a booking → the message: subject and body rendered in the guest's language, and the attachments
 * (the template's files, and the stay as `.ics` with `include_ical_data`). Shared by the scheduler's template jobs
 * and the preview endpoint, so a preview is exactly what would be sent.
 */
import type { Queryable } from '../db/types.js';
import type { BookingRecord, MultiLanguageString } from './context.js';
import { bookingIcs } from './ics.js';
import type { MailAttachment } from './mailer.js';
import { renderMessage, type RenderedMessage, type TemplateContent } from './render.js';

/** An entry of `email_templates.attachments` (checked when the template is saved). */
interface TemplateAttachment {
  filename: string;
  content_type?: string;
  content: string;
}

export interface StoredTemplate {
  email_subject: MultiLanguageString | null;
  email_body: MultiLanguageString | null;
  message_subject: MultiLanguageString | null;
  message_body: MultiLanguageString | null;
  include_booking_details: boolean | null;
  include_booking_link: boolean | null;
  include_ical_data: boolean | null;
  attachments: TemplateAttachment[] | null;
  /** The booking status the template is for (its e-mail template's; CONFIRMED without one). */
  status: string | null;
}

const TEMPLATE = `
  SELECT e.subject AS email_subject, e.body AS email_body, m.subject AS message_subject, m.body AS message_body,
         e.include_booking_details, e.include_booking_link, e.include_ical_data, e.attachments, e.status
  FROM (SELECT 1) AS one
  LEFT JOIN api.email_templates AS e ON e.id = $1 AND e.organization_id = $3
  LEFT JOIN api.message_templates AS m ON m.id = $2 AND m.organization_id = $3
  WHERE e.id IS NOT NULL OR m.id IS NOT NULL`;

/** The e-mail template and/or message template (their ids as a rule or a job names them), or undefined if gone. */
export async function loadTemplate(
  db: Queryable, organizationId: string, emailTemplateId: string | null, messageTemplateId: string | null,
): Promise<StoredTemplate | undefined> {
  const { rows } = await db.query<StoredTemplate>(TEMPLATE, [emailTemplateId, messageTemplateId, organizationId]);
  return rows[0];
}

const isBlank = (text: MultiLanguageString | null): boolean =>
  !text || Object.values(text).every((value) => value.trim() === '');

/** A message template's own subject and body unless blank, else its e-mail template's; the e-mail template's flags. */
function contentOf(template: StoredTemplate): TemplateContent {
  return {
    subject: (isBlank(template.message_subject) ? template.email_subject : template.message_subject) ?? { default: '' },
    body: (isBlank(template.message_body) ? template.email_body : template.message_body) ?? { default: '' },
    include_booking_details: template.include_booking_details ?? false,
    include_booking_link: template.include_booking_link ?? false,
  };
}

export interface ComposedMessage extends RenderedMessage {
  attachments: MailAttachment[];
}

/** Throws liquidjs's error when the template does not render (only possible for one written around the API). */
export async function composeMessage(template: StoredTemplate, record: BookingRecord, publicUrl: string, now: Date): Promise<ComposedMessage> {
  const rendered = await renderMessage(contentOf(template), record, publicUrl);
  const attachments: MailAttachment[] = (template.attachments ?? []).map((file) => ({
    filename: file.filename, contentType: file.content_type ?? 'application/octet-stream', content: file.content.replace(/\s+/g, ''),
  }));
  if (template.include_ical_data) {
    attachments.push({
      filename: `booking-${record.booking.reference}.ics`,
      contentType: 'text/calendar; charset=utf-8; method=PUBLISH',
      content: Buffer.from(bookingIcs(record, now), 'utf8').toString('base64'),
    });
  }
  return { ...rendered, attachments };
}
