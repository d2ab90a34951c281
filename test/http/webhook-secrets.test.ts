/**
 * Webhooks through the real app: the signing secret is shown once (creation or rotation) and never read back,
 * and an endpoint that can never be delivered to is refused up front.
 */
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { forEachBackend } from '../support/databases.js';
import { bearer, createOrganization, startApp, type TestOrganization } from '../support/app.js';
import { buildApp } from '../../src/http/app.js';
import { loadConfig } from '../../src/config.js';

forEachBackend('webhook signing secrets and endpoints', (ctx) => {
  let app: FastifyInstance;
  let org: TestOrganization;
  const headers = () => ({ ...bearer(org.key), 'content-type': 'application/json', prefer: 'return=representation' });

  before(async () => {
    app = await buildApp({ db: ctx.db, config: loadConfig({ STAYKIT_OUTBOUND_ALLOW_PRIVATE: 'true' }) });
    org = await createOrganization(ctx.db, 'Hooks');
  });
  after(() => app.close());

  const stored = async (id: string) =>
    (await ctx.db.query<{ signing_secret: string }>('SELECT signing_secret FROM api.webhooks WHERE id = $1', [id])).rows[0]!.signing_secret;

  it('returns a generated secret once, in the creating response only', async () => {
    const created = await app.inject({ method: 'POST', url: '/v1/webhooks', headers: headers(), payload: [
      { endpoint: 'http://127.0.0.1:9/a', events: ['bookings.created'] },
      { endpoint: 'http://127.0.0.1:9/b', events: ['*'], signing_secret: 'whsec_' + Buffer.alloc(32, 7).toString('base64') },
    ] });
    assert.equal(created.statusCode, 201, created.body);
    const rows = created.json() as { id: string; signing_secret: string }[];
    assert.match(rows[0]!.signing_secret, /^whsec_[A-Za-z0-9+/]{43}=$/);
    assert.equal(rows[1]!.signing_secret, 'whsec_' + Buffer.alloc(32, 7).toString('base64'));
    assert.equal(await stored(rows[0]!.id), rows[0]!.signing_secret);

    const listed = await app.inject({ method: 'GET', url: '/v1/webhooks?select=*', headers: bearer(org.key) });
    assert.equal(listed.statusCode, 200);
    assert.ok((listed.json() as Record<string, unknown>[]).every((row) => !('signing_secret' in row)));
    const asked = await app.inject({ method: 'GET', url: '/v1/webhooks?select=signing_secret', headers: bearer(org.key) });
    assert.ok(asked.statusCode >= 400 && asked.statusCode < 500, `explicitly asking is a client error, got ${asked.statusCode}`);
  });

  it('rotates on a PATCH to null and shows the new secret in that response', async () => {
    const created = await app.inject({ method: 'POST', url: '/v1/webhooks', headers: headers(), payload: { endpoint: 'http://127.0.0.1:9/c', events: ['*'] } });
    const [row] = created.json() as { id: string; signing_secret: string }[];
    const rotated = await app.inject({ method: 'PATCH', url: `/v1/webhooks?id=eq.${row!.id}`, headers: headers(), payload: { signing_secret: null } });
    assert.equal(rotated.statusCode, 200, rotated.body);
    const [after] = rotated.json() as { signing_secret: string }[];
    assert.match(after!.signing_secret, /^whsec_/);
    assert.notEqual(after!.signing_secret, row!.signing_secret);
    assert.equal(await stored(row!.id), after!.signing_secret);
  });

  it('refuses endpoints that can never be delivered to (http or private addresses) by default', async () => {
    const strict = await startApp(ctx.db);
    try {
      const response = await strict.inject({ method: 'POST', url: '/v1/webhooks', headers: headers(), payload: { endpoint: 'http://127.0.0.1/hook', events: ['*'] } });
      assert.equal(response.statusCode, 400);
      assert.equal(response.json().code, 'SK420');
    } finally {
      await strict.close();
    }
  });
});
