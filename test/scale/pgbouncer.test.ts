/**
 * Staykit behind PgBouncer in transaction pooling mode (PostgreSQL only): `staykit serve` gets PgBouncer's URL as
 * DATABASE_URL and the server's as DATABASE_DIRECT_URL, and a client does what an integration does — a product, its
 * configuration, availability, a quote, a booking, resource reads and writes — while a webhook endpoint must hear of
 * the booking through a wake-up (the worker's poll interval is an hour, so only LISTEN on the direct connection can
 * deliver it in time). PgBouncer's pool is two server connections, so every request reuses a session another request
 * had: nothing the API sets may survive its transaction, which the last test checks on a session of that pool.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import pg from 'pg';
import { BACKENDS, createTestDatabase, type TestDatabase } from '../support/databases.js';
import { createOrganization } from '../support/app.js';
import { startServerProcess, type ServerProcess } from '../support/server-process.js';
import { startReceiver, createWebhook, type Receiver } from '../webhooks/support.js';
import { pgbouncerAvailable, startPgBouncer, type PgBouncer } from './support/pgbouncer.js';

const skip = !BACKENDS.includes('postgres')
  ? 'needs PostgreSQL'
  : pgbouncerAvailable() ? false : 'PgBouncer is not installed (/usr/sbin/pgbouncer; apt-get install pgbouncer)';
if (skip && pgbouncerAvailable() === false && process.env.STAYKIT_TEST_REQUIRE_PGBOUNCER === '1') {
  throw new Error(`STAYKIT_TEST_REQUIRE_PGBOUNCER=1, but ${skip}`);
}

describe('the API through PgBouncer in transaction mode [postgres]', { skip }, () => {
  let database: TestDatabase;
  let bouncer: PgBouncer;
  let server: ServerProcess;
  let receiver: Receiver;
  let key: string;

  const call = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const response = await fetch(`${server.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, text, json: <T>() => JSON.parse(text) as T };
  };

  before(async () => {
    database = await createTestDatabase('postgres');
    const org = await createOrganization(database.db, 'Pooled');
    key = org.key;
    receiver = await startReceiver();
    await createWebhook(database.db, org.id, receiver.url, ['bookings.created']);
    bouncer = await startPgBouncer(database.url!, 2);
    server = await startServerProcess({
      DATABASE_URL: bouncer.url,
      DATABASE_DIRECT_URL: database.url!,
      STAYKIT_WORKER: 'embedded',
      STAYKIT_WORKER_POLL_INTERVAL: '3600',
      STAYKIT_OUTBOUND_ALLOW_PRIVATE: 'true',
    });
  });

  after(async () => {
    await server?.stop();
    await bouncer?.stop();
    await receiver?.close();
    await database?.drop();
  });

  let productId: string;

  it('creates a product and its configuration, and reads them back with an embed', async () => {
    const created = await call('POST', '/v1/create-product', { name: 'Pooled House', rent_period: 'nightly', timezone: 'Europe/Amsterdam' });
    assert.equal(created.status, 201, created.text);
    productId = created.json<{ id: string }>().id;
    const configuration = await call('POST', '/v1/product_configurations', {
      product_id: productId, intervals: '{[2027-01-01,2028-12-31)}', min_duration: 1,
      rates: [{ duration: 1, occupancy: 0, rate: 12000 }],
    }, { prefer: 'return=representation' });
    assert.equal(configuration.status, 201, configuration.text);
    const read = await call('GET', `/v1/products?id=eq.${productId}&select=id,product_configurations(min_duration)`);
    assert.equal(read.status, 200, read.text);
    assert.deepEqual(read.json<unknown>(), [{ id: productId, product_configurations: [{ min_duration: 1 }] }]);
  });

  it('answers availability and a quote, books, and the booking is listed with UTC timestamps', async () => {
    const availability = await call('GET', `/v1/availability?product_ids=${productId}&start=2027-06-01&end=2027-06-10`);
    assert.equal(availability.status, 200, availability.text);
    const stay = { product_id: productId, interval: { start: '2027-06-02', end: '2027-06-05' } };
    const quote = await call('POST', '/v1/quote', stay);
    assert.equal(quote.status, 200, quote.text);
    const booked = await call('POST', '/v1/book', stay);
    assert.equal(booked.status, 201, booked.text);
    const bookingId = booked.json<{ booking_id: string }>().booking_id;
    const items = await call('GET', `/v1/line_items?booking_id=eq.${bookingId}&fee_type=eq.fee&select=amount`);
    const total = items.json<{ amount: number }[]>().reduce((sum, item) => sum + item.amount, 0);
    assert.equal(total, quote.json<{ total: number }>().total);
    const again = await call('POST', '/v1/book', stay);
    assert.equal(again.status, 409, again.text);
    const bookings = await call('GET', '/v1/bookings?select=reference,created_at');
    assert.equal(bookings.status, 200, bookings.text);
    const rows = bookings.json<{ created_at: string }[]>();
    assert.equal(rows.length, 1);
    // The time zone is set per transaction (a pooler drops the session's startup options).
    assert.match(rows[0]!.created_at, /\+00:00$/);
  });

  it('updates and deletes through the resource API', async () => {
    const patched = await call('PATCH', `/v1/products?id=eq.${productId}`, { approximate_address: 'Harbour 1' }, { prefer: 'return=representation' });
    assert.equal(patched.status, 200, patched.text);
    assert.equal(patched.json<{ approximate_address: string }[]>()[0]!.approximate_address, 'Harbour 1');
    const coupon = await call('POST', '/v1/coupons', { code: 'POOLED', definition: { type: 'percentage', value: 5 } }, { prefer: 'return=representation' });
    assert.equal(coupon.status, 201, coupon.text);
    const deleted = await call('DELETE', '/v1/coupons?code=eq.POOLED');
    assert.equal(deleted.status, 204, deleted.text);
  });

  it('delivers the booking webhook at once: the worker was woken through the direct connection', async () => {
    const deadline = Date.now() + 20_000;
    while (receiver.receipts.length === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
    assert.equal(receiver.receipts.length, 1, `no delivery within 20 s (the poll interval is an hour)\n${server.output()}`);
    assert.equal((JSON.parse(receiver.receipts[0]!.body) as { event_type: string }).event_type, 'bookings.created');
  });

  it('leaves nothing on the pooled sessions: role, organization, statement timeout and time zone are the server defaults', async () => {
    // Busy both server connections of the pool with API work, then look at the sessions they leave behind.
    await Promise.all(Array.from({ length: 8 }, () => call('GET', '/v1/products?select=id')));
    const defaults = await sessionState(database.url!);
    for (let i = 0; i < 4; i += 1) {
      assert.deepEqual(await sessionState(bouncer.url), defaults);
    }
    assert.equal(defaults.organization, '');
  });
});

/** What a fresh client sees of its session (through PgBouncer: a server connection the API used before). */
async function sessionState(url: string): Promise<Record<string, string>> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<Record<string, string>>(
      `SELECT current_user AS role, coalesce(current_setting('staykit.organization_id', true), '') AS organization,
              current_setting('statement_timeout') AS statement_timeout, current_setting('TimeZone') AS time_zone,
              current_setting('jit') AS jit`,
    );
    return rows[0]!;
  } finally {
    await client.end();
  }
}
