import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { forEachBackend } from '../support/databases.js';
import { createOrganization } from '../support/app.js';
import { client, startBookingApp } from './support.js';
import { fixtures, insert } from '../support/fixtures.js';

interface Result { productId: string; match: boolean; occupancyMatches: boolean; optionsMatch: boolean; availability: string | null; price: { min: number; max: number } | null }

forEachBackend('POST /v1/search', (ctx) => {
  let app: FastifyInstance;
  let api: ReturnType<typeof client>;
  let small: string;
  let large: string;
  let closed: string;
  let booked: string;
  let adults: string;
  let pool: string;
  let seaView: string;

  before(async () => {
    app = await startBookingApp(ctx.db);
    const org = await createOrganization(ctx.db, 'Search');
    api = client(app, org.key);
    const f = fixtures(ctx.db, org.id);
    adults = await f.group('Adults');
    const attribute = await insert<{ id: string }>(ctx.db, 'attributes', { organization_id: org.id, name: JSON.stringify({ default: 'Features' }) });
    pool = (await insert<{ id: string }>(ctx.db, 'attribute_options', { organization_id: org.id, attribute_id: attribute.id, name: JSON.stringify({ default: 'Pool' }) })).id;
    seaView = (await insert<{ id: string }>(ctx.db, 'attribute_options', { organization_id: org.id, attribute_id: attribute.id, name: JSON.stringify({ default: 'Sea view' }) })).id;
    small = await f.product({ name: { default: 'Small' } });
    large = await f.product({ name: { default: 'Large' } });
    closed = await f.product({ name: { default: 'Closed' } });
    booked = await f.product({ name: { default: 'Booked' } });
    const gone = await f.product({ name: { default: 'Gone' }, deleted_at: '2027-01-01T00:00:00Z' });
    await f.configuration(small, { rates: [{ duration: 1, occupancy: 1, rate: 8000 }, { duration: 1, occupancy: 2, rate: 9000 }] });
    await f.configuration(large, { rates: [{ duration: 1, occupancy: 1, rate: 15000 }, { duration: 1, occupancy: 4, rate: 20000 }] });
    await f.configuration(booked, { rates: [{ duration: 1, occupancy: 1, rate: 7000 }] });
    await f.configuration(gone, { rates: [{ duration: 1, occupancy: 1, rate: 7000 }] });
    await f.capacity(small, adults, 1, 2);
    await f.capacity(large, adults, 1, 6);
    await f.service(large, { name: { default: 'Cleaning' }, type: 'fee', pricing: { per: 'stay', amount: 6000 } });
    await f.event(booked, { start_date: '2027-03-10', end_date: '2027-03-20' });
    for (const [product, option] of [[small, seaView], [large, seaView], [large, pool]] as const) {
      await insert(ctx.db, 'product_attribute_options', { organization_id: org.id, product_id: product, attribute_option_id: option });
    }
  });
  after(() => app.close());

  const search = async (body: unknown) => {
    const response = await api.post('/v1/search', body);
    assert.equal(response.statusCode, 200, response.body);
    return new Map((response.json() as Result[]).map((result) => [result.productId, result]));
  };

  it('without an interval: every active product with its nightly rate range', async () => {
    const results = await search({});
    assert.deepEqual([...results.keys()].sort(), [small, large, closed, booked].sort());
    assert.deepEqual(results.get(small)!.price, { min: 8000, max: 9000 });
    assert.equal(results.get(small)!.availability, null);
    assert.equal(results.get(closed)!.price, null);
  });

  it('with a stay, occupancy and options: matches, reasons and the price of the stay', async () => {
    const results = await search({ interval: { start: '2027-03-12', end: '2027-03-14' }, occupancy: { [adults]: 4 }, option_ids: [pool] });
    // Large: 2 nights × 20000 (4 adults) + cleaning 6000 = 46000.
    assert.deepEqual(results.get(large), { productId: large, match: true, occupancyMatches: true, optionsMatch: true, availability: 'available', price: { min: 46000, max: 46000 } });
    const smallResult = results.get(small)!;
    assert.equal(smallResult.match, false);
    assert.equal(smallResult.occupancyMatches, false);
    assert.equal(smallResult.optionsMatch, false);
    assert.equal(results.get(booked)!.availability, 'unavailable');
    assert.equal(results.get(booked)!.price, null);
    assert.equal(results.get(closed)!.availability, 'unavailable');
  });

  it('honours show_booked_as and show_closed_as', async () => {
    const results = await search({ interval: { start: '2027-03-12', end: '2027-03-14' }, show_booked_as: 'booked', show_closed_as: 'closed' });
    assert.equal(results.get(booked)!.availability, 'booked');
    assert.equal(results.get(closed)!.availability, 'closed');
    // Without an occupancy, prices are for one guest: 2 nights × 8000.
    assert.deepEqual(results.get(small)!.price, { min: 16000, max: 16000 });
    assert.equal(results.get(small)!.match, true);
  });

  it('rolls children up into their parent: it matches when a child does, its price spans the matching children', async () => {
    const org = await createOrganization(ctx.db, 'Search parents');
    const f = fixtures(ctx.db, org.id);
    const roomType = await f.product({ name: { default: 'Double room' } }); // no configuration of its own
    const rooms = [];
    for (const [name, rate] of [['Room 1', 5000], ['Room 2', 6000], ['Room 3', 7000]] as const) {
      const room = await f.product({ name: { default: name }, parent_id: roomType });
      await f.configuration(room, { rates: [{ duration: 1, occupancy: 1, rate }] });
      rooms.push(room);
    }
    await f.event(rooms[0]!, { start_date: '2027-03-10', end_date: '2027-03-20' });
    const response = await client(app, org.key).post('/v1/search', { interval: { start: '2027-03-12', end: '2027-03-14' } });
    assert.equal(response.statusCode, 200, response.body);
    const results = new Map((response.json() as Result[]).map((result) => [result.productId, result]));
    assert.equal(results.get(rooms[0]!)!.match, false);
    assert.deepEqual(results.get(rooms[1]!)!.price, { min: 12000, max: 12000 });
    assert.deepEqual(results.get(roomType), {
      productId: roomType, match: true, occupancyMatches: true, optionsMatch: true, availability: 'available',
      price: { min: 12000, max: 14000 },
    });
    // Once every room is taken, the room type is not bookable either.
    await f.event(rooms[1]!, { start_date: '2027-03-12', end_date: '2027-03-13' });
    await f.event(rooms[2]!, { start_date: '2027-03-13', end_date: '2027-03-14', type: 'blocked period' });
    const full = await client(app, org.key).post('/v1/search', { interval: { start: '2027-03-12', end: '2027-03-14' } });
    const parent = (full.json() as Result[]).find((result) => result.productId === roomType)!;
    assert.deepEqual([parent.match, parent.availability, parent.price], [false, 'unavailable', null]);
  });

  it('answers bad input with 400, the code and the field', async () => {
    const cases: [Record<string, unknown>, string, RegExp][] = [
      [{ occupancy: { nope: 1 } }, 'SK603', /nope/],
      [{ option_ids: 'pool' }, 'SK601', /option_ids/],
      [{ interval: { start: '2027-03-14', end: '2027-03-12' } }, 'SK601', /interval/],
      [{ show_closed_as: 'open' }, 'SK601', /show_closed_as/],
    ];
    for (const [body, code, field] of cases) {
      const response = await api.post('/v1/search', body);
      assert.equal(response.statusCode, 400, JSON.stringify(body));
      assert.equal(response.json().code, code, response.body);
      assert.match(response.json().message, field, response.body);
    }
  });
});
