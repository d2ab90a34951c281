import { before, it } from 'node:test';
import assert from 'node:assert/strict';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { forEachBackend } from '../support/databases.js';
import { createOrganization } from '../support/app.js';
import { fixtures, insert } from '../support/fixtures.js';
import { PAYLOAD_SCHEMAS } from '../../src/webhooks/payload-schemas.js';
import { emitDueProductEvents } from '../../src/webhooks/product-events.js';

interface ProductEvent { event_type: string; payload: { product_id: string; from: string | null; to: string | null; source?: string } }

const ajv = new Ajv2020({ allErrors: true, strict: false });
(addFormats as unknown as (instance: Ajv2020) => void)(ajv);

function assertValid(event: ProductEvent): void {
  const validate = ajv.compile(PAYLOAD_SCHEMAS[event.event_type]!);
  assert.ok(validate(event.payload), `${event.event_type}: ${ajv.errorsText(validate.errors)}`);
}

const later = (at: Date, seconds: number) => new Date(at.getTime() + seconds * 1000);

forEachBackend('availability.changed and rates.changed webhook events', (ctx) => {
  let org: { id: string };
  let f: ReturnType<typeof fixtures>;

  /** The organization's availability/rates notifications, oldest first. */
  const productEvents = async (product: string) => (await ctx.db.query<ProductEvent>(
    `SELECT event_type, payload -> 'payload' AS payload FROM api.webhook_notifications
     WHERE organization_id = $1 AND event_type IN ('availability.changed', 'rates.changed')
       AND payload -> 'payload' ->> 'product_id' = $2
     ORDER BY created_at, event_type, payload -> 'payload' ->> 'source'`, [org.id, product])).rows;

  before(async () => {
    org = await createOrganization(ctx.db, 'Availability events');
    f = fixtures(ctx.db, org.id);
    await f.webhook({ events: ['availability.changed', 'rates.changed'] });
  });

  it('a burst of five calendar changes to one unit within a second is one availability.changed with the merged dates', async () => {
    const product = await f.product();
    const start = new Date();
    const first = await f.event(product, { start_date: '2027-05-10', end_date: '2027-05-12' });
    await f.event(product, { start_date: '2027-05-03', end_date: '2027-05-05' });
    await ctx.db.query(`UPDATE api.calendar_events SET end_date = '2027-05-14' WHERE id = $1`, [first]);
    const blocked = await f.event(product, { type: 'blocked period', start_date: '2027-05-20', end_date: '2027-05-21', padding: 1 });
    await ctx.db.query(`DELETE FROM api.calendar_events WHERE id = $1`, [blocked]);

    await emitDueProductEvents(ctx.db, start);
    assert.deepEqual(await productEvents(product), [], 'nothing is sent before the second is over');
    await emitDueProductEvents(ctx.db, later(start, 60));
    const events = await productEvents(product);
    assert.deepEqual(events, [{ event_type: 'availability.changed', payload: { product_id: product, from: '2027-05-03', to: '2027-05-22' } }],
      'one event, from the earliest changed date to the end of the latest (its cleaning day included)');
    assertValid(events[0]!);

    await emitDueProductEvents(ctx.db, later(start, 120));
    assert.equal((await productEvents(product)).length, 1, 'an emitted event is not sent again');
    await ctx.db.query(`UPDATE api.calendar_events SET status = 'CANCELLED' WHERE id = $1`, [first]);
    await emitDueProductEvents(ctx.db, later(new Date(), 60));
    assert.deepEqual((await productEvents(product)).at(-1)?.payload, { product_id: product, from: '2027-05-10', to: '2027-05-14' },
      'a later change is a new event with only its own dates');
  });

  it("a stay in a room changes its villa's availability too (related units)", async () => {
    const villa = await f.product({ name: { default: 'Villa' } });
    const room = await f.product({ name: { default: 'Room' }, parent_id: villa });
    await f.event(room, { start_date: '2027-08-01', end_date: '2027-08-04' });
    await emitDueProductEvents(ctx.db, later(new Date(), 60));
    for (const unit of [room, villa]) {
      assert.deepEqual((await productEvents(unit)).map((event) => event.payload), [{ product_id: unit, from: '2027-08-01', to: '2027-08-04' }]);
    }
  });

  it('a rate change is rates.changed with its source; a per-date closing is availability.changed too', async () => {
    const product = await f.product();
    const configuration = await f.configuration(product, { intervals: '{[2027-01-01,2027-07-01)}' });
    await insert(ctx.db, 'pricelabs_pricing', { organization_id: org.id, product_id: product, date: '2027-03-04', price: 12000 });
    await emitDueProductEvents(ctx.db, later(new Date(), 60));
    const before = (await productEvents(product)).length;

    await ctx.db.query(`UPDATE api.product_configurations SET rates = $2 WHERE id = $1`,
      [configuration, JSON.stringify([{ duration: 1, occupancy: 1, rate: 12500 }])]);
    await insert(ctx.db, 'price_calendar_entries', { organization_id: org.id, product_id: product, date: '2027-04-02', rate: 9000 });
    await ctx.db.query(`UPDATE api.pricelabs_pricing SET price = 13000 WHERE product_id = $1`, [product]);
    await emitDueProductEvents(ctx.db, later(new Date(), 60));
    const events = (await productEvents(product)).slice(before);
    assert.deepEqual(events.map((event) => [event.event_type, event.payload]), [
      ['rates.changed', { product_id: product, from: '2027-01-01', to: '2027-07-01', source: 'configuration' }],
      ['rates.changed', { product_id: product, from: '2027-04-02', to: '2027-04-03', source: 'per_date' }],
      ['rates.changed', { product_id: product, from: '2027-03-04', to: '2027-03-05', source: 'pricelabs' }],
    ], 'a price-only change says nothing about availability');
    for (const event of events) assertValid(event);

    await ctx.db.query(`UPDATE api.price_calendar_entries SET closed = true WHERE product_id = $1`, [product]);
    await emitDueProductEvents(ctx.db, later(new Date(), 60));
    const closed = (await productEvents(product)).slice(before + events.length);
    assert.deepEqual(closed.map((event) => [event.event_type, event.payload]),
      [['availability.changed', { product_id: product, from: '2027-04-02', to: '2027-04-03' }]]);
    assertValid(closed[0]!);
  });

  it('a configuration without intervals changes every date: from and to are null', async () => {
    const product = await f.product();
    await f.configuration(product, { intervals: '{}' });
    await emitDueProductEvents(ctx.db, later(new Date(), 60));
    const events = await productEvents(product);
    assert.deepEqual(events.map((event) => event.payload),
      [{ product_id: product, from: null, to: null }, { product_id: product, from: null, to: null, source: 'configuration' }]);
    for (const event of events) assertValid(event);
  });

  it('an organization without a webhook for them gets no events and keeps nothing pending', async () => {
    const other = await createOrganization(ctx.db, 'No availability webhook');
    const otherFixtures = fixtures(ctx.db, other.id);
    await otherFixtures.event(await otherFixtures.product(), { start_date: '2027-05-03', end_date: '2027-05-05' });
    const { rows } = await ctx.db.query<{ pending: number }>(
      'SELECT count(*)::int AS pending FROM staykit_internal.product_event_pending WHERE organization_id = $1', [other.id]);
    assert.equal(rows[0]!.pending, 0);
  });
});
