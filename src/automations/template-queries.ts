/**
 * The template a job or a preview renders: an e-mail template and/or a message template, read by id on the server's
 * connection, scoped by the organization given.
 */
import type { Queryable } from '../db/types.js';
import type { MultiLanguageString } from './context.js';

/** An entry of `email_templates.attachments` (checked when the template is saved). */
export interface TemplateAttachment {
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
  include_product_image: boolean | null;
  attachments: TemplateAttachment[] | null;
  /** The booking status the template is for (its e-mail template's; CONFIRMED without one). */
  status: string | null;
  /** Its e-mail template's trigger: a preview of a receipt shows the last payment received (variables.ts). */
  trigger?: string | null;
}

const TEMPLATE = `
  SELECT e.subject AS email_subject, e.body AS email_body, m.subject AS message_subject, m.body AS message_body,
         e.include_booking_details, e.include_booking_link, e.include_ical_data, e.include_product_image,
         e.attachments, e.status, e.trigger
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
