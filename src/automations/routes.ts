/**
 * `POST /v1/template-preview` `{booking_id, email_template_id | message_template_id, draft?}` → 200 `{to, from,
 * reply_to, language, subject, body, html, attachments: [{filename, content_type, size}]}`: the message the template
 * (or the draft of one being edited) would send for that booking, rendered now (in the compute pool) and sent nowhere.
 * `POST /v1/template-test-send` with the same body e-mails that message to the signed-in user (test-send.ts).
 * What both render and which scopes that needs: preview.ts. The request is authenticated before its body is looked at.
 */
import type { FastifyPluginAsync } from 'fastify';
import type { Authorize } from '../auth/authorize.js';
import type { ComputePool } from '../compute/pool.js';
import type { Config } from '../config.js';
import type { Database } from '../db/types.js';
import { refuseOtherMethods } from '../common/other-methods.js';
import { fromHeader, namedAddress } from './runtime.js';
import { templatePreview, templateTestSend, type TemplatePreview } from './bodies.js';
import { registerRoute } from '../routing/route-schema.js';
import { mailerFor, type Mailer } from './mailer.js';
import { renderPreview } from './preview.js';
import { testSender } from './test-send.js';

export interface AutomationRouteDeps {
  db: Database;
  authorize: Authorize;
  config: Pick<Config, 'emailFrom' | 'publicUrl' | 'smtpUrl' | 'dataDir' | 'dkim'>;
  now?: () => Date;
  compute: ComputePool;
}

export const automationRoutes: FastifyPluginAsync<AutomationRouteDeps> = async (app, deps) => {
  const { db, authorize, config, compute } = deps;
  const previewDeps = { db, compute, publicUrl: config.publicUrl, now: deps.now ?? (() => new Date()) };
  let mailer: Mailer | undefined;
  app.addHook('onClose', async () => mailer?.close());
  const sendTest = testSender({ ...previewDeps, emailFrom: config.emailFrom, mailer: () => (mailer ??= mailerFor(config)) });

  // Only POST: any other method is a 405 naming it, as for the resources (before its body is read).
  refuseOtherMethods(app, '/template-preview', ['POST']);
  refuseOtherMethods(app, '/template-test-send', ['POST']);

  registerRoute(app, templatePreview, authorize, async (request, reply, principal) => {
    const { record, message } = await renderPreview(previewDeps, principal, request.body);
    const preview: TemplatePreview = {
      to: record.contact?.email ?? null,
      from: fromHeader(config.emailFrom, record.organization.name),
      reply_to: record.reply_to ? namedAddress(record.reply_to.name, record.reply_to.email) : null,
      language: message.language,
      subject: message.subject,
      body: message.body,
      html: message.html,
      attachments: message.attachments.map((file) => ({
        filename: file.filename, content_type: file.contentType, size: Buffer.from(file.content, 'base64').length,
      })),
    };
    return reply.send(preview);
  });

  registerRoute(app, templateTestSend, authorize, async (request, reply, principal) => reply.send(await sendTest(principal, request.body)));
};
