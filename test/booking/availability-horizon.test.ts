/**
 * The availability index's horizon (docs/booking.md#availability-index) moved with a settable clock: a later date
 * adds the new days (computed like the others: an event there blocks them) and drops the past ones; a product
 * created meanwhile has its rows from the start.
 */
import { before, it } from 'node:test';
import assert from 'node:assert/strict';
import { forEachBackend } from '../support/databases.js';
import { createOrganization } from '../support/app.js';
import { addDays } from '../../src/common/dates.js';
import { rollAvailabilityHorizon } from '../../src/booking/availability-horizon.js';
import { fixtures } from '../support/fixtures.js';

forEachBackend('Availability index horizon', (ctx) => {
  let product: string;
  let f: ReturnType<typeof fixtures>;

  before(async () => {
    const org = await createOrganization(ctx.db, 'Horizon');
    f = fixtures(ctx.db, org.id);
    product = await f.product();
  });

  const span = async (id: string) => (await ctx.db.query<{ first: string; last: string; days: number }>(
    `SELECT min(date)::text AS first, max(date)::text AS last, count(*)::int AS days
     FROM staykit_internal.availability_days WHERE product_id = $1`, [id])).rows[0]!;

  it('moves to a later date: new days computed, past days gone', async () => {
    const { rows } = await ctx.db.query<{ today: string }>('SELECT current_date::text AS today');
    const later = addDays(rows[0]!.today, 30);
    await f.configuration(product, { intervals: `{[${addDays(later, 380)},${addDays(later, 420)})}` });
    await f.event(product, { start_date: addDays(later, 398), end_date: addDays(later, 402), type: 'blocked period' });

    assert.ok(await rollAvailabilityHorizon(ctx.db, new Date(`${later}T12:00:00Z`)) > 0);
    assert.deepEqual(await span(product), { first: addDays(later, -1), last: addDays(later, 499), days: 501 });
    const { rows: tail } = await ctx.db.query<{ date: string; governed: boolean; blockers: number }>(
      `SELECT date::text, governed, blockers FROM staykit_internal.availability_days
       WHERE product_id = $1 AND date BETWEEN $2 AND $3 ORDER BY date`, [product, addDays(later, 396), addDays(later, 399)]);
    assert.deepEqual(tail, [396, 397, 398, 399].map((offset) => ({
      date: addDays(later, offset), governed: true, blockers: offset >= 398 ? 4 : 0,
    })));
    // The same date again adds nothing.
    assert.equal(await rollAvailabilityHorizon(ctx.db, new Date(`${later}T18:00:00Z`)), 0);
  });
});
