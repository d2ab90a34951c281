/**
 * A crash never loses an acknowledged write (issue: operations). `staykit serve` takes a burst of bookings
 * (distinct stays, each with its own Idempotency-Key) and is killed with SIGKILL at a random moment, three times,
 * on the embedded database and on PostgreSQL. After each kill it starts again — the embedded data folder must
 * open — and every request that got no answer is sent again with its key. Then:
 * - every acknowledged booking exists exactly once, with its stay, its lines and its payment schedule, and a retry
 *   of its key answers the same booking (a request cut off after its commit is not booked twice);
 * - every booking in the database is whole (no half-written booking from a request that was cut off);
 * - every booking's confirmation e-mail is delivered (DATA_DIR/outbox) and its `booking.created` webhook reaches the
 *   receiver, at least once each, and a repeated delivery carries the same id.
 * The kill loop is bounded: 3 rounds of 8 bookings per backend.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BACKENDS, createTestDatabase, type TestDatabase } from '../support/databases.js';
import { startServerProcess, type ServerProcess } from '../support/server-process.js';
import { staykit } from '../support/staykit-cli.js';

const ROUNDS = 3;
const PER_ROUND = 8;

interface Stay {
  key: string;
  body: Record<string, unknown>;
  /** The booking the server acknowledged (201) for this key, once it did. */
  bookingId?: string;
}

interface Delivery {
  id: string;
  body: string;
}

/** A webhook endpoint that records every delivery (its webhook-id and body) and answers 200. */
async function webhookReceiver(): Promise<{ server: Server; url: string; deliveries: Delivery[] }> {
  const deliveries: Delivery[] = [];
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      deliveries.push({ id: String(request.headers['webhook-id']), body });
      response.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, deliveries };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

