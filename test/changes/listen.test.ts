import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { forEachBackend } from '../support/databases.js';
import { createOrganization, startApp, type TestOrganization } from '../support/app.js';
import { listen } from '../../src/changes/listen.js';
import { generateSigningSecret } from '../../src/webhooks/signature.js';
import { settled } from './support.js';
import { createContact, startReceiver, StandardWebhooks, waitFor, type Receiver } from '../webhooks/support.js';

forEachBackend('webhooks listen', (ctx) => {
  let app: FastifyInstance;
  let server: string;
  let org: TestOrganization;
  let receiver: Receiver;

  before(async () => {
    app = await startApp(ctx.db);
    await app.listen({ port: 0, host: '127.0.0.1' });
    server = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    org = await createOrganization(ctx.db, 'Listener');
    receiver = await startReceiver();
  });
  after(async () => {
    await receiver?.close();
    await app?.close();
  });

  it('forwards only new changes, signed so that the standardwebhooks package verifies them', async () => {
    assert.ok(StandardWebhooks, 'the standardwebhooks package is installed');
    await createContact(ctx.db, org.id, 'Before listening');
    await settled(ctx.db);
    receiver.secret = generateSigningSecret();
    const controller = new AbortController();
    const lines: string[] = [];
    const running = listen({ server, key: org.key, forward: receiver.url, secret: receiver.secret, signal: controller.signal, pollIntervalMs: 20, log: (line) => lines.push(line) });
    try {
      await waitFor(async () => lines.includes('Ready: forwarding new changes'), 10_000, 'listener ready');
      const contact = await createContact(ctx.db, org.id, 'While listening');
      await waitFor(async () => lines.some((line) => line.startsWith('contacts.created ')), 60_000, 'one forwarded change');
      const [receipt] = receiver.receipts;
      assert.equal(receipt?.verified, true);
      assert.equal(receipt?.libraryVerified, true);
      const body = JSON.parse(receipt!.body) as { event_type: string; payload: { id: string; data: { first_name: string } } };
      assert.equal(body.event_type, 'contacts.created');
      assert.equal(body.payload.id, contact);
      assert.equal(body.payload.data.first_name, 'While listening');
    } finally {
      controller.abort();
      await running;
    }
    assert.equal(receiver.receipts.length, 1, 'the change made before listening was not forwarded');
    assert.ok(lines.some((line) => line.startsWith('contacts.created ') && line.endsWith('→ 204')), lines.join('\n'));
  });
});
