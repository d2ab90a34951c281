/**
 * What a template preview and a test-send render (routes.ts): the stored template, or a draft of an e-mail template
 * (its unsaved fields over the stored ones, or a new template), for one booking, in the compute pool.
 *
 * What it shows is derived from the booking's record — its stay, unit, guest, lines and form values — so it needs the
 * read scope of every table that record is read from (`BOOKING_RECORD_TABLES`) and of the template's table: a key that
 * may not read contacts sees no guest's address through a preview. The unit's cover photo comes from `media`, so it is
 * shown only to a caller that may read media. A draft is checked as a save checks it (400 SK680, SK681, SK686), so
 * an editor shows the same refusal, on the same field, before saving. The reads run as the principal in its tenant
 * transaction, so row policies hold too.
 */
import { requireReadScopes } from '../auth/authorize.js';
import type { Principal } from '../auth/principal.js';
import { hasScope } from '../auth/scopes.js';
import type { ComputePool } from '../compute/pool.js';
import type { Database } from '../db/types.js';
import { invalidBody, notFound } from '../errors/catalogue.js';
import { apiError } from '../errors/registry.js';
import { inTenantTransaction } from '../transaction/tenant-transaction.js';
import type { TemplateDraft, TemplatePreviewRequest } from './bodies.js';
import type { ComposedMessage } from './compose.js';
import { BOOKING_RECORD_TABLES, loadBookingRecord, loadOrganizationLogo, loadProductCover, type BookingRecord } from './context.js';
import { composeMessage } from './rendering.js';
import { checkTemplateRows } from './template-check.js';
import { loadTemplate, type StoredTemplate } from './template-queries.js';
import { previewedPaymentId } from './variables.js';

export interface PreviewDeps {
  db: Database;
  compute: ComputePool;
  publicUrl: string;
  now: () => Date;
}

export interface RenderedPreview {
  record: BookingRecord;
  message: ComposedMessage;
}

/** A new template's fields before its draft fills them in (the columns' defaults). */
const NEW_TEMPLATE: StoredTemplate = {
  email_subject: { default: '' }, email_body: { default: '' }, message_subject: null, message_body: null,
  include_booking_details: true, include_booking_link: true, include_ical_data: false, include_product_image: false,
  attachments: [], status: null,
};

/** `template` with the draft's fields in place of its e-mail template's. */
function withDraft(template: StoredTemplate, draft: TemplateDraft): StoredTemplate {
  return {
    ...template,
    email_subject: draft.subject ?? template.email_subject,
    email_body: draft.body ?? template.email_body,
    include_booking_details: draft.include_booking_details ?? template.include_booking_details,
    include_booking_link: draft.include_booking_link ?? template.include_booking_link,
    include_ical_data: draft.include_ical_data ?? template.include_ical_data,
    include_product_image: draft.include_product_image ?? template.include_product_image,
    attachments: draft.attachments ?? template.attachments,
  };
}

export async function renderPreview(deps: PreviewDeps, principal: Principal, request: TemplatePreviewRequest): Promise<RenderedPreview> {
  const { db, compute } = deps;
  const bookingId = request.booking_id.toLowerCase();
  const emailTemplateId = request.email_template_id?.toLowerCase() ?? null;
  const messageTemplateId = request.message_template_id?.toLowerCase() ?? null;
  const draft = request.draft;
  if (messageTemplateId !== null && (emailTemplateId !== null || draft !== undefined)) {
    throw invalidBody('Give exactly one of "email_template_id" and "message_template_id" (a "draft" is of an e-mail template)');
  }
  if (messageTemplateId === null && emailTemplateId === null && draft === undefined) {
    throw invalidBody('Give "email_template_id", "message_template_id" or a "draft"');
  }
  requireReadScopes(principal, [messageTemplateId ? 'message_templates' : 'email_templates', ...BOOKING_RECORD_TABLES]);
  if (draft) await checkTemplateRows(compute, principal.organizationId, [draft]);
  const { found, stored } = await inTenantTransaction(db, principal, async (tx) => ({
    result: {
      found: await loadBookingRecord(tx, principal.organizationId, bookingId),
      stored: emailTemplateId || messageTemplateId ? await loadTemplate(tx, principal.organizationId, emailTemplateId, messageTemplateId) : NEW_TEMPLATE,
    },
    rollback: true,
  }));
  if (!found) throw notFound(`No booking ${bookingId}`);
  if (!stored) throw notFound(`No template ${emailTemplateId ?? messageTemplateId}`);
  // The cover and the logo are read by internal functions (migrations 0232, 0235) on the server's connection, for the
  // unit and organization the principal has just read, and only when it may read media.
  const mayReadMedia = hasScope(principal.scopes, 'media', 'read');
  const cover = mayReadMedia ? await loadProductCover(db, principal.organizationId, found.product.id) : null;
  const logo = mayReadMedia ? await loadOrganizationLogo(db, principal.organizationId) : null;
  const template = draft ? withDraft(stored, draft) : stored;
  const record: BookingRecord = { ...found, cover, logo, payment_id: previewedPaymentId(found, template.trigger) };
  const rendered = await composeMessage(compute, template, record, deps.publicUrl, deps.now());
  if ('problem' in rendered) throw apiError('SK680', { params: { field: 'The template', message: rendered.problem } });
  return { record, message: rendered.message };
}