for (const backend of BACKENDS) {
  describe(`SIGKILL during a burst of bookings [${backend}]`, () => {
    let dataDir: string;
    let testDb: TestDatabase | undefined;
    let env: Record<string, string>;
    let server: ServerProcess | undefined;
    let receiver: Awaited<ReturnType<typeof webhookReceiver>>;
    let apiKey = '';

    before(async () => {
      dataDir = await mkdtemp(join(tmpdir(), `staykit-kill-${backend}-`));
      receiver = await webhookReceiver();
      env = {
        DATA_DIR: dataDir,
        STAYKIT_WORKER: 'embedded',
        STAYKIT_OUTBOUND_ALLOW_PRIVATE: 'true',
        STAYKIT_WORKER_POLL_INTERVAL: '1',
        DATABASE_URL: '',
      };
      if (backend === 'postgres') {
        testDb = await createTestDatabase('postgres');
        await testDb.db.close();
        env.DATABASE_URL = testDb.url!;
        const seeded = await staykit(['seed'], env);
        assert.equal(seeded.code, 0, seeded.stderr);
        apiKey = (JSON.parse(seeded.stdout) as { api_key: string }).api_key;
      }
    });
    after(async () => {
      await server?.stop('SIGKILL');
      receiver.server.close();
      await testDb?.drop().catch(() => undefined);
      await rm(dataDir, { recursive: true, force: true });
    });

    const start = async () => {
      server = await startServerProcess(env);
      apiKey ||= /Demo organization API key: (sk_\S+)/.exec(server.output())?.[1] ?? '';
      assert.ok(apiKey, server.output());
    };
    const api = async <T>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
      const response = await fetch(`${server!.url}${path}`, {
        method,
        headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json', prefer: 'return=representation', ...headers },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await response.text();
      return { status: response.status, body: (text ? JSON.parse(text) : null) as T };
    };
    const book = async (stay: Stay) => {
      const answer = await api<{ booking_id: string }>('POST', '/v1/book', stay.body, { 'idempotency-key': stay.key });
      assert.equal(answer.status, 201, `${stay.key}: ${JSON.stringify(answer.body)}`);
      stay.bookingId = answer.body.booking_id;
    };

    it('loses no acknowledged booking, writes none by half, and delivers every e-mail and webhook', async () => {
      await start();
      const hook = await api('POST', '/v1/webhooks', { endpoint: receiver.url, events: ['booking.created'] });
      assert.equal(hook.status, 201, JSON.stringify(hook.body));

      // Free two-night stays of the demo's instantly booked units, found before the burst: after the demo's own
      // bookings (which reach about 270 days ahead) and within the units' booking window (365 days).
      const { body: units } = await api<{ id: string; capacities: { capacity_group_id: string; min: number }[] }[]>(
        'GET', '/v1/products?interaction=eq.book&rent_period=eq.nightly&select=id,capacities(capacity_group_id,min)');
      const stays: Stay[] = [];
      const today = Math.floor(Date.now() / 86_400_000) * 86_400_000;
      for (let day = today + 290 * 86_400_000; stays.length < ROUNDS * PER_ROUND && day < today + 362 * 86_400_000; day += 2 * 86_400_000) {
        const interval = { start: new Date(day).toISOString().slice(0, 10), end: new Date(day + 2 * 86_400_000).toISOString().slice(0, 10) };
        for (const unit of units) {
          const occupancy = Object.fromEntries(unit.capacities.map((c) => [c.capacity_group_id, Math.max(c.min, 1)]));
          const body = {
            product_id: unit.id, interval, occupancy,
            contact: { first_name: 'Guest', last_name: `${stays.length}`, email: `guest${stays.length}@example.com` },
          };
          if ((await api('POST', '/v1/quote', body)).status === 200) stays.push({ key: `kill-${backend}-${stays.length}`, body });
        }
      }
      assert.equal(stays.length, ROUNDS * PER_ROUND, 'enough free stays in the demo');

      let cutOff = 0;
      for (let round = 0; round < ROUNDS; round++) {
        const burst = stays.slice(round * PER_ROUND, (round + 1) * PER_ROUND);
        // Four at a time, and the kill somewhere in the middle of them.
        const sending = Promise.allSettled([0, 1, 2, 3].map(async (lane) => {
          for (let i = lane; i < burst.length; i += 4) await book(burst[i]!);
        }));
        // Killed once the burst is under way (its first booking answered), at a random moment after that.
        while (!burst.some((stay) => stay.bookingId)) await sleep(10);
        await sleep(Math.floor(Math.random() * 300));
        await server!.stop('SIGKILL');
        await sending;
        cutOff += burst.filter((s) => !s.bookingId).length;
        await start();
        // The requests that got no answer, again with their keys: each books its stay once, or answers the booking
        // its first try committed before the kill.
        for (const stay of burst.filter((s) => !s.bookingId)) await book(stay);
      }

      assert.ok(cutOff > 0, 'some requests were cut off by the kills');
      // Every acknowledged key answers its booking again, and nothing was booked twice.
      for (const stay of stays) {
        const again = await api<{ booking_id: string }>('POST', '/v1/book', stay.body, { 'idempotency-key': stay.key });
        assert.equal(again.status, 201);
        assert.equal(again.body.booking_id, stay.bookingId, `${stay.key} is one booking`);
      }
      const ids = stays.map((stay) => stay.bookingId!);
      assert.equal(new Set(ids).size, stays.length);

      // Every booking of these guests is whole: one confirmed stay, its lines, its payment schedule.
      interface Stored {
        id: string; reference: string; calendar_events: { status: string }[]; line_items: { id: string }[]; payments: { id: string }[];
        contact_bookings: { contacts: { email: string } | null }[];
      }
      const { body: all } = await api<Stored[]>(
        'GET', '/v1/bookings?select=id,reference,calendar_events(status),line_items(id),payments(id),contact_bookings(contacts(email))');
      const bookings = all.filter((b) => b.contact_bookings.some((c) => /^guest\d+@example\.com$/.test(c.contacts?.email ?? '')));
      assert.deepEqual(bookings.map((b) => b.id).sort(), [...ids].sort(), 'exactly the acknowledged bookings exist');
      for (const booking of bookings) {
        assert.deepEqual(booking.calendar_events.map((e) => e.status), ['CONFIRMED'], `${booking.reference}: its stay`);
        assert.ok(booking.line_items.length > 0, `${booking.reference}: its lines`);
        assert.ok(booking.payments.length > 0, `${booking.reference}: its payment schedule`);
      }

      // The e-mails and webhooks of every booking arrive, at least once; a repeat carries the same id.
      const references = bookings.map((b) => b.reference);
      for (const until = Date.now() + 120_000; ;) {
        const mails = await Promise.all((await readdir(join(dataDir, 'outbox')).catch(() => [] as string[]))
          .filter((name) => name.endsWith('.eml')).map((name) => readFile(join(dataDir, 'outbox', name), 'utf8')));
        const mailed = references.filter((reference) => mails.some((mail) => mail.includes(reference) && /bevestigd|confirmed|bestätigt/i.test(mail)));
        const hooked = ids.filter((id) => receiver.deliveries.some((d) => d.body.includes(id)));
        if (mailed.length === references.length && hooked.length === ids.length) break;
        assert.ok(Date.now() < until, `within two minutes: e-mails ${mailed.length}/${references.length}, webhooks ${hooked.length}/${ids.length}`);
        await sleep(250);
      }
      for (const id of ids) {
        const deliveries = receiver.deliveries.filter((d) => d.body.includes(id));
        assert.equal(new Set(deliveries.map((d) => d.id)).size, 1, `booking ${id}: one notification, however often delivered`);
        assert.equal(new Set(deliveries.map((d) => d.body)).size, 1, `booking ${id}: a repeat is the same notification`);
      }
    });
  });
}
