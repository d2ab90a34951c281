/**
 * Webhook writes through the real app: authentication and scopes come before the endpoint check (which resolves
 * host names) and before the server issues a signing secret; the check itself still applies to authorized writes.
 */
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { forEachBackend } from '../support/databases.js';
import { fixtures } from '../support/fixtures.js';
import { bearer, createKey, createOrganization, startApp, type TestOrganization } from '../support/app.js';

const JSON_HEADERS = { 'content-type': 'application/json' };
/** Refused by the endpoint check without any network: http, and a name that resolves to loopback. */
const HTTP_ENDPOINT = { endpoint: 'http://127.0.0.1/hook', events: ['*'] };
const RESOLVED_ENDPOINT = { endpoint: 'https://localhost/hook', events: ['*'] };

forEachBackend('webhook writes: authorization before the endpoint check', (ctx) => {
  let app: FastifyInstance;
  let org: TestOrganization;
  let webhookId: string;

  before(async () => {
    app = await startApp(ctx.db);
    org = await createOrganization(ctx.db, 'Hooks');
    webhookId = await fixtures(ctx.db, org.id).webhook({ endpoint: 'https://93.184.215.14/hook' });
  });
  after(() => app.close());

  const count = async () => Number((await ctx.db.query<{ n: string }>('SELECT count(*) AS n FROM api.webhooks')).rows[0]!.n);

  it('answers an unauthenticated POST or PATCH with 401, whatever the endpoint', async () => {
    const before = await count();
    for (const payload of [HTTP_ENDPOINT, RESOLVED_ENDPOINT, [RESOLVED_ENDPOINT]]) {
      const post = await app.inject({ method: 'POST', url: '/v1/webhooks', headers: JSON_HEADERS, payload });
      assert.equal(post.statusCode, 401, post.body);
      assert.equal(post.json().code, 'SK401');
      const patch = await app.inject({
        method: 'PATCH', url: `/v1/webhooks?id=eq.${webhookId}`, headers: JSON_HEADERS, payload: Array.isArray(payload) ? payload[0] : payload,
      });
      assert.equal(patch.statusCode, 401, patch.body);
      assert.equal(patch.json().code, 'SK401');
    }
    const invalid = await app.inject({
      method: 'POST', url: '/v1/webhooks', headers: { ...JSON_HEADERS, authorization: 'Bearer sk_aaaaaaaaaaaa_nope' }, payload: RESOLVED_ENDPOINT,
    });
    assert.equal(invalid.statusCode, 401, invalid.body);
    assert.equal(await count(), before);
  });

  it('answers a key without webhooks:write with 403 naming the scope', async () => {
    for (const scopes of [['webhooks:read'], ['bookings:write'], ['read']]) {
      const key = await createKey(ctx.db, org.id, scopes);
      const post = await app.inject({ method: 'POST', url: '/v1/webhooks', headers: { ...JSON_HEADERS, ...bearer(key) }, payload: RESOLVED_ENDPOINT });
      assert.equal(post.statusCode, 403, `${scopes.join(',')}: ${post.body}`);
      assert.equal(post.json().code, 'SK403');
      assert.match(post.json().message, /"webhooks:write"/);
      const patch = await app.inject({
        method: 'PATCH', url: `/v1/webhooks?id=eq.${webhookId}`, headers: { ...JSON_HEADERS, ...bearer(key) }, payload: HTTP_ENDPOINT,
      });
      assert.equal(patch.statusCode, 403, `${scopes.join(',')}: ${patch.body}`);
      assert.equal(patch.json().code, 'SK403');
    }
  });

  it('answers a webhooks:write key whose select reads another table with 403, before checking the endpoint', async () => {
    const key = await createKey(ctx.db, org.id, ['webhooks:write']);
    const response = await app.inject({
      method: 'POST',
      url: '/v1/webhooks?select=id,webhook_notifications(payload)',
      headers: { ...JSON_HEADERS, ...bearer(key), prefer: 'return=representation' },
      payload: RESOLVED_ENDPOINT,
    });
    assert.equal(response.statusCode, 403, response.body);
    assert.match(response.json().message, /"webhook_notifications:read"/);
  });

  it('still refuses an undeliverable endpoint from an authorized key, on POST and PATCH', async () => {
    // `read` too: subscribing to every event takes the read scope of every payload (docs/webhooks.md#event-scopes).
    const key = await createKey(ctx.db, org.id, ['webhooks:write', 'read']);
    const headers = { ...JSON_HEADERS, ...bearer(key) };
    for (const payload of [HTTP_ENDPOINT, RESOLVED_ENDPOINT]) {
      const post = await app.inject({ method: 'POST', url: '/v1/webhooks', headers, payload });
      assert.equal(post.statusCode, 400, post.body);
      assert.equal(post.json().code, 'SK420');
      const patch = await app.inject({ method: 'PATCH', url: `/v1/webhooks?id=eq.${webhookId}`, headers, payload });
      assert.equal(patch.statusCode, 400, patch.body);
      assert.equal(patch.json().code, 'SK420');
    }
    const created = await app.inject({
      method: 'POST', url: '/v1/webhooks', headers: { ...headers, prefer: 'return=representation' },
      payload: { endpoint: 'https://93.184.215.14/other', events: ['*'] },
    });
    assert.equal(created.statusCode, 201, created.body);
    assert.match((created.json() as { signing_secret: string }[])[0]!.signing_secret, /^whsec_/);
  });
});
