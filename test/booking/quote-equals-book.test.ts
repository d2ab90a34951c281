import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { forEachBackend } from '../support/databases.js';
import { createOrganization } from '../support/app.js';
import { client, startBookingApp } from './support.js';
import { fixtures } from '../support/fixtures.js';

interface Item { item_type: string; fee_type: string; name: string; quantity: number; amount: number; service_id?: string; taxes: { tax_id: string; name: string; percentage: number; inclusive: boolean; amount: number }[] }

forEachBackend('/v1/quote is exactly what /v1/book charges', (ctx) => {
  let app: FastifyInstance;
  let api: ReturnType<typeof client>;
  let product: string;
  let adults: string;
  const svc: Record<string, string> = {};

  before(async () => {
    app = await startBookingApp(ctx.db);
    const org = await createOrganization(ctx.db, 'Equality');
    api = client(app, org.key);
    const f = fixtures(ctx.db, org.id);
    adults = await f.group('Adults');
    product = await f.product();
    await f.configuration(product, {
      rates: [{ duration: 1, occupancy: 1, rate: 10333 }, { duration: 7, occupancy: 2, rate: 9111 }],
      long_rent_adjustments: [{ min_duration: 7, percentage: -12.5 }],
      early_bird_adjustments: [{ min_advance: 60, percentage: -7 }],
      last_minute_adjustments: [{ max_advance: 3, percentage: 15 }],
    });
    svc.cleaning = await f.service(product, { name: { default: 'Cleaning' }, type: 'fee', pricing: { per: 'stay', amount: 4999 } });
    svc.breakfast = await f.service(product, { name: { default: 'Breakfast' }, type: 'checkbox', pricing: { per: 'guest_night', amount: 1275 } });
    svc.deposit = await f.service(product, { name: { default: 'Deposit' }, type: 'fee', pricing: { per: 'stay', amount: 25000, deposit: true } });
    await f.tax(product, { name: 'VAT', percentage: 9, inclusive: true, applies_to: 'all' });
    await f.tax(product, { name: 'City tax', percentage: 6.5, inclusive: false, applies_to: 'rent' });
    await f.tax(product, { name: 'Service tax', percentage: 3, inclusive: false, applies_to: 'services' });
    await f.coupon({ code: 'SAVE10', definition: { type: 'percentage', value: 10 } });
    await f.coupon({ code: 'RENT', scope: 'rent', definition: { type: 'fixed', value: 3333 } });
    await f.coupon({ code: 'BREAKFAST', scope: 'service', definition: { type: 'percentage', value: 50 } }, [], [svc.breakfast]);
    await f.coupon({ code: 'S1', stackable: true, definition: { type: 'fixed', value: 777 } });
    await f.coupon({ code: 'S2', stackable: true, definition: { type: 'percentage', value: 3.3 } });
  });
  after(() => app.close());

  const scenarios: [string, Record<string, unknown>][] = [
    ['two nights', { interval: { start: '2027-03-15', end: '2027-03-17' } }],
    ['long stay with breakfast', { interval: { start: '2027-03-15', end: '2027-03-24' }, occupancy: 2, breakfast: true }],
    ['early bird with a global coupon', { interval: { start: '2027-05-10', end: '2027-05-13' }, coupons: ['SAVE10'] }],
    ['last minute with a rent coupon', { interval: { start: '2027-03-03', end: '2027-03-05' }, coupons: ['rent'] }],
    ['service coupon', { interval: { start: '2027-03-15', end: '2027-03-18' }, breakfast: true, coupons: ['BREAKFAST'] }],
    ['stacked coupons, long early stay', { interval: { start: '2027-06-01', end: '2027-06-15' }, occupancy: 2, breakfast: true, coupons: ['S1', 's2'] }],
  ];

  for (const [name, scenario] of scenarios) {
    it(name, async () => {
      const body = {
        product_id: product, interval: scenario.interval, occupancy: { [adults]: scenario.occupancy ?? 1 },
        form_values: scenario.breakfast ? { [svc.breakfast!]: true } : {}, coupon_codes: scenario.coupons ?? [],
      };
      const quoteResponse = await api.post('/v1/quote', body);
      assert.equal(quoteResponse.statusCode, 200, quoteResponse.body);
      const quote = quoteResponse.json() as { total: number; deposit: number; line_items: Item[] };
      const booked = await api.post('/v1/book', body);
      assert.equal(booked.statusCode, 201, booked.body);
      const bookingId = booked.json().booking_id as string;

      const { rows } = await ctx.db.query<Item & { name: Record<string, string>; id: string; service_id: string | null }>(
        'SELECT id, item_type, fee_type, name, quantity, amount, service_id FROM api.line_items WHERE booking_id = $1', [bookingId]);
      const taxes = await ctx.db.query<{ line_item_id: string; tax_id: string; name: string; percentage: number | string; inclusive: boolean; amount: number }>(
        'SELECT line_item_id, tax_id, name, percentage::float8 AS percentage, inclusive, amount FROM api.line_item_taxes WHERE line_item_id = ANY ($1::uuid[])',
        [rows.map((row) => row.id)]);
      const stored = rows.map((row) => ({
        item_type: row.item_type, fee_type: row.fee_type, name: row.name.default ?? '', quantity: row.quantity, amount: row.amount,
        ...(row.service_id ? { service_id: row.service_id } : {}),
        taxes: taxes.rows.filter((t) => t.line_item_id === row.id)
          .map((t) => ({ tax_id: t.tax_id, name: t.name, percentage: Number(t.percentage), inclusive: t.inclusive, amount: t.amount })),
      }));
      const key = (item: Item) => `${item.item_type}|${item.name}|${item.fee_type}`;
      const sortItems = (items: Item[]) => [...items].map((item) => ({ ...item, taxes: [...item.taxes].sort((a, b) => a.name.localeCompare(b.name)) }))
        .sort((a, b) => key(a).localeCompare(key(b)));
      assert.deepEqual(sortItems(stored), sortItems(quote.line_items));
      const total = stored.filter((item) => item.fee_type === 'fee').reduce((sum, item) => sum + item.amount, 0);
      const deposit = stored.filter((item) => item.fee_type === 'deposit').reduce((sum, item) => sum + item.amount, 0);
      assert.equal(total, quote.total);
      assert.equal(deposit, quote.deposit);
      assert.ok(quote.line_items.length >= 3);
      // Free the dates for the next scenario.
      await ctx.db.query(`UPDATE api.calendar_events SET status = 'CANCELLED' WHERE booking_id = $1`, [bookingId]);
    });
  }
});
