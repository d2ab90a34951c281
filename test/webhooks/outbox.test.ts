import { it } from 'node:test';
import assert from 'node:assert/strict';
import { forEachBackend } from '../support/databases.js';
import { fixtures } from '../support/fixtures.js';
import type { Queryable } from '../../src/db/types.js';
import { CHANGE_TYPES, EVENT_RESOURCES } from '../../src/webhooks/events.js';
import { createContact, createOrganization, createWebhook, notifications } from './support.js';

const ENDPOINT = 'https://receiver.example/hook';

forEachBackend('webhook outbox', (ctx) => {
  it('a change that rolls back emits nothing', async () => {
    const org = await createOrganization(ctx.db);
    const hook = await createWebhook(ctx.db, org, ENDPOINT);
    await assert.rejects(
      ctx.db.transaction(async (tx) => {
        await createContact(tx, org);
        throw new Error('roll back');
      }),
      /roll back/,
    );
    assert.deepEqual(await notifications(ctx.db, hook.id), []);
    const { rows } = await ctx.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM staykit_internal.webhook_queue WHERE webhook_id = $1', [hook.id]);
    assert.equal(rows[0]?.n, 0);
  });

  it('a committed change emits exactly one notification per subscribed, enabled webhook of the organization', async () => {
    const org = await createOrganization(ctx.db);
    const other = await createOrganization(ctx.db, 'Other');
    const all = await createWebhook(ctx.db, org, ENDPOINT, ['*']);
    const exact = await createWebhook(ctx.db, org, ENDPOINT, ['contacts.created', 'products.created']);
    const unrelated = await createWebhook(ctx.db, org, ENDPOINT, ['products.created']);
    const disabled = await createWebhook(ctx.db, org, ENDPOINT, ['*']);
    await ctx.db.query('UPDATE api.webhooks SET disabled_at = now() WHERE id = $1', [disabled.id]);
    const foreign = await createWebhook(ctx.db, other, ENDPOINT, ['*']);

    const contactId = await ctx.db.transaction((tx) => createContact(tx, org));

    for (const hook of [all, exact]) {
      const rows = await notifications(ctx.db, hook.id);
      assert.equal(rows.length, 1);
      assert.equal(rows[0]?.event_type, 'contacts.created');
      assert.equal(rows[0]?.status, 'pending');
      assert.equal(rows[0]?.tries, 0);
      assert.equal(((rows[0]?.payload.payload as { new: { id: string } }).new).id, contactId);
    }
    for (const hook of [unrelated, disabled, foreign]) assert.deepEqual(await notifications(ctx.db, hook.id), []);
    const { rows: queued } = await ctx.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM staykit_internal.webhook_queue WHERE webhook_id = ANY($1::uuid[])',
      [[all.id, exact.id]],
    );
    assert.equal(queued[0]?.n, 2);
  });

  it('stores the exact body: id, date, event_type, payload {new, old}', async () => {
    const org = await createOrganization(ctx.db);
    const hook = await createWebhook(ctx.db, org, ENDPOINT);
    const before = Math.floor(Date.now() / 1000);
    const contactId = await createContact(ctx.db, org, 'Grace');
    await ctx.db.query(`UPDATE api.contacts SET first_name = 'Hopper' WHERE id = $1`, [contactId]);
    await ctx.db.query(`UPDATE api.contacts SET first_name = 'Hopper' WHERE id = $1`, [contactId]); // no change
    await ctx.db.query('DELETE FROM api.contacts WHERE id = $1', [contactId]);
    const rows = await notifications(ctx.db, hook.id);
    assert.deepEqual(rows.map((row) => row.event_type), ['contacts.created', 'contacts.updated', 'contacts.deleted']);
    for (const row of rows) {
      const body = row.payload as { id: string; date: number; event_type: string; payload: Record<string, unknown> };
      assert.deepEqual(Object.keys(body).sort(), ['date', 'event_id', 'event_type', 'id', 'payload']);
      assert.equal(body.id, row.id);
      assert.equal(body.event_type, row.event_type);
      assert.ok(Number.isInteger(body.date) && body.date >= before - 1 && body.date <= Math.floor(Date.now() / 1000) + 1);
      assert.deepEqual(Object.keys(body.payload).sort(), ['new', 'old']);
    }
    const [created, updated, deleted] = rows.map((row) => row.payload.payload as { new: Record<string, unknown> | null; old: Record<string, unknown> | null });
    assert.equal(created?.old, null);
    assert.equal(created?.new?.first_name, 'Grace');
    assert.equal(created?.new?.organization_id, org);
    assert.equal(updated?.old?.first_name, 'Grace');
    assert.equal(updated?.new?.first_name, 'Hopper');
    assert.equal(deleted?.new, null);
    assert.equal(deleted?.old?.id, contactId);
  });

  it('leaves secrets and the search vector out of row snapshots', async () => {
    const org = await createOrganization(ctx.db);
    const hook = await createWebhook(ctx.db, org, ENDPOINT, ['products.created', 'coupons.created']);
    const f = fixtures(ctx.db, org);
    await f.product({ name: { default: 'Cabin' } });
    await f.coupon({ code: 'SUMMER', definition: { type: 'fixed', value: 500 } });
    const [product, coupon] = (await notifications(ctx.db, hook.id)).map((row) => (row.payload.payload as { new: Record<string, unknown> }).new);
    assert.ok(product && coupon);
    assert.equal(product.name && (product.name as { default: string }).default, 'Cabin');
    for (const key of ['ical_export_secret', 'ical_export_secret_no_details', 'fts']) assert.ok(!(key in product), key);
    assert.ok(!('fts' in coupon));
    assert.equal(coupon.code, 'SUMMER');
  });

  it('a soft delete of a coupon emits coupons.deleted', async () => {
    const org = await createOrganization(ctx.db);
    const hook = await createWebhook(ctx.db, org, ENDPOINT, ['coupons.deleted', 'coupons.updated']);
    const coupon = await fixtures(ctx.db, org).coupon({ code: 'GONE', definition: { type: 'fixed', value: 1 } });
    await ctx.db.query('UPDATE api.coupons SET deleted_at = now() WHERE id = $1', [coupon]);
    const emitted = await notifications(ctx.db, hook.id);
    assert.deepEqual(emitted.map((row) => row.event_type), ['coupons.deleted']);
    const payload = emitted[0]?.payload.payload as { new: { deleted_at: string }; old: { deleted_at: null } };
    assert.ok(payload.new.deleted_at);
    assert.equal(payload.old.deleted_at, null);
  });

  it('emits the semantic events: confirmed, cancelled, completed, paid, sync_failed', async () => {
    const org = await createOrganization(ctx.db);
    const hook = await createWebhook(ctx.db, org, ENDPOINT);
    const f = fixtures(ctx.db, org);
    const product = await f.product({ name: { default: 'Loft' } });
    const eventId = await f.event(product, { start_date: '2030-01-01', end_date: '2030-01-05', status: 'TENTATIVE' });
    await ctx.db.query(`UPDATE api.calendar_events SET status = 'CONFIRMED' WHERE id = $1`, [eventId]);
    await ctx.db.query(`UPDATE api.calendar_events SET status = 'CANCELLED' WHERE id = $1`, [eventId]);
    const task = await f.row('calendar_event_tasks', { calendar_event_id: eventId, label: 'Clean' });
    await ctx.db.query('UPDATE api.calendar_event_tasks SET completed_at = now() WHERE id = $1', [task.id]);
    const payment = await f.row('payments', { amount: 1000 });
    await ctx.db.query(`UPDATE api.payments SET status = 'paid', paid_at = now() WHERE id = $1`, [payment.id]);
    const calendar = await f.externalCalendar(product, { ical_url: 'https://feeds.example/a.ics' });
    await ctx.db.query(`UPDATE api.external_calendars SET last_synced = now() WHERE id = $1`, [calendar]);
    await ctx.db.query(`UPDATE api.external_calendars SET error = 'HTTP 404', last_synced = now() WHERE id = $1`, [calendar]);
    await ctx.db.query(`UPDATE api.external_calendars SET error = 'HTTP 404', last_synced = now() WHERE id = $1`, [calendar]);

    // One statement's notifications share created_at: compare as sets.
    const types = (await notifications(ctx.db, hook.id)).map((row) => row.event_type).sort();
    assert.deepEqual(types, [
      'products.created',
      'calendar_events.created',
      'calendar_events.updated', 'calendar_events.confirmed',
      'calendar_events.updated', 'calendar_events.cancelled',
      'calendar_event_tasks.created',
      'calendar_event_tasks.updated', 'calendar_event_tasks.completed',
      'payments.created',
      'payments.updated', 'payments.paid',
      'external_calendars.created',
      'external_calendars.updated', 'external_calendars.sync_failed',
    ].sort());
  });

  it('has an outbox trigger on every event resource, whose row changes are all in the catalogue', async () => {
    const { rows } = await ctx.db.query<{ table: string }>(
      `SELECT c.relname AS table FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid
       JOIN pg_namespace s ON s.oid = c.relnamespace
       WHERE t.tgname = 'webhook_outbox' AND s.nspname = 'api' ORDER BY 1`,
    );
    assert.deepEqual(rows.map((row) => row.table), [...EVENT_RESOURCES].sort());
    const { rows: catalogue } = await ctx.db.query<{ name: string }>(
      'SELECT unnest(staykit_internal.webhook_event_catalogue()) AS name',
    );
    const names = catalogue.map((row) => row.name);
    assert.deepEqual(CHANGE_TYPES.filter((type) => !names.includes(type)), []);
  });
});

