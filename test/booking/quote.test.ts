import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { forEachBackend } from '../support/databases.js';
import { createOrganization } from '../support/app.js';
import { client, startBookingApp } from './support.js';
import { fixtures } from '../support/fixtures.js';

// Clock: Monday 2027-03-01 (support.ts). Every expected amount below is worked out by hand in the comment next to it.

interface Item { item_type: string; fee_type: string; name: string; quantity: number; amount: number; service_id?: string; taxes: { name: string; amount: number; inclusive: boolean }[] }
interface Quote { currency: string; total: number; deposit: number; line_items: Item[]; coupons: { code: string; amount: number }[]; valid: boolean }

const brief = (quote: Quote) => quote.line_items.map((item) => `${item.item_type}/${item.fee_type} ${item.name} x${item.quantity} = ${item.amount}`);

forEachBackend('POST /v1/quote', (ctx) => {
  let app: FastifyInstance;
  let api: ReturnType<typeof client>;
  let key: string;
  let main: string; // rates, adjustments, occupancy
  let extras: string; // services
  let taxed: string; // taxes
  let other: string;
  let adults: string;
  let children: string;
  let guests: string;
  const svc: Record<string, string> = {};

  before(async () => {
    app = await startBookingApp(ctx.db);
    const org = await createOrganization(ctx.db, 'Quotes');
    api = client(app, org.key);
    key = org.key;
    const f = fixtures(ctx.db, org.id);
    adults = await f.group('Adults', { requires_explicit_input: true });
    children = await f.group('Children');
    guests = await f.group('Guests', { type: 'sum' });
    await f.dependency(guests, adults);
    await f.dependency(guests, children);
    const config = {
      rates: [
        { duration: 1, occupancy: 1, rate: 10000 },
        { duration: 1, occupancy: 3, rate: 12000 },
        { duration: 7, occupancy: 1, rate: 9000 },
      ],
      long_rent_adjustments: [{ min_duration: 7, percentage: -10 }, { min_duration: 14, percentage: -15 }],
      early_bird_adjustments: [{ min_advance: 60, percentage: -5 }],
      last_minute_adjustments: [{ max_advance: 3, percentage: -20 }, { max_advance: 7, percentage: -10 }],
    };
    main = await f.product();
    await f.configuration(main, config);
    await f.capacity(main, adults, 1, 4);
    await f.capacity(main, children, 0, 2);
    await f.capacity(main, guests, 1, 5);

    extras = await f.product({ name: { default: 'Extras House' } });
    await f.configuration(extras, { rates: [{ duration: 1, occupancy: 1, rate: 10000 }] });
    svc.cleaning = await f.service(extras, { name: { default: 'Cleaning' }, type: 'fee', pricing: { per: 'stay', amount: 5000 } });
    svc.towels = await f.service(extras, { name: { default: 'Towels' }, type: 'quantity', max_quantity: 5, pricing: { per: 'unit', amount: 1000 } });
    svc.breakfast = await f.service(extras, { name: { default: 'Breakfast' }, type: 'checkbox', pricing: { per: 'guest_night', amount: 1500 } });
    svc.deposit = await f.service(extras, { name: { default: 'Security deposit' }, type: 'fee', pricing: { per: 'stay', amount: 20000, deposit: true } });
    svc.pet = await f.service(extras, { name: { default: 'Pet' }, type: 'checkbox', pricing: { per: 'stay', amount: 2500, deposit: 10000 } });
    svc.email = await f.service(extras, { name: { default: 'Email' }, type: 'email', required: true });
    svc.room = await f.service(extras, { name: { default: 'Room' }, type: 'select' });
    svc.roomSea = await f.option(svc.room, 'Sea view', { per: 'night', amount: 2000 });

    taxed = await f.product({ name: { default: 'Taxed House' } });
    await f.configuration(taxed, { rates: [{ duration: 1, occupancy: 1, rate: 10000 }] });
    await f.tax(taxed, { name: 'VAT', percentage: 9, inclusive: true, applies_to: 'all' });
    await f.tax(taxed, { name: 'Tourist tax', percentage: 5, inclusive: false, applies_to: 'rent' });
    await f.service(taxed, { name: { default: 'Cleaning' }, type: 'fee', pricing: { per: 'stay', amount: 5000 } });

    other = await f.product({ name: { default: 'Elsewhere' } });
    await f.coupon({ code: 'SAVE10', definition: { type: 'percentage', value: 10 } });
    await f.coupon({ code: 'RENT5K', scope: 'rent', definition: { type: 'fixed', value: 5000 } });
    await f.coupon({ code: 'DUNE15', scope: 'product', definition: { type: 'percentage', value: 15 } }, [main]);
    await f.coupon({ code: 'ELSEWHERE', scope: 'product', definition: { type: 'percentage', value: 15 } }, [other]);
    await f.coupon({ code: 'CLEANFREE', scope: 'service', definition: { type: 'percentage', value: 100 } }, [], [svc.cleaning]);
    await f.coupon({ code: 'STACK1', stackable: true, definition: { type: 'fixed', value: 1000 } });
    await f.coupon({ code: 'STACK2', stackable: true, definition: { type: 'percentage', value: 5 } });
    await f.coupon({ code: 'SPRING', definition: { type: 'percentage', value: 10, stay_from: '2027-04-01' } });
    await f.coupon({ code: 'EXPIRED', definition: { type: 'percentage', value: 10, booking_until: '2027-02-01' } });
    await f.coupon({ code: 'WEEKLONG', definition: { type: 'percentage', value: 10, min_duration: 7 } });
    await f.coupon({ code: 'GONE', deleted_at: '2027-01-01T00:00:00Z' });
    const used = await f.coupon({ code: 'USEDUP', quota: 1 });
    await f.row('coupon_uses', { coupon_id: used, booking_id: await f.booking(), amount: 100 });
  });
  after(() => app.close());

  const quote = async (body: Record<string, unknown>) => {
    const response = await api.post('/v1/quote', body);
    assert.equal(response.statusCode, 200, response.body);
    return response.json() as Quote;
  };
  const fails = async (body: Record<string, unknown>, status: number, code: string) => {
    const response = await api.post('/v1/quote', body);
    assert.equal(response.statusCode, status, response.body);
    const error = response.json();
    assert.equal(error.code, code, response.body);
    assert.deepEqual(Object.keys(error).sort(), ['code', 'details', 'hint', 'message']);
    return error as { message: string; details: string | null };
  };
  const stay = (start: string, end: string, occupancy: Record<string, number> = { [adults]: 1 }) => ({ product_id: main, interval: { start, end }, occupancy });

  describe('rent and adjustments', () => {
    it('prices a short stay from the rate for its length and occupancy', async () => {
      // 2 nights, 2 adults (G = 2): entries with duration ≤ 2 and occupancy ≤ 2 → {1, 1, 10000}; 2 × 10000.
      const result = await quote(stay('2027-03-15', '2027-03-17', { [adults]: 2 }));
      assert.deepEqual(brief(result), ['rent/fee Rent x2 = 20000']);
      assert.equal(result.total, 20000);
      assert.equal(result.deposit, 0);
      assert.equal(result.currency, 'EUR');
    });

    it('uses the largest duration, then the largest occupancy, and the long-stay adjustment', async () => {
      // 7 nights, 2 adults + 1 child (G = 3; the Guests accumulator is 3 ≤ 5): {7, 1, 9000} beats {1, 3, 12000}.
      // Rent 7 × 9000 = 63000; long stay −10 % = −6300. Total 56700.
      const result = await quote(stay('2027-03-15', '2027-03-22', { [adults]: 2, [children]: 1 }));
      assert.deepEqual(brief(result), ['rent/fee Rent x7 = 63000', 'adjustment/fee Long stay -10% x1 = -6300']);
      assert.equal(result.total, 56700);
    });

    it('uses the occupancy rate when the length has no longer entry', async () => {
      // 2 nights, 3 guests: {1, 3, 12000} → 24000.
      const result = await quote(stay('2027-03-15', '2027-03-17', { [adults]: 2, [children]: 1 }));
      assert.equal(result.total, 24000);
    });

    it('applies the early-bird adjustment', async () => {
      // Arrival 2027-05-10 is 70 days ahead (≥ 60): 3 × 10000 = 30000, −5 % = −1500 → 28500.
      const result = await quote(stay('2027-05-10', '2027-05-13'));
      assert.deepEqual(brief(result), ['rent/fee Rent x3 = 30000', 'adjustment/fee Early booking -5% x1 = -1500']);
      assert.equal(result.total, 28500);
    });

    it('applies the closest last-minute adjustment', async () => {
      // Arrival 2027-03-03 is 2 days ahead: entries ≤ 3 and ≤ 7 both fit, the smallest max_advance (3) wins: −20 %.
      // 3 × 10000 = 30000 − 6000 = 24000.
      const result = await quote(stay('2027-03-03', '2027-03-06'));
      assert.deepEqual(brief(result), ['rent/fee Rent x3 = 30000', 'adjustment/fee Last minute -20% x1 = -6000']);
      assert.equal(result.total, 24000);
    });

    it('chains adjustments on the running subtotal: long stay, then early bird', async () => {
      // 14 nights from 2027-05-10 (70 days ahead): 14 × 9000 = 126000; −15 % = −18900 → 107100; −5 % = −5355 → 101745.
      const result = await quote(stay('2027-05-10', '2027-05-24'));
      assert.deepEqual(brief(result), [
        'rent/fee Rent x14 = 126000', 'adjustment/fee Long stay -15% x1 = -18900', 'adjustment/fee Early booking -5% x1 = -5355',
      ]);
      assert.equal(result.total, 101745);
    });
  });

  describe('services', () => {
    it('prices fees, quantities, per-guest-night extras, options and deposits', async () => {
      // 2 nights, 2 adults. Rent 20000; Cleaning 5000 (stay); Towels 3 × 1000; Breakfast 1500 × 2 guests × 2 nights = 6000;
      // Security deposit 20000 (deposit); Pet 2500 + its deposit 10000; Room "Sea view" 2000 × 2 nights = 4000.
      // Total 20000 + 5000 + 3000 + 6000 + 2500 + 4000 = 40500; deposit 30000.
      const result = await quote({
        product_id: extras, interval: { start: '2027-03-15', end: '2027-03-17' }, occupancy: { [adults]: 2 },
        form_values: { [svc.towels!]: 3, [svc.breakfast!]: true, [svc.pet!]: true, [svc.email!]: 'guest@example.com', [svc.room!]: svc.roomSea },
      });
      assert.deepEqual(brief(result), [
        'rent/fee Rent x2 = 20000',
        'service/fee Cleaning x1 = 5000',
        'service/fee Towels x3 = 3000',
        'service/fee Breakfast x4 = 6000',
        'service/deposit Security deposit x1 = 20000',
        'service/fee Pet x1 = 2500',
        'service/deposit Pet (deposit) x1 = 10000',
        'service/fee Room x2 = 4000',
      ]);
      assert.equal(result.total, 40500);
      assert.equal(result.deposit, 30000);
      assert.equal(result.line_items[1]!.service_id, svc.cleaning);
    });

    it('rejects missing required fields, bad values and services the product does not offer', async () => {
      const base = { product_id: extras, interval: { start: '2027-03-15', end: '2027-03-17' }, occupancy: { [adults]: 2 } };
      const missing = await fails(base, 422, 'SK617');
      assert.match(missing.message, /Email is required/);
      const bad = await fails({ ...base, form_values: { [svc.email!]: 'not-an-email', [svc.towels!]: 9 } }, 422, 'SK617');
      assert.match(bad.details!, /Towels: at most 5/);
      assert.match(bad.details!, /Email: not an e-mail address/);
      await fails({ ...base, form_values: { [svc.email!]: 'a@b.co', '00000000-0000-4000-8000-000000000001': 'x' } }, 400, 'SK604');
    });
  });

  describe('coupons', () => {
    it('global: a percentage of the total, matched case-insensitively', async () => {
      // 20000 − 10 % = 18000.
      const result = await quote({ ...stay('2027-03-15', '2027-03-17'), coupon_codes: ['save10'] });
      assert.deepEqual(brief(result), ['rent/fee Rent x2 = 20000', 'coupon/fee Coupon SAVE10 x1 = -2000']);
      assert.equal(result.total, 18000);
      assert.deepEqual(result.coupons.map((c) => [c.code, c.amount]), [['SAVE10', 2000]]);
    });

    it('rent: only the rent; service: only its services', async () => {
      const base = {
        product_id: extras, interval: { start: '2027-03-15', end: '2027-03-17' }, occupancy: { [adults]: 2 },
        form_values: { [svc.email!]: 'guest@example.com' },
      };
      // Rent 20000 + Cleaning 5000 = 25000 (the security deposit is not in the total). RENT5K: −5000 → 20000.
      const rent = await quote({ ...base, coupon_codes: ['RENT5K'] });
      assert.equal(rent.total, 20000);
      // CLEANFREE: 100 % of Cleaning only → −5000 → 20000; no Cleaning-free discount on the rent.
      const service = await quote({ ...base, coupon_codes: ['CLEANFREE'] });
      assert.deepEqual(brief(service).at(-1), 'coupon/fee Coupon CLEANFREE x1 = -5000');
      assert.equal(service.total, 20000);
      // On a product without that service the service coupon has nothing to apply to.
      await fails({ ...stay('2027-03-15', '2027-03-17'), coupon_codes: ['CLEANFREE'] }, 422, 'SK614');
    });

    it('product: only on the linked products', async () => {
      // 20000 − 15 % = 17000.
      assert.equal((await quote({ ...stay('2027-03-15', '2027-03-17'), coupon_codes: ['DUNE15'] })).total, 17000);
      await fails({ ...stay('2027-03-15', '2027-03-17'), coupon_codes: ['ELSEWHERE'] }, 422, 'SK614');
    });

    it('stackable coupons combine, each on the amount before coupons; a non-stackable one does not', async () => {
      // STACK1 −1000, STACK2 5 % of 20000 = −1000 → 18000.
      const result = await quote({ ...stay('2027-03-15', '2027-03-17'), coupon_codes: ['STACK1', 'STACK2'] });
      assert.equal(result.total, 18000);
      await fails({ ...stay('2027-03-15', '2027-03-17'), coupon_codes: ['STACK1', 'SAVE10'] }, 422, 'SK616');
    });

    it('rejects exhausted, out-of-window, too-short, deleted and unknown coupons', async () => {
      await fails({ ...stay('2027-03-15', '2027-03-17'), coupon_codes: ['USEDUP'] }, 422, 'SK615');
      await fails({ ...stay('2027-03-15', '2027-03-17'), coupon_codes: ['SPRING'] }, 422, 'SK614');
      await fails({ ...stay('2027-03-15', '2027-03-17'), coupon_codes: ['EXPIRED'] }, 422, 'SK614');
      await fails({ ...stay('2027-03-15', '2027-03-17'), coupon_codes: ['WEEKLONG'] }, 422, 'SK614');
      await fails({ ...stay('2027-03-15', '2027-03-17'), coupon_codes: ['GONE'] }, 404, 'SK605');
      await fails({ ...stay('2027-03-15', '2027-03-17'), coupon_codes: ['NOPE'] }, 404, 'SK605');
      // In its window SPRING applies: arrival 2027-04-05, 2 × 10000 − 10 % = 18000.
      assert.equal((await quote({ ...stay('2027-04-05', '2027-04-07'), coupon_codes: ['SPRING'] })).total, 18000);
    });
  });

  it('takes each night from the configuration with the highest order, then the latest update', async () => {
    const f = fixtures(ctx.db, (await ctx.db.query<{ organization_id: string }>('SELECT organization_id FROM api.products WHERE id = $1', [main])).rows[0]!.organization_id);
    const layered = await f.product();
    await f.configuration(layered, { rates: [{ duration: 1, occupancy: 0, rate: 10000 }] });
    await f.configuration(layered, { intervals: '{[2027-03-16,2027-03-18)}', order: 2, updated_at: '2025-01-01T00:00:00Z', rates: [{ duration: 1, occupancy: 0, rate: 20000 }] });
    // Same order on 17 March: the one updated last wins.
    await f.configuration(layered, { intervals: '{[2027-03-17,2027-03-18)}', order: 2, updated_at: '2026-01-01T00:00:00Z', rates: [{ duration: 1, occupancy: 0, rate: 1 }] });
    await f.configuration(layered, { intervals: '{[2027-03-17,2027-03-18)}', order: 2, updated_at: '2026-06-01T00:00:00Z', rates: [{ duration: 1, occupancy: 0, rate: 30000 }] });
    // Nights 15, 16, 17, 18: 10000 + 20000 + 30000 + 10000 = 70000.
    const result = await quote({ product_id: layered, interval: { start: '2027-03-15', end: '2027-03-19' } });
    assert.deepEqual((result as Quote & { nights: { date: string; rate: number }[] }).nights.map((n) => n.rate), [10000, 20000, 30000, 10000]);
    assert.equal(result.total, 70000);
  });

  it('prices products whose rent is defined by services without rates', async () => {
    const f = fixtures(ctx.db, (await ctx.db.query<{ organization_id: string }>('SELECT organization_id FROM api.products WHERE id = $1', [main])).rows[0]!.organization_id);
    const byServices = await f.product({ rent_pricing_definition: 'services', cooldown_time: 1 });
    await f.configuration(byServices, { rates: [] });
    await f.service(byServices, { name: { default: 'Boat hire' }, type: 'fee', pricing: { per: 'night', amount: 7000 } });
    // 3 nights × 7000 from the service; no rent line, no rate needed.
    const result = await quote({ product_id: byServices, interval: { start: '2027-03-15', end: '2027-03-18' } });
    assert.deepEqual(brief(result), ['service/fee Boat hire x3 = 21000']);
    assert.equal(result.total, 21000);
  });

  describe('taxes', () => {
    it('reports inclusive taxes per line and adds exclusive ones as their own line', async () => {
      // Rent 2 × 10000 = 20000: VAT 9 % included = 20000 × 9 / 109 = 1651.38 → 1651; Tourist tax 5 % (rent) = 1000 added.
      // Cleaning 5000: VAT included = 5000 × 9 / 109 = 412.84 → 413; no tourist tax (rent only).
      // Total = 20000 + 5000 + 1000 = 26000.
      const result = await quote({ product_id: taxed, interval: { start: '2027-03-15', end: '2027-03-17' }, occupancy: { [adults]: 1 } });
      assert.deepEqual(brief(result), ['rent/fee Rent x2 = 20000', 'service/fee Cleaning x1 = 5000', 'tax/fee Tourist tax x1 = 1000']);
      assert.deepEqual(result.line_items[0]!.taxes.map((t) => [t.name, t.inclusive, t.amount]), [['VAT', true, 1651], ['Tourist tax', false, 1000]]);
      assert.deepEqual(result.line_items[1]!.taxes.map((t) => [t.name, t.inclusive, t.amount]), [['VAT', true, 413]]);
      assert.equal(result.total, 26000);
    });
  });

  describe('rules and bad input', () => {
    it('applies occupancy rules: explicit input, capacities, accumulators', async () => {
      const explicit = await fails(stay('2027-03-15', '2027-03-17', { [children]: 1 }), 422, 'SK612');
      assert.match(explicit.details!, /Adults must be given/);
      await fails(stay('2027-03-15', '2027-03-17', { [adults]: 5 }), 422, 'SK612');
      // 4 adults + 2 children: each within its own limit, but the Guests sum (6) exceeds 5.
      const sum = await fails(stay('2027-03-15', '2027-03-17', { [adults]: 4, [children]: 2 }), 422, 'SK612');
      assert.match(sum.details!, /At most 5 Guests allowed \(got 6\)/);
    });

    it('answers malformed requests with 400, unknown things with 404, never 500', async () => {
      const cases: [unknown, number, string][] = [
        [{ ...stay('2027-03-15', '2027-03-17'), product_id: '00000000-0000-4000-8000-000000000000' }, 404, 'SK602'],
        [{ ...stay('2027-03-15', '2027-03-17'), product_id: 'not-a-uuid' }, 400, 'SK601'],
        [stay('2027-03-17', '2027-03-15'), 400, 'SK601'], // end before start
        [stay('2027-03-15', '2027-03-15'), 400, 'SK601'], // zero nights
        [stay('2027-03-15', '2027-02-31'), 400, 'SK601'],
        [stay('2027-03-15', '2027-03-17', { [adults]: -1 }), 400, 'SK601'],
        [stay('2027-03-15', '2027-03-17', { [adults]: 1.5 }), 400, 'SK601'],
        [stay('2027-03-15', '2027-03-17', { '00000000-0000-4000-8000-000000000009': 1 }), 400, 'SK603'],
        [stay('2027-03-15', '2027-03-17', { adults: 1 }), 400, 'SK603'],
        [{ ...stay('2027-03-15', '2027-03-17'), coupon_codes: 'SAVE10' }, 400, 'SK601'],
        [{ ...stay('2027-03-15', '2027-03-17'), currency: 'USD' }, 422, 'SK618'],
        [{ ...stay('2027-03-15', '2027-03-17'), language: 12 }, 400, 'SK601'],
        [{ ...stay('2027-03-15', '2027-03-17'), interval: null }, 400, 'SK601'],
        [[], 400, 'SK601'],
      ];
      for (const [body, status, code] of cases) {
        const response = await api.post('/v1/quote', body);
        assert.equal(response.statusCode, status, `${JSON.stringify(body)} → ${response.body}`);
        assert.equal(response.json().code, code, response.body);
      }
      const invalidJson = await app.inject({
        method: 'POST', url: '/v1/quote', payload: '{"product_id":', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      });
      assert.equal(invalidJson.statusCode, 400);
      assert.equal(invalidJson.json().code, 'PGRST102');
    });
  });
});
