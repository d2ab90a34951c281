/**
 * `POST /v1/template-preview` `{booking_id, email_template_id | message_template_id}` → 200 `{to, from, reply_to,
 * language, subject, body, attachments: [{filename, content_type, size}]}`: the message the template would send for
 * that booking, rendered now (in the compute pool) and sent nowhere.
 *
 * What a preview shows is derived from the booking's record — its stay, unit, guest, lines and form values — so it
 * needs the read scope of every table that record is read from (`BOOKING_RECORD_TABLES`) and of the template's
 * table: a key that may not read contacts sees no guest's address through a preview. The request is authenticated
 * before its body is looked at; the reads run as the principal in its tenant transaction, so row policies hold too.
 */
import type { FastifyPluginAsync } from 'fastify';
import { requireReadScopes, type Authorize } from '../auth/authorize.js';
import type { ComputePool } from '../compute/pool.js';
import type { Config } from '../config.js';
import type { Database } from '../db/types.js';
import { invalidBody, notFound } from '../errors/catalogue.js';
import { refuseOtherMethods } from '../common/other-methods.js';
import { apiError } from '../errors/registry.js';
import { inTenantTransaction } from '../transaction/tenant-transaction.js';
import { BOOKING_RECORD_TABLES, loadBookingRecord } from './context.js';
import { composeMessage } from './rendering.js';
import { fromHeader, namedAddress } from './runtime.js';
import { loadTemplate } from './template-queries.js';
import { templatePreview, type TemplatePreview } from './bodies.js';
import { registerRoute } from '../routing/route-schema.js';

export interface AutomationRouteDeps {
  db: Database;
  authorize: Authorize;
  config: Pick<Config, 'emailFrom' | 'publicUrl'>;
  now?: () => Date;
  compute: ComputePool;
}

export const automationRoutes: FastifyPluginAsync<AutomationRouteDeps> = async (app, deps) => {
  const { db, authorize, config, compute } = deps;
  const now = deps.now ?? (() => new Date());

  // Only POST: any other method is a 405 naming it, as for the resources (before its body is read).
  refuseOtherMethods(app, '/template-preview', ['POST']);

  registerRoute(app, templatePreview, authorize, async (request, reply, principal) => {
    const bookingId = request.body.booking_id.toLowerCase();
    const emailTemplateId = request.body.email_template_id?.toLowerCase() ?? null;
    const messageTemplateId = request.body.message_template_id?.toLowerCase() ?? null;
    if ((emailTemplateId === null) === (messageTemplateId === null)) {
      throw invalidBody('Give exactly one of "email_template_id" and "message_template_id"');
    }
    const templateTables = messageTemplateId ? ['message_templates'] : ['email_templates'];
    requireReadScopes(principal, [...templateTables, ...BOOKING_RECORD_TABLES]);
    const { record, template } = await inTenantTransaction(db, principal, async (tx) => ({
      result: {
        record: await loadBookingRecord(tx, principal.organizationId, bookingId),
        template: await loadTemplate(tx, principal.organizationId, emailTemplateId, messageTemplateId),
      },
      rollback: true,
    }));
    if (!record) throw notFound(`No booking ${bookingId}`);
    if (!template) throw notFound(`No template ${emailTemplateId ?? messageTemplateId}`);
    const rendered = await composeMessage(compute, template, record, config.publicUrl, now());
    if ('problem' in rendered) throw apiError('SK680', { params: { field: 'The template', message: rendered.problem } });
    const composed = rendered.message;
    const preview: TemplatePreview = {
      to: record.contact?.email ?? null,
      from: fromHeader(config.emailFrom, record.organization.name),
      reply_to: record.reply_to ? namedAddress(record.reply_to.name, record.reply_to.email) : null,
      language: composed.language,
      subject: composed.subject,
      body: composed.body,
      attachments: composed.attachments.map((file) => ({
        filename: file.filename, content_type: file.contentType, size: Buffer.from(file.content, 'base64').length,
      })),
    };
    return reply.send(preview);
  });
};
