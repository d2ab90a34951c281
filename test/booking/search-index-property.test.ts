/**
 * The availability index (migration 0170, docs/booking.md#availability-index) against the computation it replaces:
 * random calendars (a parent unit with two children, a standalone unit, a daily unit priced by services) with random
 * configurations, events and closed dates, then random changes (events moved, cancelled, deleted; configurations
 * changed or deleted; dates closed and reopened; cooldowns changed; a child moved out of or into its parent). After
 * them, the stored index equals the index computed afresh, and POST /v1/search (which rules units out by the index)
 * answers what the full computation of every unit answers, for random stays and show options.
 */
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import { forEachBackend } from '../support/databases.js';
import { fuzzParameters } from '../fuzz/arbitraries.js';
import { createOrganization } from '../support/app.js';
import { addDays } from '../../src/common/dates.js';
import { inTenantTransaction } from '../../src/transaction/tenant-transaction.js';
import { evaluateSearch, loadSearchUnits, parseSearchInput } from '../../src/booking/search.js';
import { client, startBookingApp, NOW } from './support.js';
import { fixtures } from '../support/fixtures.js';

const BASE = '2027-02-20'; // NOW is 2027-03-01: stays before and after today

type Change =
  | { op: 'move'; event: number; by: number }
  | { op: 'cancel'; event: number }
  | { op: 'delete event'; event: number }
  | { op: 'reorder'; configuration: number; order: number; from: number; cooldown: number }
  | { op: 'delete configuration'; configuration: number }
  | { op: 'close'; product: number; day: number }
  | { op: 'reopen'; product: number; day: number }
  | { op: 'product cooldown'; product: number; cooldown: number }
  | { op: 'detach child' }
  | { op: 'attach child' };

interface SearchCase {
  start: number;
  nights: number;
  showBookedAs: 'booked' | 'unavailable';
  showClosedAs: 'closed' | 'unavailable';
  showPendingAs: 'CANCELLED' | 'TENTATIVE' | 'CONFIRMED';
}

/** 0 parent, 1 and 2 its children, 3 standalone, 4 daily and priced by services (its own cooldown). */
const PRODUCTS = 5;
const product = fc.integer({ min: 0, max: PRODUCTS - 1 });
const configuration = fc.record({
  product,
  from: fc.integer({ min: 0, max: 30 }),
  length: fc.integer({ min: 5, max: 60 }),
  order: fc.integer({ min: 0, max: 100 }),
  checkIn: fc.array(fc.boolean(), { minLength: 7, maxLength: 7 }),
  minDuration: fc.integer({ min: 1, max: 3 }),
  cooldown: fc.integer({ min: 0, max: 2 }),
});
const event = fc.record({
  product,
  start: fc.integer({ min: 0, max: 60 }),
  nights: fc.integer({ min: 1, max: 5 }),
  padding: fc.integer({ min: 0, max: 2 }),
  kind: fc.constantFrom('confirmed', 'tentative', 'blocked', 'cancelled', 'note'),
});
const change: fc.Arbitrary<Change> = fc.oneof(
  fc.record({ op: fc.constant('move' as const), event: fc.nat(), by: fc.integer({ min: -6, max: 6 }) }),
  fc.record({ op: fc.constant('cancel' as const), event: fc.nat() }),
  fc.record({ op: fc.constant('delete event' as const), event: fc.nat() }),
  fc.record({
    op: fc.constant('reorder' as const), configuration: fc.nat(), order: fc.integer({ min: 0, max: 100 }),
    from: fc.integer({ min: 0, max: 30 }), cooldown: fc.integer({ min: 0, max: 2 }),
  }),
  fc.record({ op: fc.constant('delete configuration' as const), configuration: fc.nat() }),
  fc.record({ op: fc.constant('close' as const), product, day: fc.integer({ min: 0, max: 60 }) }),
  fc.record({ op: fc.constant('reopen' as const), product, day: fc.integer({ min: 0, max: 60 }) }),
  fc.record({ op: fc.constant('product cooldown' as const), product, cooldown: fc.integer({ min: 0, max: 3 }) }),
  fc.constant({ op: 'detach child' as const }),
  fc.constant({ op: 'attach child' as const }),
);
const searchCase = fc.record({
  start: fc.integer({ min: -3, max: 60 }),
  nights: fc.integer({ min: 0, max: 8 }),
  showBookedAs: fc.constantFrom<SearchCase['showBookedAs']>('booked', 'unavailable'),
  showClosedAs: fc.constantFrom<SearchCase['showClosedAs']>('closed', 'unavailable'),
  showPendingAs: fc.constantFrom<SearchCase['showPendingAs']>('CANCELLED', 'TENTATIVE', 'CONFIRMED'),
});
const testCase = fc.record({
  configurations: fc.array(configuration, { minLength: 1, maxLength: 7 }),
  events: fc.array(event, { maxLength: 14 }),
  closed: fc.array(fc.tuple(product, fc.integer({ min: 0, max: 60 })), { maxLength: 4 }),
  changes: fc.array(change, { maxLength: 6 }),
  searches: fc.array(searchCase, { minLength: 1, maxLength: 4 }),
});

