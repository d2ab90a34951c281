/**
 * The official client, unchanged, against a listening Staykit server on the demo data: what an integrator's
 * first requests look like, and that one organization never sees or changes another's rows.
 */
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { PostgrestClient } from '@supabase/postgrest-js';
import { forEachBackend } from '../support/databases.js';
import { createOrganization, startApp } from '../support/app.js';
import { seedDemoOrganization, type SeededOrganization } from '../../src/seed/demo-organization.js';

forEachBackend('@supabase/postgrest-js against /v1', (ctx) => {
  let app: FastifyInstance;
  let demo: SeededOrganization;
  let client: PostgrestClient;
  let other: PostgrestClient;
  let otherOrgId: string;

  before(async () => {
    demo = await seedDemoOrganization(ctx.db);
    app = await startApp(ctx.db);
    const address = await app.listen({ port: 0, host: '127.0.0.1' });
    client = new PostgrestClient(`${address}/v1`, { headers: { Authorization: `Bearer ${demo.api_key}` } });
    const second = await createOrganization(ctx.db, 'Other rentals');
    otherOrgId = second.id;
    other = new PostgrestClient(`${address}/v1`, { headers: { Authorization: `Bearer ${second.key}` } });
  });
  after(() => app.close());

  it('lists the demo products with their configurations embedded', async () => {
    const { data, error, status } = await client
      .from('products')
      .select('id, name, rent_period, product_configurations(name, order)')
      .order('created_at');
    assert.equal(error, null);
    assert.equal(status, 200);
    assert.equal(data!.length, 4);
    for (const product of data!) {
      assert.equal((product.product_configurations as unknown[]).length, 2);
    }
    assert.deepEqual(data!.map((p) => (p.name as { default: string }).default).sort(), ['Beach House', 'Dune Cottage', 'Forest Cabin', 'Harbour Apartment']);
  });

  it('filters, orders, limits and counts like PostgREST', async () => {
    const since = new Date().toISOString().slice(0, 10);
    const { data, count, error, status } = await client
      .from('calendar_events')
      .select('start_date, status, product:products(name)', { count: 'exact' })
      .eq('status', 'CONFIRMED')
      .gte('start_date', since)
      .order('start_date', { ascending: false })
      .limit(5);
    assert.equal(error, null);
    const { rows } = await ctx.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM api.calendar_events WHERE organization_id = $1 AND status = 'CONFIRMED' AND start_date >= $2`,
      [demo.organization_id, since],
    );
    assert.equal(count, rows[0]!.n);
    assert.equal(status, count! > 5 ? 206 : 200);
    assert.equal(data!.length, Math.min(5, rows[0]!.n));
    const dates = data!.map((event) => event.start_date as string);
    assert.deepEqual(dates, [...dates].sort().reverse());
    assert.ok(data!.every((event) => event.status === 'CONFIRMED' && (event.product as unknown as { name: unknown }).name));
  });

  it('creates, updates and soft-deletes a coupon; organization_id comes from the key, never the body', async () => {
    const created = await client
      .from('coupons')
      .insert({ code: 'SPRING5', definition: { type: 'percentage', value: 5 }, organization_id: otherOrgId })
      .select()
      .single();
    assert.equal(created.error, null);
    assert.equal(created.status, 201);
    assert.equal(created.data!.organization_id, demo.organization_id);

    const updated = await client.from('coupons').update({ description: 'Spring' }).eq('id', created.data!.id).select('description');
    assert.equal(updated.error, null);
    assert.deepEqual(updated.data, [{ description: 'Spring' }]);

    const deleted = await client.from('coupons').delete().eq('id', created.data!.id);
    assert.equal(deleted.error, null);
    const after = await client.from('coupons').select('code, deleted_at').eq('id', created.data!.id).single();
    assert.equal(after.error, null);
    assert.ok(after.data!.deleted_at, 'a deleted coupon stays readable with deleted_at set');
  });

  it('keeps organizations apart on reads, embeds and writes', async () => {
    const products = await other.from('products').select('id');
    assert.deepEqual(products.data, []);
    const bookings = await other.from('calendar_events').select('id, bookings(id)', { count: 'exact' });
    assert.equal(bookings.count, 0);

    const { rows } = await ctx.db.query<{ id: string }>('SELECT id FROM api.coupons WHERE organization_id = $1 AND deleted_at IS NULL ORDER BY id LIMIT 1', [demo.organization_id]);
    const foreignCoupon = rows[0]!.id;
    const update = await other.from('coupons').update({ description: 'hijacked' }).eq('id', foreignCoupon).select();
    assert.deepEqual(update.data, []);
    const remove = await other.from('coupons').delete().eq('id', foreignCoupon).select();
    assert.deepEqual(remove.data, []);
    const check = await ctx.db.query<{ description: string; deleted_at: string | null }>(
      'SELECT description, deleted_at FROM api.coupons WHERE id = $1',
      [foreignCoupon],
    );
    assert.notEqual(check.rows[0]!.description, 'hijacked');
    assert.equal(check.rows[0]!.deleted_at, null);
  });

  it('refuses a DELETE without filters and an undocumented method', async () => {
    const unfiltered = await client.from('coupons').delete();
    assert.equal(unfiltered.status, 400);
    assert.equal(unfiltered.error?.code, 'SK400');

    const post = await client.from('products').insert({ name: { default: 'x' } });
    assert.equal(post.status, 405);
    assert.equal(post.error?.code, 'SK405');
    const raw = await app.inject({ method: 'DELETE', url: '/v1/products?id=eq.x', headers: { authorization: `Bearer ${demo.api_key}` } });
    assert.equal(raw.statusCode, 405);
    assert.equal(raw.headers.allow, 'OPTIONS,GET,HEAD,PATCH');
  });

  it('reports a missing single row with PGRST116', async () => {
    const { error, status } = await client.from('products').select('id').eq('id', '00000000-0000-0000-0000-000000000000').single();
    assert.equal(status, 406);
    assert.equal(error?.code, 'PGRST116');
  });
});
