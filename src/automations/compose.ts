/**
 * A template and a booking → the message: subject and body rendered in the guest's language, as text and as HTML
 * (with the organization's logo and colour, and the unit's cover photo when `include_product_image`, as the record carries them), and the attachments
 * (the template's files, and the stay as `.ics` with `include_ical_data`). Shared by the scheduler's template jobs
 * and the preview endpoint, so a preview is exactly what would be sent. Runs in a compute thread (render-tasks.ts).
 */
import type { BookingRecord } from './context.js';
import { stayCalendar } from '../ical/stay.js';
import { guestLanguage, guestVisibleAddress, localized } from './variables.js';
import type { MailAttachment } from './mailer.js';
import { renderMessage, type RenderedMessage, type TemplateContent } from './render.js';
import type { StoredTemplate } from './template-queries.js';
import { renderHtmlEmail } from './html-email.js';

const isBlank = (text: StoredTemplate['email_subject']): boolean =>
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

export interface ComposedMessage extends Omit<RenderedMessage, 'parts'> {
  /** The HTML alternative (html-email.ts). */
  html: string;
  attachments: MailAttachment[];
}

/** Throws liquidjs's error when the template does not render (only possible for one written around the API). */
export async function composeMessage(template: StoredTemplate, record: BookingRecord, publicUrl: string, now: Date): Promise<ComposedMessage> {
  const { parts, ...rendered } = renderMessage(contentOf(template), record, publicUrl);
  const base = publicUrl.replace(/\/$/, '');
  const html = await renderHtmlEmail({
    language: rendered.language, subject: rendered.subject, organization: record.organization.name, ...parts,
    cover: template.include_product_image && record.cover ? { photo: record.cover, base } : null,
    brand: { color: record.organization.brand_color ?? null, logo: record.logo ? { image: record.logo, base } : null },
  });
  const attachments: MailAttachment[] = (template.attachments ?? []).map((file) => ({
    filename: file.filename, contentType: file.content_type ?? 'application/octet-stream', content: file.content.replace(/\s+/g, ''),
  }));
  if (template.include_ical_data) {
    attachments.push({
      filename: `booking-${record.booking.reference}.ics`,
      contentType: 'text/calendar; charset=utf-8; method=PUBLISH',
      content: Buffer.from(stayCalendar({
        bookingId: record.booking.id, reference: record.booking.reference, start: record.event.start_date, end: record.event.end_date,
        title: localized(record.product.name, guestLanguage(record)), location: guestVisibleAddress(record), status: record.event.status,
      }, now), 'utf8').toString('base64'),
    });
  }
  return { ...rendered, html, attachments };
}
