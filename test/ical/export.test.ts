import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import ICAL from 'ical.js';
import type { AddressInfo } from 'node:net';
import { forEachBackend } from '../support/databases.js';
import { bearer, createOrganization, startApp } from '../support/app.js';
import { fixtures } from '../support/fixtures.js';
import { syncCalendar } from '../../src/ical/sync.js';
import {
  createBlock, createBooking, createCalendar, createProduct, day, importedEvents, startFeedServer, type FeedServer,
} from './support.js';
import { airbnbFeed, airbnbReservation } from './support.js';

interface ParsedEvent {
  uid: string;
  start: string;
  end: string;
  startIsDate: boolean;
  endIsDate: boolean;
  summary: string;
  description: string | null;
  status: string;
}

function parse(body: string): ParsedEvent[] {
  const root = new ICAL.Component(ICAL.parse(body) as unknown as unknown[]);
  assert.equal(root.name, 'vcalendar');
  assert.equal(root.getFirstPropertyValue('version'), '2.0');
  assert.ok(String(root.getFirstPropertyValue('prodid')).includes('Staykit'));
  return root.getAllSubcomponents('vevent').map((vevent) => {
    const event = new ICAL.Event(vevent);
    assert.ok(vevent.getFirstPropertyValue('dtstamp'), 'DTSTAMP is required by RFC 5545');
    return {
      uid: event.uid,
      start: event.startDate.toString(),
      end: event.endDate.toString(),
      startIsDate: event.startDate.isDate,
      endIsDate: event.endDate.isDate,
      summary: event.summary,
      description: (vevent.getFirstPropertyValue('description') as string | null) ?? null,
      status: String(vevent.getFirstPropertyValue('status')),
    };
  });
}

