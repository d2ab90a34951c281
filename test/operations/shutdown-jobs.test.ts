/**
 * SIGTERM lets the background work in flight finish (issue: operations): `staykit serve` is told to stop while it is
 * sending an e-mail (the SMTP server holds the message before answering). It keeps running until the server has
 * answered, records the message as sent, and only then exits 0 — the guest gets the e-mail once, and it is not sent
 * again when the server starts next.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BACKENDS, createTestDatabase, type TestDatabase } from '../support/databases.js';
import { startServerProcess, type ServerProcess } from '../support/server-process.js';
import { staykit } from '../support/staykit-cli.js';
import { startSmtpServer, type TestSmtpServer } from '../automations/support.js';

for (const backend of BACKENDS) {
  describe(`SIGTERM while an e-mail is being sent [${backend}]`, () => {
    let dataDir: string;
    let testDb: TestDatabase | undefined;
    let smtp: TestSmtpServer;
    let env: Record<string, string>;
    let key: string;
    let server: ServerProcess | undefined;

    before(async () => {
      dataDir = await mkdtemp(join(tmpdir(), `staykit-shutdown-${backend}-`));
      smtp = await startSmtpServer();
      env = { DATA_DIR: dataDir, DATABASE_URL: '', STAYKIT_WORKER: 'embedded', STAYKIT_WORKER_POLL_INTERVAL: '1' };
      if (backend === 'postgres') {
        testDb = await createTestDatabase('postgres');
        await testDb.db.close();
        env.DATABASE_URL = testDb.url!;
      }
      // An organization of its own (so the embedded start does not seed the demo).
      const created = await staykit(['org', 'create', '--name', 'Seaside Rentals'], env);
      assert.equal(created.code, 0, created.stderr);
      key = (JSON.parse(created.stdout) as { api_key: string }).api_key;
    });
    after(async () => {
      await server?.stop('SIGKILL');
      await smtp.close();
      await testDb?.drop().catch(() => undefined);
      await rm(dataDir, { recursive: true, force: true });
    });

    const api = async <T>(method: string, path: string, body?: unknown) => {
      const response = await fetch(`${server!.url}${path}`, {
        method,
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', prefer: 'return=representation' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: response.status, body: await response.json() as T };
    };

    it('finishes the send, records it, then exits 0: sent once, nothing left to send again', async () => {
      server = await startServerProcess({ ...env, SMTP_URL: smtp.url });
      smtp.answers.push('hold');
      const arrived = smtp.nextData();
      const queued = await api<{ id: string }[]>('POST', '/v1/messages', { to_address: 'guest@example.com', subject: 'Your keys', body: 'Under the mat.' });
      assert.equal(queued.status, 201, JSON.stringify(queued.body));
      await arrived;

      const exited = once(server.child, 'exit');
      server.child.kill('SIGTERM');
      // The server waits for the mail server's answer: still running a moment after the signal.
      await new Promise((resolve) => setTimeout(resolve, 500));
      assert.equal(server.child.exitCode, null, 'still finishing the send');
      smtp.release();
      const [code] = await exited;
      assert.equal(code, 0, server.output());
      assert.equal(smtp.received.length, 1, 'the e-mail was accepted once');

      server = await startServerProcess({ ...env, SMTP_URL: smtp.url });
      const { body: [message] } = await api<{ status: string; message_events: { type: string }[] }[]>(
        'GET', `/v1/messages?id=eq.${queued.body[0]!.id}&select=status,message_events(type)&message_events.order=created_at`);
      assert.equal(message!.status, 'sent', 'recorded before the exit');
      assert.deepEqual(message!.message_events.map((event) => event.type), ['queued', 'sent'], 'one send, nothing left to retry');
    });
  });
}