const date = (offset: number) => addDays(BASE, offset);

forEachBackend('The availability index equals the computation it replaces', (ctx) => {
  let app: FastifyInstance;

  before(async () => {
    app = await startBookingApp(ctx.db);
  });
  after(() => app.close());

  /** Runs `sql` as the owner; a write the database refuses (an overlap, 23P01) is a change that did not happen. */
  const attempt = async (sql: string, values: unknown[]): Promise<void> => {
    try {
      await ctx.db.query(sql, values);
    } catch (error) {
      if ((error as { code?: string }).code !== '23P01') throw error;
    }
  };

  it('for random calendars and changes: the stored index, and /search against every unit computed in full', async () => {
    await fc.assert(fc.asyncProperty(testCase, async (c) => {
      const org = await createOrganization(ctx.db, 'Search index property');
      const f = fixtures(ctx.db, org.id);
      const parent = await f.product();
      const products = [
        parent,
        await f.product({ parent_id: parent }),
        await f.product({ parent_id: parent }),
        await f.product(),
        await f.product({ rent_period: 'daily', rent_pricing_definition: 'services', cooldown_time: 1 }),
      ];
      const configurations: string[] = [];
      for (const cfg of c.configurations) {
        configurations.push(await f.configuration(products[cfg.product]!, {
          intervals: `{[${date(cfg.from)},${date(cfg.from + cfg.length)})}`, order: cfg.order, check_in_days: cfg.checkIn,
          min_duration: cfg.minDuration, cooldown_time: cfg.cooldown,
        }));
      }
      const events: string[] = [];
      for (const e of c.events) {
        // Raw: writes the event only when it overlaps none (the generated cases may overlap), in one statement.
        const { rows } = await ctx.db.query<{ id: string }>(
          `INSERT INTO api.calendar_events (organization_id, product_id, type, status, start_date, end_date, padding)
           SELECT $1, $2, $3, $4, $5, $6, $7::smallint
           WHERE NOT EXISTS (SELECT 1 FROM api.calendar_events AS o
             WHERE o.product_id = $2 AND o.status <> 'CANCELLED' AND o.type IN ('booking', 'blocked period')
               AND daterange(o.start_date, o.end_date + o.padding) && daterange($5::date, $6::date + $7::smallint))
           RETURNING id`,
          [org.id, products[e.product], e.kind === 'blocked' ? 'blocked period' : e.kind === 'note' ? 'note' : 'booking',
            e.kind === 'tentative' ? 'TENTATIVE' : e.kind === 'cancelled' ? 'CANCELLED' : 'CONFIRMED',
            date(e.start), date(e.start + e.nights), e.padding],
        ).catch((error: { code?: string }) => {
          if (error.code === '23P01') return { rows: [] }; // meets a related unit's stay
          throw error;
        });
        if (rows[0]) events.push(rows[0].id);
      }
      for (const [p, day] of c.closed) {
        // Raw: an upsert, as closing a day already closed keeps it closed (also below).
        await ctx.db.query(
          `INSERT INTO api.price_calendar_entries (organization_id, product_id, date, closed) VALUES ($1, $2, $3, true)
           ON CONFLICT (product_id, date, organization_id) DO UPDATE SET closed = true`, [org.id, products[p], date(day)]);
      }

      for (const step of c.changes) {
        const eventId = events.length > 0 && 'event' in step ? events[step.event % events.length] : undefined;
        const configurationId = configurations.length > 0 && 'configuration' in step
          ? configurations[step.configuration % configurations.length] : undefined;
        switch (step.op) {
          case 'move':
            if (eventId) {
              await attempt(`UPDATE api.calendar_events SET start_date = start_date + $2::integer, end_date = end_date + $2::integer
                             WHERE id = $1`, [eventId, step.by]);
            }
            break;
          case 'cancel':
            if (eventId) await attempt(`UPDATE api.calendar_events SET status = 'CANCELLED' WHERE id = $1`, [eventId]);
            break;
          case 'delete event':
            if (eventId) await attempt('DELETE FROM api.calendar_events WHERE id = $1', [eventId]);
            break;
          case 'reorder':
            if (configurationId) {
              await ctx.db.query(
                `UPDATE api.product_configurations SET "order" = $2, cooldown_time = $4,
                   intervals = datemultirange(daterange($3::date, $3::date + 40)) WHERE id = $1`,
                [configurationId, step.order, date(step.from), step.cooldown]);
            }
            break;
          case 'delete configuration':
            if (configurationId) await ctx.db.query('DELETE FROM api.product_configurations WHERE id = $1', [configurationId]);
            break;
          case 'close':
            await ctx.db.query(
              `INSERT INTO api.price_calendar_entries (organization_id, product_id, date, closed) VALUES ($1, $2, $3, true)
               ON CONFLICT (product_id, date, organization_id) DO UPDATE SET closed = true`, [org.id, products[step.product], date(step.day)]);
            break;
          case 'reopen':
            await ctx.db.query('DELETE FROM api.price_calendar_entries WHERE product_id = $1 AND date = $2',
              [products[step.product], date(step.day)]);
            break;
          case 'product cooldown':
            await ctx.db.query('UPDATE api.products SET cooldown_time = $2 WHERE id = $1', [products[step.product], step.cooldown]);
            break;
          case 'detach child':
            await attempt('UPDATE api.products SET parent_id = NULL WHERE id = $1', [products[2]]);
            break;
          case 'attach child':
            await attempt('UPDATE api.products SET parent_id = $2 WHERE id = $1', [products[2], parent]);
            break;
        }
      }

      // The stored rows are what a fresh computation gives.
      const { rows: drift } = await ctx.db.query<{ product_id: string; date: string }>(
        `WITH stored AS (SELECT product_id, date, governed, cooldown, blockers FROM staykit_internal.availability_days
                         WHERE organization_id = $1),
              span AS (SELECT array_agg(product_id) AS products, array_agg(first) AS firsts, array_agg(until) AS untils
                       FROM (SELECT product_id, min(date) AS first, max(date) + 1 AS until FROM stored GROUP BY product_id) AS s),
              fresh AS (SELECT c.product_id, c.date, c.governed, c.cooldown, c.blockers
                        FROM span CROSS JOIN LATERAL staykit_internal.availability_days_of(span.products, span.firsts, span.untils) AS c)
         SELECT product_id, date::text FROM ((TABLE stored EXCEPT TABLE fresh) UNION ALL (TABLE fresh EXCEPT TABLE stored)) AS d
         LIMIT 5`, [org.id]);
      assert.deepEqual(drift, []);

      const api = client(app, org.key);
      const principal = { keyRowId: null, keyId: 'test', organizationId: org.id, scopes: ['read', 'write'] };
      for (const s of c.searches) {
        const body = {
          interval: { start: date(s.start), end: date(s.start + s.nights) }, occupancy: {},
          show_booked_as: s.showBookedAs, show_closed_as: s.showClosedAs, show_pending_as: s.showPendingAs,
        };
        const response = await api.post('/v1/search', body);
        assert.equal(response.statusCode, 200, response.body);
        const input = parseSearchInput(body);
        const reference = await inTenantTransaction(ctx.db, principal, async (tx) => {
          const everyUnit = await loadSearchUnits(tx, input, false);
          return { result: await evaluateSearch(tx, input, NOW, everyUnit), rollback: true };
        });
        assert.deepEqual(response.json(), JSON.parse(JSON.stringify(reference)), JSON.stringify(body));
      }
    }), fuzzParameters(30));
  });
});
