/**
 * Sane dates (migration 0093): every date column and every timestamptz column a client writes refuses values
 * outside 1900-01-01 … 2199-12-31 (`infinity`, 4713 BC, the year 275760) with 400 23514 naming the constraint and
 * a hint with the range; rows stored before the migration keep the migration from failing, leave the constraint
 * NOT VALID, and never break a unit's iCal export, which clamps them into the range and logs it.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { copyFile, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { BACKENDS, createTestDatabase, forEachBackend, type TestDatabase } from '../support/databases.js';
import { bearer, createOrganization, startApp, type TestOrganization } from '../support/app.js';
import { fixtures, type Row } from '../support/fixtures.js';
import { buildApp } from '../../src/http/app.js';
import { migrate, MIGRATIONS_DIR } from '../../src/db/migrate.js';

const HINT = /between 1900-01-01 and 2199-12-31/;

async function createProduct(db: TestDatabase['db'], organizationId: string): Promise<{ id: string; ical_export_secret: string }> {
  return fixtures(db, organizationId).row<Row & { ical_export_secret: string }>('products', { timezone: 'UTC' });
}

forEachBackend('dates outside 1900–2199 are refused', (ctx) => {
  let app: FastifyInstance;
  let org: TestOrganization;
  let productId: string;
  before(async () => {
    app = await startApp(ctx.db);
    org = await createOrganization(ctx.db, 'Dates');
    productId = (await createProduct(ctx.db, org.id)).id;
  });
  after(async () => app.close());

  const post = (table: string, body: object) =>
    app.inject({ method: 'POST', url: `/v1/${table}`, headers: { ...bearer(org.key), prefer: 'return=representation' }, payload: body });

  function assertRefused(response: Awaited<ReturnType<typeof post>>, constraint: string): void {
    assert.equal(response.statusCode, 400, response.body);
    const body = response.json() as { code: string; message: string; hint: string };
    assert.equal(body.code, '23514');
    assert.match(body.message, new RegExp(`violates check constraint "${constraint}"`));
    assert.match(body.hint, HINT);
  }

  it('calendar events: infinity, -infinity, 4713 BC, the years 275760 and 10000 → 400 23514', async () => {
    for (const end of ['infinity', '275760-01-01', '10000-01-01', '2200-01-02']) {
      assertRefused(await post('calendar_events', { product_id: productId, start_date: '2031-01-01', end_date: end }), 'calendar_events_end_date_in_range');
    }
    for (const start of ['-infinity', '4713-01-01 BC', '1899-12-31']) {
      assertRefused(await post('calendar_events', { product_id: productId, start_date: start, end_date: '2031-01-01' }), 'calendar_events_start_date_in_range');
    }
    // The bounds themselves are fine: the first date, and an exclusive end on 2200-01-01.
    const first = await post('calendar_events', { product_id: productId, start_date: '1900-01-01', end_date: '1900-01-03' });
    assert.equal(first.statusCode, 201, first.body);
    const last = await post('calendar_events', { product_id: productId, start_date: '2199-12-30', end_date: '2200-01-01' });
    assert.equal(last.statusCode, 201, last.body);
    // A PATCH is held to the same range.
    const id = (last.json() as { id: string }[])[0]!.id;
    const patched = await app.inject({ method: 'PATCH', url: `/v1/calendar_events?id=eq.${id}`, headers: bearer(org.key), payload: { end_date: 'infinity' } });
    assertRefused(patched, 'calendar_events_end_date_in_range');
  });

  it('per-date prices, configuration intervals and client-written timestamps', async () => {
    assertRefused(await post('price_calendar_entries', { product_id: productId, date: 'infinity' }), 'price_calendar_entries_date_in_range');
    assertRefused(await post('seasons', { name: { default: 'Forever' }, intervals: '{[2027-01-01,infinity)}' }), 'seasons_intervals_in_range');
    assertRefused(await post('product_configurations', { product_id: productId, intervals: '{[-infinity,2027-01-01)}' }), 'product_configurations_intervals_in_range');
    // An unbounded side is not a date: "from 2027 on" stays allowed.
    assert.equal((await post('seasons', { name: { default: 'From 2027' }, intervals: '{[2027-01-01,)}' })).statusCode, 201);

    assertRefused(await post('tasks', { title: 'Paint', due_at: 'infinity' }), 'tasks_due_at_in_range');
    assertRefused(await post('tasks', { title: 'Paint', due_at: '2200-01-01T00:00:00Z' }), 'tasks_due_at_in_range');
    assert.equal((await post('tasks', { title: 'Paint', due_at: '2199-12-31T23:59:59Z' })).statusCode, 201);
    assertRefused(await post('invoices', { due_at: '-infinity' }), 'invoices_due_at_in_range');
    const retired = await app.inject({ method: 'PATCH', url: `/v1/products?id=eq.${productId}`, headers: bearer(org.key), payload: { deleted_at: '4713-01-01 BC' } });
    assertRefused(retired, 'products_deleted_at_in_range');
  });

  it('bounds every date column and every timestamptz column the API role may write', async () => {
    const { rows } = await ctx.db.query<{ name: string }>(`
      SELECT c.relname || '.' || a.attname AS name
      FROM pg_class AS c
      JOIN pg_namespace AS n ON n.oid = c.relnamespace
      JOIN pg_attribute AS a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
      WHERE n.nspname = 'api' AND c.relkind IN ('r', 'p')
        AND (a.atttypid IN ('date'::regtype, 'datemultirange'::regtype, 'daterange'::regtype)
             OR a.atttypid = 'timestamptz'::regtype
                AND (has_column_privilege('staykit_api', c.oid, a.attnum, 'INSERT')
                     OR has_column_privilege('staykit_api', c.oid, a.attnum, 'UPDATE')))
        AND NOT EXISTS (SELECT 1 FROM pg_constraint AS con
                        WHERE con.conrelid = c.oid AND con.contype = 'c' AND con.conname = c.relname || '_' || a.attname || '_in_range')
      ORDER BY 1`);
    assert.deepEqual(rows, []);
  });
});

describe('rows stored before the date ranges existed', () => {
  for (const backend of BACKENDS) {
    describe(`[${backend}]`, () => {
      let testDb: TestDatabase;
      let migrations: string;
      let app: FastifyInstance;
      let logs = '';
      let org: TestOrganization;
      let product: { id: string; ical_export_secret: string };
      let other: { id: string; ical_export_secret: string };

      before(async () => {
        // A database migrated up to the migration before 0093, with rows 0093 would refuse.
        testDb = await createTestDatabase(backend, { migrated: false });
        migrations = `${await mkdtemp(join(tmpdir(), 'staykit-migrations-'))}/`; // the runner appends file names
        const files = (await readdir(MIGRATIONS_DIR)).filter((name) => name.endsWith('.sql'));
        for (const name of files.filter((file) => file < '0093')) await copyFile(join(MIGRATIONS_DIR, name), join(migrations, name));
        await migrate(testDb.db, migrations);
        org = await createOrganization(testDb.db, 'Old rows');
        product = await createProduct(testDb.db, org.id);
        other = await createProduct(testDb.db, org.id);
        // Raw: dates only SQL can write (infinity, BC, year 10000), as the schema before 0093 allowed them.
        await testDb.db.query(
          `INSERT INTO api.calendar_events (organization_id, product_id, start_date, end_date, padding, title)
           VALUES ($1, $2, current_date + 10, 'infinity', 2, 'Blocked forever'),
                  ($1, $2, '4713-01-01 BC', current_date - 5, 0, 'Since forever'),
                  ($1, $3, '10000-01-01', '10000-01-05', 0, 'Far future')`,
          [org.id, product.id, other.id]);
        for (const name of files.filter((file) => file >= '0093')) await copyFile(join(MIGRATIONS_DIR, name), join(migrations, name));
        await migrate(testDb.db, migrations);
        app = await buildApp({
          db: testDb.db,
          logLevel: 'info',
          logStream: new Writable({ write(chunk, _encoding, done) { logs += chunk; done(); } }),
        });
      });
      after(async () => {
        await app?.close();
        await testDb?.drop();
        await rm(migrations, { recursive: true, force: true });
      });

      it('the migration succeeds, leaves the violated constraints NOT VALID, validates the others, and checks new rows', async () => {
        const { rows } = await testDb.db.query<{ conname: string; convalidated: boolean }>(
          `SELECT conname, convalidated FROM pg_constraint WHERE conname IN
             ('calendar_events_start_date_in_range', 'calendar_events_end_date_in_range', 'tasks_due_at_in_range') ORDER BY conname`);
        assert.deepEqual(rows.map((r) => [r.conname, r.convalidated]), [
          ['calendar_events_end_date_in_range', false],
          ['calendar_events_start_date_in_range', false],
          ['tasks_due_at_in_range', true],
        ]);
        const { rows: kept } = await testDb.db.query('SELECT 1 FROM api.calendar_events WHERE product_id = $1', [product.id]);
        assert.equal(kept.length, 2);
        const refused = await app.inject({
          method: 'POST', url: '/v1/calendar_events', headers: bearer(org.key),
          payload: { product_id: product.id, start_date: '2040-01-01', end_date: 'infinity' },
        });
        assert.equal(refused.statusCode, 400);
        assert.equal((refused.json() as { code: string }).code, '23514');
      });

      it('the iCal export still answers: out-of-range events are clamped into the range, and logged', async () => {
        const feed = await app.inject({ method: 'GET', url: `/v1/ical/${product.ical_export_secret}.ics` });
        assert.equal(feed.statusCode, 200, feed.body);
        const events = feed.body.split('BEGIN:VEVENT').slice(1);
        const forever = events.find((event) => event.includes('SUMMARY:Blocked forever'));
        assert.ok(forever, feed.body);
        assert.match(forever, /DTEND;VALUE=DATE:22000101/);
        // Its cooldown block follows the clamped end (no date overflow).
        assert.match(feed.body, /DTSTART;VALUE=DATE:22000101\r\nDTEND;VALUE=DATE:22000103/);
        const since = events.find((event) => event.includes('SUMMARY:Since forever'));
        assert.ok(since, feed.body);
        assert.match(since, /DTSTART;VALUE=DATE:19000101\r\n/);
        const far = await app.inject({ method: 'GET', url: `/v1/ical/${other.ical_export_secret}.ics` });
        assert.equal(far.statusCode, 200, far.body);
        assert.match(far.body, /DTSTART;VALUE=DATE:21991231\r\nDTEND;VALUE=DATE:22000101/);
        assert.match(logs, /were clamped into that range/);
      });
    });
  }
});
