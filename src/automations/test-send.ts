/**
 * A test-send: the message a template (or its draft) makes for a booking, rendered as the preview renders it, sent
 * through the server's mailer — the one real sends use: SMTP when `SMTP_URL` is set, else the outbox folder — to the
 * signed-in user's own address only, never to the guest, with the subject marked "[Test]". Nothing is stored in
 * `messages`: a test is not a message to the guest.
 *
 * Only a dashboard session has a user to send to; an API key is refused (403 SK687) rather than sent to an address
 * the caller names, so the route cannot mail anyone else. Each user may send `TEST_SENDS_PER_WINDOW` tests per
 * `WINDOW_SECONDS` within an organization (429 SK429), counted in the database (migration 0237), so every server
 * process counts the same tests: it guards a user's own mailbox and the mail server's reputation from a stuck button,
 * not the API from abuse (the request limits do that).
 */
import { randomUUID } from 'node:crypto';
import type { Principal } from '../auth/principal.js';
import type { Database } from '../db/types.js';
import { apiError } from '../errors/registry.js';
import { rateLimited } from '../limits/errors.js';
import type { TemplatePreviewRequest, TemplateTestSent } from './bodies.js';
import type { Mailer } from './mailer.js';
import { renderPreview, type PreviewDeps } from './preview.js';
import { fromHeader } from './runtime.js';

export const TEST_SENDS_PER_WINDOW = 10;
const WINDOW_SECONDS = 600;
const POLICY = 'template-test-send';

export interface TestSendDeps extends PreviewDeps {
  emailFrom: string;
  /** The process's mailer, made when the first test is sent. */
  mailer: () => Mailer;
}

export type TestSender = (principal: Principal, request: TemplatePreviewRequest) => Promise<TemplateTestSent>;

/** Records a test-send of the user now, or answers the seconds until they may send again (migration 0237). */
async function takeTestSend(deps: TestSendDeps, organizationId: string, userId: string): Promise<number | null> {
  return deps.db.transaction(async (tx) => {
    const { rows } = await tx.query<{ wait: number | null }>(
      'SELECT staykit_internal.take_template_test_send($1, $2, $3, $4, $5) AS wait',
      [organizationId, userId, deps.now().toISOString(), TEST_SENDS_PER_WINDOW, WINDOW_SECONDS]);
    return rows[0]?.wait ?? null;
  });
}

async function userEmail(db: Database, userId: string): Promise<string | undefined> {
  const { rows } = await db.query<{ email: string }>('SELECT email FROM staykit_internal.users WHERE id = $1', [userId]);
  return rows[0]?.email;
}

export function testSender(deps: TestSendDeps): TestSender {
  return async (principal, request) => {
    const { userId } = principal;
    const to = userId === undefined ? undefined : await userEmail(deps.db, userId);
    if (userId === undefined || to === undefined) throw apiError('SK687');
    const wait = await takeTestSend(deps, principal.organizationId, userId);
    if (wait !== null) throw rateLimited(POLICY, wait, {});
    const { record, message } = await renderPreview(deps, principal, request);
    const subject = `[Test] ${message.subject}`;
    const outcome = await deps.mailer().send({
      messageId: `<test-${randomUUID()}@staykit>`,
      from: fromHeader(deps.emailFrom, record.organization.name),
      replyTo: undefined,
      to,
      subject,
      text: message.body,
      html: message.html,
      attachments: message.attachments,
    });
    if (outcome.kind !== 'sent') throw apiError('SK688', { params: { message: outcome.response } });
    return { to, subject };
  };
}
