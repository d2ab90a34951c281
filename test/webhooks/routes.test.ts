import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import Fastify, { type FastifyInstance } from 'fastify';
import { forEachBackend } from '../support/databases.js';
import { errorHandler } from '../../src/http/error-handler.js';
import { ApiError } from '../../src/errors/api-error.js';
import type { Authorize } from '../../src/auth/authorize.js';
import { webhookRoutes } from '../../src/webhooks/routes.js';
import { deliverDue, type WorkerConfig } from '../../src/webhooks/worker.js';
import {
  createContact, createOrganization, createWebhook, notifications, startReceiver, type Receiver,
} from './support.js';

const config: WorkerConfig = { webhookRetrySchedule: [0], outboundAllowPrivate: true };

/** A stand-in for API-key authentication: `x-org` names the organization, `x-scopes` the scopes. */
const authorize: Authorize = async (request, resource, access) => {
  const organizationId = request.headers['x-org'];
  if (typeof organizationId !== 'string') throw new ApiError(401, 'SK401', 'no key');
  const scopes = String(request.headers['x-scopes'] ?? 'write').split(',');
  if (!scopes.includes(access) && !scopes.includes(`${resource}:${access}`)) throw new ApiError(403, 'SK403', 'scope');
  return { keyRowId: 'k', keyId: 'k', organizationId, scopes };
};

forEachBackend('webhook operation routes', (ctx) => {
  let app: FastifyInstance;
  let receiver: Receiver;
  let wakes = 0;

  before(async () => {
    receiver = await startReceiver(() => ({ status: 202, body: 'accepted' }));
    const build = async (allowPrivate: boolean) => {
      const instance = Fastify();
      instance.setErrorHandler(errorHandler);
      await instance.register(webhookRoutes, {
        prefix: '/v1', db: ctx.db, authorize, config: { ...config, outboundAllowPrivate: allowPrivate },
        worker: () => ({ wake: () => (wakes += 1), stop: async () => undefined }),
      });
      await instance.ready();
      return instance;
    };
    app = await build(true);
  });
  after(async () => {
    await app.close();
    await receiver.close();
  });

  it('POST /v1/webhook-test sends a signed test message and answers with the result', async () => {
    const org = await createOrganization(ctx.db);
    const hook = await createWebhook(ctx.db, org, receiver.url);
    receiver.secret = hook.signing_secret;
    const response = await app.inject({ method: 'POST', url: '/v1/webhook-test', headers: { 'x-org': org }, payload: { webhook_id: hook.id } });
    assert.equal(response.statusCode, 200);
    const body = response.json() as { id: string; ok: boolean; status: number; response: string };
    assert.equal(body.ok, true);
    assert.equal(body.status, 202);
    assert.deepEqual(JSON.parse(body.response), { status: 202, body: 'accepted' });
    const receipt = receiver.receipts.at(-1);
    assert.equal(receipt?.id, body.id);
    assert.ok(receipt?.verified);
    assert.deepEqual(JSON.parse(receipt?.body ?? '').payload, { webhook_id: hook.id });
    assert.equal(JSON.parse(receipt?.body ?? '').event_type, 'webhook.test');
    // Recorded as its one try, so the delivery log shows it with the others.
    const logged = await notifications(ctx.db, hook.id);
    assert.deepEqual(logged.map((row) => [row.id, row.event_type, row.status, row.tries]), [[body.id, 'webhook.test', 'sent', 1]]);
    assert.deepEqual((logged[0]!.payload as { payload: unknown }).payload, { webhook_id: hook.id });
    assert.deepEqual(JSON.parse(logged[0]!.response ?? ''), { status: 202, body: 'accepted' });

    const other = await createOrganization(ctx.db, 'Other');
    const foreign = await app.inject({ method: 'POST', url: '/v1/webhook-test', headers: { 'x-org': other }, payload: { webhook_id: hook.id } });
    assert.equal(foreign.statusCode, 404);
    const bad = await app.inject({ method: 'POST', url: '/v1/webhook-test', headers: { 'x-org': org }, payload: { webhook_id: 'nope' } });
    assert.equal(bad.statusCode, 400);
    const readOnly = await app.inject({ method: 'POST', url: '/v1/webhook-test', headers: { 'x-org': org, 'x-scopes': 'read' }, payload: { webhook_id: hook.id } });
    assert.equal(readOnly.statusCode, 403);
  });

  it('POST /v1/webhook-redeliver re-queues the organization’s notifications and wakes the worker', async () => {
    const org = await createOrganization(ctx.db);
    const hook = await createWebhook(ctx.db, org, receiver.url);
    await createContact(ctx.db, org);
    await deliverDue(ctx.db, config);
    const [row] = await notifications(ctx.db, hook.id);
    assert.equal(row?.status, 'sent');
    const wakesBefore = wakes;
    const other = await createOrganization(ctx.db, 'Other');
    const foreign = await app.inject({ method: 'POST', url: '/v1/webhook-redeliver', headers: { 'x-org': other }, payload: { ids: [row!.id] } });
    assert.deepEqual(foreign.json(), { requeued: [] });
    const response = await app.inject({ method: 'POST', url: '/v1/webhook-redeliver', headers: { 'x-org': org }, payload: { ids: [row!.id] } });
    assert.equal(response.statusCode, 200);
    assert.deepEqual(response.json(), { requeued: [row!.id] });
    assert.equal(wakes, wakesBefore + 1);
    assert.equal((await notifications(ctx.db, hook.id))[0]?.status, 'pending');
    for (const payload of [{}, { ids: [] }, { ids: ['x'] }, []]) {
      const bad = await app.inject({ method: 'POST', url: '/v1/webhook-redeliver', headers: { 'x-org': org }, payload });
      assert.equal(bad.statusCode, 400, JSON.stringify(payload));
    }
  });
});