forEachBackend('webhook outbox under the API role', (ctx) => {
  /** Runs `work` as an API request of `organizationId` would: role staykit_api, the organization setting. */
  function asApi<T>(organizationId: string, work: (tx: Queryable) => Promise<T>): Promise<T> {
    return ctx.db.transaction(async (tx) => {
      await tx.query(`SELECT set_config('role', 'staykit_api', true), set_config('staykit.organization_id', $1, true)`, [organizationId]);
      return work(tx);
    });
  }

  it('changes made by API requests emit events, though the role cannot see the queue', async () => {
    const org = await createOrganization(ctx.db);
    const hook = await createWebhook(ctx.db, org, ENDPOINT, ['contacts.created', 'coupons.deleted']);
    await asApi(org, async (tx) => {
      // Raw: written as the API role, which may not name organization_id (fixtures() writes as the owner).
      await tx.query(`INSERT INTO api.contacts (first_name) VALUES ('Api')`);
      const { rows } = await tx.query<{ id: string }>(
        `INSERT INTO api.coupons (code, definition) VALUES ('API', '{"type": "fixed", "value": 1}') RETURNING id`);
      await tx.query('DELETE FROM api.coupons WHERE id = $1', [rows[0]?.id]);
    });
    assert.deepEqual((await notifications(ctx.db, hook.id)).map((row) => row.event_type).sort(), ['contacts.created', 'coupons.deleted']);
    await assert.rejects(asApi(org, (tx) => tx.query('SELECT * FROM staykit_internal.webhook_queue')), /permission denied/);
    await assert.rejects(
      asApi(org, (tx) => tx.query(`SELECT staykit_internal.emit_webhook_event($1, 'contacts.created', '{}')`, [org])),
      /permission denied/,
    );
  });

  it('an API request can re-enable a disabled webhook', async () => {
    const org = await createOrganization(ctx.db);
    const hook = await createWebhook(ctx.db, org, ENDPOINT);
    await ctx.db.query('UPDATE api.webhooks SET disabled_at = now() WHERE id = $1', [hook.id]);
    await asApi(org, (tx) => tx.query('UPDATE api.webhooks SET disabled_at = NULL WHERE id = $1', [hook.id]));
    await createContact(ctx.db, org);
    assert.equal((await notifications(ctx.db, hook.id)).length, 1);
  });
});
