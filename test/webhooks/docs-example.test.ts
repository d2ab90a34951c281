/**
 * The receiver example in docs/webhooks.md is real code: extracted from the document, it must accept real
 * deliveries and reject tampered ones.
 */
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { forEachBackend } from '../support/databases.js';
import { deliverDue } from '../../src/webhooks/worker.js';
import { signedHeaders } from '../../src/webhooks/signature.js';
import { createContact, createOrganization, createWebhook, startReceiver } from './support.js';

type Verify = (secret: string, rawBody: string | Buffer, headers: Record<string, string>) => unknown;

let dir: string;
let verifyStaykitWebhook: Verify;

before(async () => {
  const doc = await readFile(new URL('../../docs/webhooks.md', import.meta.url), 'utf8');
  const block = /<!-- receiver-example:start -->\s*```js\n([\s\S]*?)```\s*<!-- receiver-example:end -->/.exec(doc);
  assert.ok(block?.[1], 'docs/webhooks.md has the receiver example');
  dir = await mkdtemp(join(tmpdir(), 'staykit-docs-'));
  const file = join(dir, 'receiver.mjs');
  await writeFile(file, block[1]);
  ({ verifyStaykitWebhook } = (await import(pathToFileURL(file).href)) as { verifyStaykitWebhook: Verify });
});

after(async () => {
  await rm(dir, { recursive: true, force: true });
});

it('the documented receiver verifies signatures and rejects tampering', () => {
  const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
  const body = '{"id":"n1","date":1,"event_type":"bookings.created","payload":{"new":{},"old":null}}';
  const headers = signedHeaders(secret, 'n1', body);
  assert.deepEqual(verifyStaykitWebhook(secret, body, headers), JSON.parse(body));
  assert.deepEqual(verifyStaykitWebhook(secret, Buffer.from(body), headers), JSON.parse(body));
  assert.throws(() => verifyStaykitWebhook(secret, body.replace('n1', 'n2'), headers), /signature/);
  assert.throws(() => verifyStaykitWebhook('whsec_' + Buffer.alloc(32, 1).toString('base64'), body, headers), /signature/);
  const stale = signedHeaders(secret, 'n1', body, Math.floor(Date.now() / 1000) - 3600);
  assert.throws(() => verifyStaykitWebhook(secret, body, stale), /stale/);
});

forEachBackend('the documented receiver with real deliveries', (ctx) => {
  it('accepts what the worker sends', async () => {
    const bodies: { body: string; headers: Record<string, string> }[] = [];
    const receiver = await startReceiver(() => ({ status: 204 }));
    try {
      const org = await createOrganization(ctx.db);
      const hook = await createWebhook(ctx.db, org, receiver.url);
      await createContact(ctx.db, org, 'Zoë');
      await deliverDue(ctx.db, { webhookRetrySchedule: [0], outboundAllowPrivate: true });
      for (const receipt of receiver.receipts) {
        bodies.push({
          body: receipt.body,
          headers: { 'webhook-id': receipt.id, 'webhook-timestamp': receipt.timestamp, 'webhook-signature': receipt.signature },
        });
      }
      assert.equal(bodies.length, 1);
      const event = verifyStaykitWebhook(hook.signing_secret, bodies[0]!.body, bodies[0]!.headers) as { event_type: string; payload: { new: { first_name: string } } };
      assert.equal(event.event_type, 'contacts.created');
      assert.equal(event.payload.new.first_name, 'Zoë');
    } finally {
      await receiver.close();
    }
  });
});