forEachBackend('iCal export', (ctx) => {
  let feedApp: FastifyInstance;
  let base: string;
  let server: FeedServer;
  let org: { id: string; key: string };
  let product: Awaited<ReturnType<typeof createProduct>>;
  let booking: Awaited<ReturnType<typeof createBooking>>;
  let blockId: string;
  let tentativeId: string;
  let calendarId: string;

  before(async () => {
    feedApp = await startApp(ctx.db);
    await feedApp.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(feedApp.server.address() as AddressInfo).port}`;
    server = await startFeedServer();
    org = await createOrganization(ctx.db, 'Export Org');
    product = await createProduct(ctx.db, org.id, 'Dune House');
    booking = await createBooking(ctx.db, org.id, product.id, day(5), day(9), { first: 'Anna', last: 'de Vries' }, 2);
    blockId = await createBlock(ctx.db, org.id, product.id, day(20), day(23), 'Owner stay');
    const tentative = await createBooking(ctx.db, org.id, product.id, day(30), day(33), { first: 'Bram', last: 'Jansen' }, 0, 'TENTATIVE');
    tentativeId = tentative.eventId;
    // Not exported: a cancelled booking, a note, another unit's booking, a long-past block.
    const cancelled = await createBooking(ctx.db, org.id, product.id, day(40), day(42), { first: 'Cees', last: 'Cancelled' });
    await ctx.db.query(`UPDATE api.calendar_events SET status = 'CANCELLED' WHERE id = $1`, [cancelled.eventId]);
    await fixtures(ctx.db, org.id).event(product.id, { type: 'note', start_date: day(50), end_date: day(51), title: 'Fix the tap' });
    const other = await createProduct(ctx.db, org.id, 'Other Unit');
    await createBooking(ctx.db, org.id, other.id, day(60), day(62), { first: 'Dirk', last: 'Other' });
    await createBlock(ctx.db, org.id, product.id, day(-200), day(-190), 'Long ago');
    // An event imported from an Airbnb calendar.
    calendarId = await createCalendar(ctx.db, org.id, product.id, server.url('/airbnb.ics'), { name: 'Airbnb' });
    server.set('/airbnb.ics', airbnbFeed([airbnbReservation('abnb1', 70, 74)]));
    assert.equal((await syncCalendar(ctx.db, { id: calendarId, organization_id: org.id }, { allowPrivate: true })).status, 'ok');
  });
  after(async () => {
    await feedApp.close();
    await server.close();
  });

  const get = (path: string, headers: Record<string, string> = {}) => feedApp.inject({ method: 'GET', url: path, headers });

  it('serves the details feed: valid iCalendar, all-day dates, exclusive DTEND, guest and reference', async () => {
    const response = await get(`/v1/ical/${product.ical_export_secret}.ics`);
    assert.equal(response.statusCode, 200);
    assert.equal(response.headers['content-type'], 'text/calendar; charset=utf-8');
    assert.ok(response.headers.etag);
    assert.ok(response.body.includes('\r\n'), 'CRLF line endings');
    assert.ok(response.body.split('\r\n').every((line) => Buffer.byteLength(line) <= 75), 'lines folded at 75 octets');
    assert.ok(response.body.includes(`DTSTART;VALUE=DATE:${day(5).replaceAll('-', '')}`));
    assert.ok(response.body.includes(`DTEND;VALUE=DATE:${day(9).replaceAll('-', '')}`));
    const events = parse(response.body);
    assert.ok(events.every((e) => e.startIsDate && e.endIsDate));
    const byUid = new Map(events.map((e) => [e.uid, e]));
    assert.deepEqual([...byUid.keys()].sort(), [
      `${booking.eventId}@staykit`, `${booking.eventId}-padding@staykit`, `${blockId}@staykit`, `${tentativeId}@staykit`,
      `${(await importedEvents(ctx.db, calendarId))[0]!.id}@staykit`,
    ].sort());
    const main = byUid.get(`${booking.eventId}@staykit`)!;
    assert.deepEqual([main.start, main.end, main.status], [day(5), day(9), 'CONFIRMED']);
    assert.equal(main.summary, `Anna de Vries (${booking.reference})`);
    assert.match(main.description!, new RegExp(`Reference: ${booking.reference}`));
    // The cooldown after the stay is its own block from the checkout date.
    const padding = byUid.get(`${booking.eventId}-padding@staykit`)!;
    assert.deepEqual([padding.start, padding.end], [day(9), day(11)]);
    assert.equal(byUid.get(`${blockId}@staykit`)!.summary, 'Owner stay');
    assert.equal(byUid.get(`${tentativeId}@staykit`)!.status, 'TENTATIVE');
  });

  it('the no-details feed says only Booked / Blocked', async () => {
    const response = await get(`/v1/ical/${product.ical_export_secret_no_details}.ics`);
    assert.equal(response.statusCode, 200);
    const events = parse(response.body);
    assert.equal(events.length, 5);
    assert.deepEqual(new Set(events.map((e) => e.summary)), new Set(['Booked', 'Blocked']));
    assert.ok(events.every((e) => e.description === null));
    for (const secret of ['Anna', 'Vries', booking.reference, 'Owner stay', 'Bram', 'Reserved']) {
      assert.ok(!response.body.includes(secret), `no-details feed must not contain ${secret}`);
    }
  });

  it('UIDs and bodies are stable; ETag / If-None-Match → 304; HEAD', async () => {
    const first = await get(`/v1/ical/${product.ical_export_secret}.ics`);
    const second = await get(`/v1/ical/${product.ical_export_secret}.ics`);
    assert.equal(first.body, second.body);
    assert.equal(first.headers.etag, second.headers.etag);
    const cached = await get(`/v1/ical/${product.ical_export_secret}.ics`, { 'if-none-match': String(first.headers.etag) });
    assert.equal(cached.statusCode, 304);
    assert.equal(cached.body, '');
    assert.equal(cached.headers.etag, first.headers.etag);
    const weak = await get(`/v1/ical/${product.ical_export_secret}.ics`, { 'if-none-match': `"other", W/${first.headers.etag}` });
    assert.equal(weak.statusCode, 304);
    const head = await feedApp.inject({ method: 'HEAD', url: `/v1/ical/${product.ical_export_secret}.ics` });
    assert.equal(head.statusCode, 200);
    // A change to the calendar changes the ETag.
    await ctx.db.query(`UPDATE api.calendar_events SET title = 'Owner stay (2)' WHERE id = $1`, [blockId]);
    const changed = await get(`/v1/ical/${product.ical_export_secret}.ics`, { 'if-none-match': String(first.headers.etag) });
    assert.equal(changed.statusCode, 200);
    assert.notEqual(changed.headers.etag, first.headers.etag);
  });

  it('unknown, malformed and retired secrets are a plain 404', async () => {
    const responses = await Promise.all([
      get('/v1/ical/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA.ics'),
      get(`/v1/ical/${product.ical_export_secret}`),
      get(`/v1/ical/${product.ical_export_secret}.ics.ics`),
      get('/v1/ical/short.ics'),
      get("/v1/ical/x'%20OR%201=1--.ics"),
    ]);
    for (const response of responses) {
      assert.equal(response.statusCode, 404);
      assert.equal(response.body, 'Not Found');
    }
    const retired = await createProduct(ctx.db, org.id, 'Retired');
    await ctx.db.query('UPDATE api.products SET deleted_at = now() WHERE id = $1', [retired.id]);
    assert.equal((await get(`/v1/ical/${retired.ical_export_secret}.ics`)).statusCode, 404);
  });

  it('exclude_calendar leaves out what came from that calendar', async () => {
    const all = parse((await get(`/v1/ical/${product.ical_export_secret_no_details}.ics`)).body);
    const without = parse((await get(`/v1/ical/${product.ical_export_secret_no_details}.ics?exclude_calendar=${calendarId}`)).body);
    assert.equal(without.length, all.length - 1);
    assert.ok(!without.some((e) => e.start === day(70)));
    assert.equal((await get(`/v1/ical/${product.ical_export_secret_no_details}.ics?exclude_calendar=nope`)).statusCode, 400);
  });

  it('rotation: PATCH /v1/products with a secret set to null → old URL 404, new URL works', async () => {
    const app = await startApp(ctx.db);
    try {
      const patched = await app.inject({
        // The secrets are named: select=* leaves them out (docs/ical.md#who-may-read-the-secrets).
        method: 'PATCH', url: `/v1/products?id=eq.${product.id}&select=ical_export_secret,ical_export_secret_no_details`,
        headers: { ...bearer(org.key), prefer: 'return=representation' },
        payload: { ical_export_secret: null },
      });
      assert.equal(patched.statusCode, 200, patched.body);
      const row = (patched.json() as { ical_export_secret: string; ical_export_secret_no_details: string }[])[0]!;
      assert.notEqual(row.ical_export_secret, product.ical_export_secret);
      assert.equal(row.ical_export_secret_no_details, product.ical_export_secret_no_details, 'the other secret stays');
      assert.equal((await get(`/v1/ical/${product.ical_export_secret}.ics`)).statusCode, 404);
      assert.equal((await get(`/v1/ical/${row.ical_export_secret}.ics`)).statusCode, 200);
      assert.equal((await get(`/v1/ical/${product.ical_export_secret_no_details}.ics`)).statusCode, 200);
      product.ical_export_secret = row.ical_export_secret;
    } finally {
      await app.close();
    }
  });

  it('an exported feed re-imported into a second unit reproduces the same blocked dates', async () => {
    const mirrorUnit = await createProduct(ctx.db, org.id, 'Mirror Unit');
    const url = `${base}/v1/ical/${product.ical_export_secret_no_details}.ics`;
    const calendar = await createCalendar(ctx.db, org.id, mirrorUnit.id, url, { name: 'Dune House' });
    const report = await syncCalendar(ctx.db, { id: calendar, organization_id: org.id }, { allowPrivate: true });
    assert.equal(report.status, 'ok', report.error ?? '');
    const blocked = async (productId: string) => (await ctx.db.query<{ start_date: string; end_date: string }>(
      `SELECT start_date::text AS start_date, (end_date + padding)::text AS end_date FROM api.calendar_events
        WHERE product_id = $1 AND status <> 'CANCELLED' AND type IN ('booking', 'blocked period') AND end_date > current_date
        ORDER BY start_date`, [productId])).rows;
    // Same blocked days (the source's booking + its cooldown arrive as two adjacent blocks).
    const days = (ranges: { start_date: string; end_date: string }[]) =>
      ranges.flatMap((r) => { const out = []; for (let d = r.start_date; d < r.end_date; d = new Date(Date.parse(d) + 86_400_000).toISOString().slice(0, 10)) out.push(d); return out; }).sort();
    assert.deepEqual(days(await blocked(mirrorUnit.id)), days(await blocked(product.id)));
    assert.equal(server.hits('/airbnb.ics') > 0, true);
  });

  it('next to the resource API: /v1/ical/<secret>.ics needs no key and is not taken for a table', async () => {
    const app = await startApp(ctx.db);
    try {
      const feed = await app.inject({ method: 'GET', url: `/v1/ical/${product.ical_export_secret_no_details}.ics` });
      assert.equal(feed.statusCode, 200);
      assert.equal(feed.headers['content-type'], 'text/calendar; charset=utf-8');
      const unknown = await app.inject({ method: 'GET', url: '/v1/ical/BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB.ics' });
      assert.equal(unknown.statusCode, 404);
      // The resource API still answers (and still wants a key).
      const products = await app.inject({ method: 'GET', url: '/v1/products' });
      assert.equal(products.statusCode, 401);
    } finally {
      await app.close();
    }
  });
});
