import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { forEachBackend } from '../support/databases.js';
import { bearer, createKey, createOrganization, startApp, type TestOrganization } from '../support/app.js';
import { expireChanges } from '../../src/changes/feed.js';
import { startChangeRetention } from '../../src/changes/retention.js';
import { silentLogger } from '../../src/observability/worker-logger.js';
import { createContact, createWebhook, notifications } from '../webhooks/support.js';
import { drain, getChanges, settled } from './support.js';

forEachBackend('change feed', (ctx) => {
  let app: FastifyInstance;
  let org: TestOrganization;

  before(async () => {
    app = await startApp(ctx.db);
    org = await createOrganization(ctx.db, 'Feed');
  });
  after(async () => app?.close());

  it('lists created, updated and deleted rows in order, a deletion as a tombstone, with the webhook event id', async () => {
    const hook = await createWebhook(ctx.db, org.id, 'https://receiver.example/hook', ['contacts.updated']);
    const start = (await drain(app, org.key)).next;
    const id = await createContact(ctx.db, org.id, 'Grace');
    await ctx.db.query(`UPDATE api.contacts SET first_name = 'Hopper' WHERE id = $1`, [id]);
    await ctx.db.query(`UPDATE api.contacts SET first_name = 'Hopper' WHERE id = $1`, [id]); // no change: no entry
    await ctx.db.query('DELETE FROM api.contacts WHERE id = $1', [id]);

    await settled(ctx.db);
    const { changes } = await drain(app, org.key, start);
    assert.deepEqual(changes.map((change) => [change.type, change.resource, change.id]), [
      ['contacts.created', 'contacts', id], ['contacts.updated', 'contacts', id], ['contacts.deleted', 'contacts', id],
    ]);
    assert.equal(changes[0]?.data?.first_name, 'Grace');
    assert.equal(changes[1]?.data?.first_name, 'Hopper');
    assert.equal(changes[2]?.data, null);
    assert.equal(new Set(changes.map((change) => change.event_id)).size, 3);
    const [notification] = await notifications(ctx.db, hook.id);
    assert.equal((notification?.payload as { event_id?: string }).event_id, changes[1]?.event_id);
  });

  it('a consumer that stops and resumes from its last cursor misses nothing and sees nothing twice', async () => {
    const start = (await drain(app, org.key)).next;
    const made: string[] = [];
    for (let i = 0; i < 7; i++) made.push(await createContact(ctx.db, org.id, `Guest ${i}`));
    await settled(ctx.db);
    const first = await getChanges(app, org.key, { since: start!, limit: '3' });
    assert.equal(first.has_more, true);
    for (let i = 7; i < 10; i++) made.push(await createContact(ctx.db, org.id, `Guest ${i}`));
    await settled(ctx.db);
    const rest = await drain(app, org.key, first.next, 2);
    assert.deepEqual([...first.changes, ...rest.changes].map((change) => change.id), made);
    const again = await getChanges(app, org.key, { since: rest.next! });
    assert.deepEqual(again.changes, []);
    assert.equal(again.next, rest.next, 'an empty page keeps the cursor');
  });

  it('only the changes of resources the key may read; types filters', async () => {
    const contactsOnly = await createKey(ctx.db, org.id, ['contacts:read']);
    const productsOnly = await createKey(ctx.db, org.id, ['products:read']);
    const start = (await drain(app, org.key)).next;
    const contact = await createContact(ctx.db, org.id, 'Scoped');
    await ctx.db.query(`UPDATE api.contacts SET first_name = 'Scoped again' WHERE id = $1`, [contact]);
    await settled(ctx.db);
    assert.deepEqual((await drain(app, contactsOnly, start)).changes.map((change) => change.type), ['contacts.created', 'contacts.updated']);
    assert.deepEqual((await drain(app, productsOnly, start)).changes, []);
    const updatesOnly = await getChanges(app, org.key, { since: start!, types: 'contacts.updated' });
    assert.deepEqual(updatesOnly.changes.map((change) => change.type), ['contacts.updated']);

    const other = await createOrganization(ctx.db, 'Elsewhere');
    await createContact(ctx.db, other.id, 'Theirs');
    await settled(ctx.db);
    assert.equal((await drain(app, other.key)).changes.length, 1);
    assert.equal((await drain(app, other.key)).changes.some((change) => change.id === contact), false);
    const noResource = await createKey(ctx.db, org.id, ['email_templates:read']);
    const refused = await app.inject({ method: 'GET', url: '/v1/changes', headers: bearer(noResource) });
    assert.equal(refused.statusCode, 403);
  });

  it('a malformed cursor, limit or type is 400 SK740', async () => {
    for (const query of ['since=not-a-cursor', 'since=' + Buffer.from('1.x').toString('base64url'), 'limit=0', 'limit=1001', 'limit=ten', 'types=contacts.exploded']) {
      const response = await app.inject({ method: 'GET', url: `/v1/changes?${query}`, headers: bearer(org.key) });
      assert.equal(response.statusCode, 400, query);
      assert.equal(response.json<{ code: string }>().code, 'SK740', query);
    }
  });

  it('a cursor from before the retention is 410 SK741 with how to resync; the feed without a cursor still works', async () => {
    const own = await createOrganization(ctx.db, 'Retention');
    await createContact(ctx.db, own.id, 'Old');
    await settled(ctx.db);
    const before = await getChanges(app, own.key, { limit: '1' });
    const oldCursor = before.next;
    await createContact(ctx.db, own.id, 'Older still kept?');
    assert.ok((await expireChanges(ctx.db, new Date(Date.now() + 60_000))) >= 2);
    const newer = await createContact(ctx.db, own.id, 'New');

    await settled(ctx.db);
    const expired = await app.inject({ method: 'GET', url: `/v1/changes?since=${oldCursor}`, headers: bearer(own.key) });
    assert.equal(expired.statusCode, 410);
    const body = expired.json<{ code: string; hint: string }>();
    assert.equal(body.code, 'SK741');
    assert.match(body.hint, /read the resources you follow in full/);
    assert.deepEqual((await drain(app, own.key)).changes.map((change) => change.id), [newer]);
  });

  it('the retention job deletes the changes older than the retention period, by its clock', async () => {
    const own = await createOrganization(ctx.db, 'Retention job');
    await createContact(ctx.db, own.id, 'Kept for now');
    const count = async () => (await ctx.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM staykit_internal.changes WHERE organization_id = $1', [own.id])).rows[0]?.n;
    const days = 30;
    for (const [day, expected] of [[days - 1, 1], [days + 1, 0]] as const) {
      let looked = false;
      const now = () => {
        looked = true;
        return new Date(Date.now() + day * 24 * 60 * 60 * 1000);
      };
      const job = startChangeRetention(ctx.db, { retentionDays: days, logger: silentLogger, now, intervalMs: 60_000 });
      while (!looked) await new Promise((resolve) => setTimeout(resolve, 5));
      await job.stop(); // waits for the run it started
      assert.equal(await count(), expected, `${day} days later`);
    }
  });
});
