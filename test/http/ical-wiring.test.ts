/**
 * iCal in the real app: `/availability?perform_sync=true` imports a product's feed before answering, and the
 * feed's own path (its credential) never reaches the logs.
 */
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { forEachBackend } from '../support/databases.js';
import { fixtures, type Row } from '../support/fixtures.js';
import { bearer, createOrganization, type TestOrganization } from '../support/app.js';
import { buildApp } from '../../src/http/app.js';
import { loadConfig } from '../../src/config.js';

const FEED = [
  'BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//Test//EN',
  'BEGIN:VEVENT', 'UID:airbnb-1@example.com', 'DTSTAMP:20260101T000000Z',
  'DTSTART;VALUE=DATE:20270610', 'DTEND;VALUE=DATE:20270614', 'SUMMARY:Reserved', 'END:VEVENT',
  'END:VCALENDAR', '',
].join('\r\n');

forEachBackend('iCal wiring in the app', (ctx) => {
  let app: FastifyInstance;
  let org: TestOrganization;
  let feedServer: http.Server;
  let productId: string;
  let secret: string;
  let logs = '';

  before(async () => {
    feedServer = http.createServer((_request, response) => response.writeHead(200, { 'content-type': 'text/calendar' }).end(FEED));
    await new Promise<void>((resolve) => feedServer.listen(0, '127.0.0.1', resolve));
    const port = (feedServer.address() as { port: number }).port;
    org = await createOrganization(ctx.db, 'Feeds');
    const f = fixtures(ctx.db, org.id);
    const product = await f.row<Row & { ical_export_secret: string }>('products', { name: { default: 'Loft' }, timezone: 'UTC' });
    productId = product.id;
    secret = product.ical_export_secret;
    await f.configuration(productId, { intervals: '{[2027-01-01,2028-01-01)}', rates: [{ duration: 1, occupancy: 0, rate: 100 }] });
    await f.externalCalendar(productId, { ical_url: `http://127.0.0.1:${port}/feed.ics`, name: 'Airbnb' });
    app = await buildApp({
      db: ctx.db,
      config: loadConfig({ STAYKIT_OUTBOUND_ALLOW_PRIVATE: 'true' }),
      logLevel: 'info',
      logStream: new Writable({ write(chunk, _encoding, done) { logs += chunk; done(); } }),
    });
  });
  after(async () => {
    await app.close();
    feedServer.close();
  });

  it('syncs the product calendars before answering perform_sync=true', async () => {
    const url = `/v1/availability?product_ids=${productId}&start=2027-06-01&end=2027-06-20`;
    const response = await app.inject({ method: 'GET', url: `${url}&perform_sync=true`, headers: bearer(org.key) });
    assert.equal(response.statusCode, 200, response.body);
    const [entry] = response.json() as { intervals: { start: string; end: string; status: string }[] }[];
    const blocked = entry!.intervals.find((interval) => interval.start <= '2027-06-10' && interval.end > '2027-06-10');
    assert.ok(blocked && blocked.status !== 'available', JSON.stringify(entry!.intervals));
    const { rows } = await ctx.db.query('SELECT 1 FROM api.calendar_events WHERE product_id = $1 AND uid = $2', [productId, 'airbnb-1@example.com']);
    assert.equal(rows.length, 1);
  });

  it('serves the feed and keeps its secret out of the logs', async () => {
    const feed = await app.inject({ method: 'GET', url: `/v1/ical/${secret}.ics` });
    assert.equal(feed.statusCode, 200);
    assert.match(feed.body, /BEGIN:VCALENDAR/);
    assert.ok(logs.includes('/v1/ical/[redacted].ics'), 'the feed request is logged');
    assert.ok(!logs.includes(secret), 'the secret is not');
  });
});
