/**
 * Inviting a member from the dashboard (issue: a first real day, item 3): the member the organization added gets an
 * e-mail with a one-time link to choose a password, through the server's mailer; the link logs them in as that
 * member (no second member for the same person). Only a session that may write members invites, with its CSRF token,
 * never above its own role; a member who cannot log in this way is refused saying why; a mail server that does not
 * take the message is a 502.
 */
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { loadConfig } from '../../src/config.js';
import { forEachBackend } from '../support/databases.js';
import { createOrganization, startApp } from '../support/app.js';
import { fixtures } from '../support/fixtures.js';
import { startSmtpServer, type TestSmtpServer } from '../automations/support.js';
import { createUser, login, type Session } from './support.js';

forEachBackend('inviting members from the dashboard', (ctx) => {
  let dataDir: string;
  let app: FastifyInstance;
  let org: { id: string; key: string };
  let owner: Session;
  let smtp: TestSmtpServer;

  const member = async (name: string, email: string | null, role = 'cleaner') =>
    fixtures(ctx.db, org.id).member({ name, email, role });
  const invite = (session: Session, memberId: string, csrf = session.csrf, on = app) =>
    on.inject({ method: 'POST', url: '/admin/api/invitations', headers: { cookie: session.cookie, 'x-csrf-token': csrf }, payload: { member_id: memberId } });

  before(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'staykit-invitations-'));
    smtp = await startSmtpServer();
    app = await startApp(ctx.db, { config: loadConfig({ DATA_DIR: dataDir, STAYKIT_PUBLIC_URL: 'https://stays.example.com', STAYKIT_EMAIL_FROM: 'team@stays.example.com' }) });
    org = await createOrganization(ctx.db, 'Inviting Rentals');
    const user = await createUser(ctx.db, org.id, 'olivia@example.com', { role: 'owner' });
    owner = await login(app, user.email, user.password);
  });
  after(async () => {
    await app.close();
    await smtp.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('e-mails the member a link that lets them choose a password and log in as that member', async () => {
    const cleo = await member('Cleo de Vries', 'cleo@example.com');
    const sent = await invite(owner, cleo);
    assert.equal(sent.statusCode, 201, sent.body);
    assert.deepEqual(sent.json(), { member_id: cleo, email: 'cleo@example.com', sent: true });
    assert.doesNotMatch(sent.body, /token|set-password/, 'the link is the member\'s, not the inviter\'s');

    const files = (await readdir(join(dataDir, 'outbox'))).filter((name) => name.endsWith('.eml'));
    assert.equal(files.length, 1);
    const mail = (await readFile(join(dataDir, 'outbox', files[0]!), 'utf8')).replace(/=\r?\n/g, '').replace(/=3D/g, '=');
    assert.match(mail, /^To: "?Cleo de Vries"? <cleo@example\.com>/m);
    assert.match(mail, /invites you to Inviting Rentals on Staykit/);
    const token = /https:\/\/stays\.example\.com\/admin\/set-password\?token=([A-Za-z0-9_-]+)/.exec(mail)?.[1];
    assert.ok(token, mail);
    const set = await app.inject({ method: 'POST', url: '/auth/set-password', payload: { token, password: 'sand dunes at low tide' } });
    assert.equal(set.statusCode, 200, set.body);
    const session = await login(app, 'cleo@example.com', 'sand dunes at low tide');
    assert.equal((await app.inject({ method: 'GET', url: '/auth/session', headers: { cookie: session.cookie } })).json().member.id, cleo);
    const { rows } = await ctx.db.query('SELECT id FROM api.members WHERE organization_id = $1 AND email = $2', [org.id, 'cleo@example.com']);
    assert.equal(rows.length, 1, 'the same member, not a second one');

    const again = await invite(owner, cleo);
    assert.equal(again.statusCode, 409, again.body);
    assert.equal(again.json().code, 'SK709');
  });

  it('needs the CSRF token, members:write, and a member of the inviter\'s rank or below', async () => {
    const dan = await member('Dan', 'dan@example.com', 'admin');
    assert.equal((await invite(owner, dan, 'wrong')).statusCode, 403);
    const staff = await createUser(ctx.db, org.id, 'sam@example.com', { role: 'staff', permissions: [{ resource: 'members', access: 'write' }] });
    const staffSession = await login(app, staff.email, staff.password);
    const above = await invite(staffSession, dan);
    assert.equal(above.statusCode, 403, above.body);
    assert.equal(above.json().code, 'SK708');
    const reader = await createUser(ctx.db, org.id, 'rita@example.com', { role: 'staff', permissions: [{ resource: 'members', access: 'read' }] });
    const readerSession = await login(app, reader.email, reader.password);
    assert.equal((await invite(readerSession, await member('Eve', 'eve@example.com'))).statusCode, 403);
    const noEmail = await invite(owner, await member('Finn', null));
    assert.deepEqual([noEmail.statusCode, noEmail.json().code], [409, 'SK709']);
  });

  it('answers 502 when the mail server does not take the invitation', async () => {
    const smtpApp = await startApp(ctx.db, { config: loadConfig({ DATA_DIR: dataDir, SMTP_URL: smtp.url }) });
    try {
      const session = await login(smtpApp, 'olivia@example.com', 'correct horse battery staple');
      smtp.answers.push({ code: 550, message: 'No such mailbox' });
      const refused = await invite(session, await member('Gina', 'gina@example.com'), session.csrf, smtpApp);
      assert.equal(refused.statusCode, 502, refused.body);
      assert.equal(refused.json().code, 'SK710');
    } finally {
      await smtpApp.close();
    }
  });
});
