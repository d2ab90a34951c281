/**
 * priceStay, the one pricing function of /quote, /book, /cart-* and /search, on hand-made inputs: the rent, the
 * adjustments in their order, each kind of service with each pricing basis, deposits, the form-value reasons, coupons
 * (every refusal with its code, the caps, the scopes, stacking) and taxes (inclusive, exclusive, what each applies
 * to). Amounts are integer minor units, worked out by hand in the comments. Run by the mutation run of
 * src/booking (scripts/mutation-modules.js); test/booking/quote.test.ts checks the same through the database.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { priceStay, type PricingInput } from '../../src/booking/pricing.js';
import { toStay } from '../../src/booking/rules.js';
import { addDays } from '../../src/common/dates.js';
import { ApiError } from '../../src/errors/api-error.js';
import type { Configuration, Coupon, Night, Service, Tax } from '../../src/booking/model.js';
import { productModel } from './product-model.js';

const TODAY = '2027-03-01';
const START = '2027-03-11';

const PRODUCT = productModel();

function configuration(rules: Partial<Configuration> = {}): Configuration {
  return {
    id: 'c', check_in_days: Array(7).fill(true), checkout_days: Array(7).fill(true), min_duration: 0, max_duration: 0,
    min_advance: 0, max_advance: 0, cooldown_time: 0, long_rent_adjustments: [], early_bird_adjustments: [],
    last_minute_adjustments: [], ...rules,
  };
}

/** Three nights from START at 100, 100 and 120: a rent of 320. */
function input(overrides: Partial<PricingInput> = {}, rates: (number | null)[] = [100, 100, 120], arrival = configuration()): PricingInput {
  const nights: Night[] = rates.map((rate, i) => ({ date: addDays(START, i), configuration: arrival, rate }));
  return {
    product: PRODUCT, stay: toStay('nightly', { start: START, end: addDays(START, rates.length) }), nights, guests: 2,
    today: TODAY, language: 'en', services: [], formValues: {}, taxes: [], coupons: [], couponCodes: [], ...overrides,
  };
}

function service(id: string, fields: Partial<Service>): Service {
  return {
    id, product_id: 'villa', name: { default: id[0]!.toUpperCase() + id.slice(1) }, description: {}, type: 'fee', pricing: null,
    required: false, max_quantity: null, options: [], ...fields,
  };
}

function coupon(code: string, fields: Partial<Coupon> = {}): Coupon {
  return {
    id: `id-${code}`, code, definition: { type: 'percentage', value: 10 }, quota: null, scope: 'global', stackable: true, uses: 0,
    product_ids: [], service_ids: [], ...fields,
  };
}

function tax(id: string, fields: Partial<Tax>): Tax {
  return { id, product_id: 'villa', name: id.toUpperCase(), percentage: 10, inclusive: false, applies_to: 'all', ...fields };
}

const lines = (priced: ReturnType<typeof priceStay>) => priced.quote.line_items.map((item) => [item.item_type, item.fee_type, item.name, item.quantity, item.amount]);

function refusedWith(status: number, code: string, message: string, details?: string) {
  return (error: unknown) => {
    assert.ok(error instanceof ApiError, String(error));
    assert.deepEqual([error.status, error.code, error.message], [status, code, message]);
    if (details !== undefined) assert.equal(error.details, details);
    return true;
  };
}

describe('rent and adjustments', () => {
  it('the rent is the sum of the nights, one line; the quote lists each night', () => {
    const priced = priceStay(input());
    assert.deepEqual(priced.quote, {
      currency: 'EUR', display_currency: 'EUR', exchange_rate: 1, total: 320, deposit: 0,
      line_items: [{ item_type: 'rent', fee_type: 'fee', name: 'Rent', quantity: 3, amount: 320, taxes: [] }],
      coupons: [], nights: [{ date: '2027-03-11', rate: 100 }, { date: '2027-03-12', rate: 100 }, { date: '2027-03-13', rate: 120 }], valid: true,
    });
    assert.deepEqual(priced.storedNames, [{ default: 'Rent' }]);
    assert.deepEqual([priced.details, priced.couponUses], [[], []]);
  });

  it('a night without a rate is 422 SK613 naming it; rent priced by services needs no rates', () => {
    assert.throws(() => priceStay(input({}, [100, null, null])), refusedWith(422, 'SK613', 'No rate applies to the night of 2027-03-12 for this length of stay and occupancy'));
    const byServices = priceStay(input({
      product: { ...PRODUCT, rent_pricing_definition: 'services' },
      services: [service('rent', { pricing: { per: 'night', amount: 90 } })],
    }, [null, 100, null], configuration({ long_rent_adjustments: [{ min_duration: 1, percentage: 50 }] })));
    assert.deepEqual(lines(byServices), [['service', 'fee', 'Rent', 3, 270]]);
    assert.deepEqual([byServices.quote.total, byServices.quote.nights], [270, []], 'no rent line, no adjustments, no nights');
  });

  it('the best adjustment of each list, each a percentage of the running amount, in the order long stay, early booking, last minute', () => {
    const arrival = configuration({
      long_rent_adjustments: [{ min_duration: 2, percentage: -5 }, { min_duration: 3, percentage: -10 }, { min_duration: 4, percentage: -50 }],
      early_bird_adjustments: [{ min_advance: 10, percentage: -5 }],
      last_minute_adjustments: [{ max_advance: 10, percentage: 20 }],
    });
    // 320 −10 % = −32 → 288; −5 % of 288 = −14.4 → −14 → 274; +20 % of 274 = 54.8 → 55 → 329.
    const priced = priceStay(input({}, [100, 100, 120], arrival));
    assert.deepEqual(lines(priced), [
      ['rent', 'fee', 'Rent', 3, 320],
      ['adjustment', 'fee', 'Long stay -10%', 1, -32],
      ['adjustment', 'fee', 'Early booking -5%', 1, -14],
      ['adjustment', 'fee', 'Last minute +20%', 1, 55],
    ]);
    assert.equal(priced.quote.total, 329);
  });

  it('of each list the best entry that fits wins wherever it is listed, and of two equal entries the first listed', () => {
    // 3 nights booked 10 days ahead. Long stay: min 2, 3 and 3 fit, 4 does not; the first min 3 wins (−10 %).
    // Early booking: min 5, 8 and 8 fit, 30 does not; the first min 8 wins (−8 %). Last minute: max 14, 10 and 10
    // fit, 5 does not; the first max 10 (the tightest) wins (+10 %).
    const arrival = configuration({
      long_rent_adjustments: [{ min_duration: 3, percentage: -10 }, { min_duration: 2, percentage: -5 }, { min_duration: 4, percentage: -50 }, { min_duration: 3, percentage: -20 }],
      early_bird_adjustments: [{ min_advance: 8, percentage: -8 }, { min_advance: 5, percentage: -5 }, { min_advance: 30, percentage: -30 }, { min_advance: 8, percentage: -9 }],
      last_minute_adjustments: [{ max_advance: 10, percentage: 10 }, { max_advance: 14, percentage: 4 }, { max_advance: 5, percentage: 50 }, { max_advance: 10, percentage: 11 }],
    });
    // 320 −10 % = −32 → 288; −8 % of 288 = −23.04 → −23 → 265; +10 % of 265 = 26.5 → 27 → 292.
    const priced = priceStay(input({}, [100, 100, 120], arrival));
    assert.deepEqual(lines(priced), [
      ['rent', 'fee', 'Rent', 3, 320],
      ['adjustment', 'fee', 'Long stay -10%', 1, -32],
      ['adjustment', 'fee', 'Early booking -8%', 1, -23],
      ['adjustment', 'fee', 'Last minute +10%', 1, 27],
    ]);
    assert.equal(priced.quote.total, 292);
  });

  it('an adjustment that comes to 0 adds no line', () => {
    const arrival = configuration({ long_rent_adjustments: [{ min_duration: 1, percentage: 0.1 }], early_bird_adjustments: [{ percentage: 0 }] });
    assert.deepEqual(lines(priceStay(input({}, [100, 100, 120], arrival))), [['rent', 'fee', 'Rent', 3, 320]]);
  });
});

describe('services', () => {
  it('fees priced per stay, unit, night, guest and guest-night (3 nights, 2 guests)', () => {
    const services = [
      service('cleaning', { pricing: { per: 'stay', amount: 50 } }),
      service('keys', { pricing: { per: 'unit', amount: 7 } }),
      service('heating', { pricing: { per: 'night', amount: 5 } }),
      service('linen', { pricing: { per: 'guest', amount: 10 } }),
      service('tourism', { pricing: { per: 'guest_night', amount: 2 } }),
      service('free', {}),
    ];
    const priced = priceStay(input({ services }));
    assert.deepEqual(lines(priced).slice(1), [
      ['service', 'fee', 'Cleaning', 1, 50],
      ['service', 'fee', 'Keys', 1, 7],
      ['service', 'fee', 'Heating', 3, 15],
      ['service', 'fee', 'Linen', 2, 20],
      ['service', 'fee', 'Tourism', 6, 12],
    ]);
    assert.equal(priced.quote.total, 320 + 50 + 7 + 15 + 20 + 12);
    assert.equal(priced.quote.line_items[1]!.service_id, 'cleaning');
    assert.deepEqual(priced.details, [], 'fees are not form values');
    assert.equal(priceStay(input({ services, guests: 0 })).quote.line_items.some((item) => item.name === 'Linen'), false, 'no guests, no per-guest line');
  });

  it('form values: quantities multiply the basis; a checkbox, a select option and text are recorded as given', () => {
    const services = [
      service('bikes', { type: 'quantity', pricing: { per: 'night', amount: 10 }, max_quantity: 2 }),
      service('cots', { type: 'number', pricing: { per: 'stay', amount: 15 } }),
      service('late', { type: 'checkbox', pricing: { per: 'stay', amount: 30 } }),
      service('early', { type: 'checkbox', pricing: { per: 'stay', amount: 30 } }),
      service('bed', {
        type: 'select', pricing: { per: 'stay', amount: 1 },
        options: [{ id: 'king', name: { default: 'King', en: 'King size' }, pricing: { per: 'stay', amount: 40 } }, { id: 'twin', name: { default: 'Twin' }, pricing: null }],
      }),
      service('note', { type: 'text' }),
      service('mail', { type: 'email' }),
    ];
    const priced = priceStay(input({ services, formValues: { bikes: ' 2 ', cots: 0, late: 'true', early: false, bed: 'KING', note: 'Arriving by train', mail: 'ana@example.org' } }));
    assert.deepEqual(lines(priced).slice(1), [
      ['service', 'fee', 'Bikes', 6, 60],
      ['service', 'fee', 'Late', 1, 30],
      ['service', 'fee', 'Bed', 1, 40],
    ]);
    assert.deepEqual(priced.details.map(({ service_id, option_id, value }) => [service_id, option_id, value]), [
      ['bikes', null, ' 2 '],
      ['cots', null, '0'],
      ['late', null, 'true'],
      ['early', null, 'false'],
      ['bed', 'king', 'King size'],
      ['note', null, 'Arriving by train'],
      ['mail', null, 'ana@example.org'],
    ]);
    assert.deepEqual(priced.details[0]!.name, { default: 'Bikes' });
    // An option without pricing of its own takes the service's.
    const twin = priceStay(input({ services, formValues: { bed: 'twin' } }));
    assert.deepEqual(lines(twin).slice(1), [['service', 'fee', 'Bed', 1, 1]]);
    assert.deepEqual(lines(priceStay(input({ services, formValues: { bikes: '', cots: null } }))).slice(1), [], 'empty values are not given');
  });

  it('deposits: a deposit service is a deposit line, outside the total; a number adds a deposit per unit beside the fee', () => {
    const services = [
      service('damage', { pricing: { per: 'stay', amount: 200, deposit: true } }),
      service('keys', { type: 'quantity', name: { default: 'Keys', nl: 'Sleutels' }, pricing: { per: 'stay', amount: 10, deposit: 25 } }),
      service('towels', { pricing: { per: 'stay', amount: 5, deposit: 0 } }),
    ];
    const priced = priceStay(input({ services, formValues: { keys: 2 } }));
    assert.deepEqual(lines(priced).slice(1), [
      ['service', 'deposit', 'Damage', 1, 200],
      ['service', 'fee', 'Keys', 2, 20],
      ['service', 'deposit', 'Keys (deposit)', 2, 50],
      ['service', 'fee', 'Towels', 1, 5],
    ]);
    assert.deepEqual([priced.quote.total, priced.quote.deposit], [320 + 20 + 5, 250]);
    assert.deepEqual(priced.storedNames[3], { default: 'Keys (deposit)', nl: 'Sleutels (deposit)' });
  });

  it('every bad form value is a reason of one 422 SK617, the first one its message', () => {
    const services = [
      service('terms', { type: 'checkbox', required: true }),
      service('pets', { type: 'checkbox' }),
      service('bikes', { type: 'quantity', max_quantity: 2 }),
      service('cots', { type: 'number' }),
      service('boats', { type: 'quantity', required: true }),
      service('beds', { type: 'quantity', required: true }),
      service('bed', { type: 'select', options: [{ id: 'king', name: { default: 'King' }, pricing: null }] }),
      service('view', { type: 'select', required: true }),
      service('note', { type: 'text' }),
      service('mail', { type: 'email' }),
      service('phone', { type: 'phone', required: true }),
    ];
    const formValues = { pets: 'maybe', bikes: 3, cots: '1.5', beds: 0, bed: 'queen', note: 5, mail: 'ana@example' };
    const reasons = [
      'Terms must be checked',
      'Pets: true or false expected',
      'Bikes: at most 2',
      'Cots: a whole number of 0 or more is required',
      'Boats is required',
      'Beds is required',
      'Bed: unknown option queen',
      'View is required',
      'Note: text expected',
      'Mail: not an e-mail address',
      'Phone is required',
    ];
    assert.throws(() => priceStay(input({ services, formValues })), refusedWith(422, 'SK617', reasons[0]!, reasons.join('\n')));
    assert.throws(() => priceStay(input({ services: [service('cots', { type: 'number' })], formValues: { cots: -1 } })), refusedWith(422, 'SK617', 'Cots: a whole number of 0 or more is required'));
    const atMost = [service('bikes', { type: 'quantity', max_quantity: 2, pricing: { per: 'stay', amount: 1 } })];
    assert.equal(priceStay(input({ services: atMost, formValues: { bikes: 2 } })).quote.total, 322, 'exactly max_quantity is allowed');
  });

  it('a form value for a service the product does not offer is 400 SK604', () => {
    assert.throws(() => priceStay(input({ formValues: { sauna: true } })), refusedWith(400, 'SK604', 'Service sauna is not offered for this product'));
  });
});

describe('coupons', () => {
  const cleaning = service('cleaning', { pricing: { per: 'stay', amount: 80 } });
  const withCoupons = (coupons: Coupon[], couponCodes: string[], extra: Partial<PricingInput> = {}) => priceStay(input({ services: [cleaning], coupons, couponCodes, ...extra }));

  it('a percentage of every fee, found by its code in any case; its use recorded', () => {
    // 10 % of 320 + 80 = 40.
    const priced = withCoupons([coupon('SUMMER')], ['summer']);
    assert.deepEqual(lines(priced).at(-1), ['coupon', 'fee', 'Coupon SUMMER', 1, -40]);
    assert.deepEqual(priced.quote.coupons, [{ id: 'id-SUMMER', code: 'SUMMER', scope: 'global', amount: 40 }]);
    assert.deepEqual(priced.couponUses, [{ coupon_id: 'id-SUMMER', amount: 40 }]);
    assert.equal(priced.quote.total, 360);
  });

  it('a fixed amount, never more than what it applies to, nor than what earlier coupons left', () => {
    assert.equal(withCoupons([coupon('BIG', { definition: { type: 'fixed', value: 1000 } })], ['BIG']).quote.total, 0);
    assert.equal(withCoupons([coupon('RENT', { scope: 'rent', definition: { type: 'fixed', value: 1000 } })], ['RENT']).quote.total, 80);
    const two = withCoupons([coupon('A', { definition: { type: 'fixed', value: 350 } }), coupon('B', { definition: { type: 'fixed', value: 100 } })], ['A', 'B']);
    assert.deepEqual(two.quote.coupons.map((c) => c.amount), [350, 50]);
    assert.equal(two.quote.total, 0);
    const none = withCoupons([coupon('ZERO', { definition: { type: 'percentage', value: 0 } })], ['ZERO']);
    assert.deepEqual([none.quote.coupons[0]!.amount, none.quote.line_items.length], [0, 2], 'a coupon worth 0 is applied without a line');
  });

  it('scopes: rent (with its adjustments), listed services, one product, or everything; deposits never', () => {
    const arrival = configuration({ long_rent_adjustments: [{ min_duration: 1, percentage: -50 }] });
    const damage = service('damage', { pricing: { per: 'stay', amount: 500, deposit: true } });
    // Rent 320 − 160 = 160: 50 % of it is 80.
    const rent = priceStay(input({ services: [cleaning, damage], coupons: [coupon('R', { scope: 'rent', definition: { type: 'percentage', value: 50 } })], couponCodes: ['R'] }, [100, 100, 120], arrival));
    assert.equal(rent.quote.coupons[0]!.amount, 80);
    const services = withCoupons([coupon('S', { scope: 'service', service_ids: ['cleaning'], definition: { type: 'percentage', value: 50 } })], ['S'], { services: [cleaning, damage] });
    assert.equal(services.quote.coupons[0]!.amount, 40);
    assert.throws(
      () => withCoupons([coupon('S', { scope: 'service', service_ids: ['sauna'] })], ['S']),
      refusedWith(422, 'SK614', 'Coupon S does not apply: none of its services is part of this booking'),
    );
    assert.equal(withCoupons([coupon('P', { scope: 'product', product_ids: ['villa'] })], ['P']).quote.coupons[0]!.amount, 40);
    assert.throws(() => withCoupons([coupon('P', { scope: 'product', product_ids: ['cabin'] })], ['P']), refusedWith(422, 'SK614', 'Coupon P does not apply: not valid for this product'));
  });

  it('refusals: unknown code 404 SK605, no uses left 422 SK615, not combinable 422 SK616', () => {
    assert.throws(() => withCoupons([coupon('A')], ['B']), refusedWith(404, 'SK605', 'Coupon B not found'));
    assert.throws(() => withCoupons([coupon('A', { quota: 3, uses: 3 })], ['A']), refusedWith(422, 'SK615', 'Coupon A has no uses left'));
    assert.equal(withCoupons([coupon('A', { quota: 3, uses: 2 })], ['A']).quote.coupons.length, 1, 'the last use');
    assert.throws(() => withCoupons([coupon('A'), coupon('B', { stackable: false })], ['A', 'B']), refusedWith(422, 'SK616', 'Coupon B cannot be combined with other coupons'));
    assert.equal(withCoupons([coupon('B', { stackable: false })], ['B']).quote.coupons.length, 1, 'alone it applies');
  });

  it('conditions, each from its exact date or length on', () => {
    const refused = (definition: Partial<Coupon['definition']>, reason: string, extra: Partial<PricingInput> = {}) =>
      assert.throws(() => withCoupons([coupon('C', { definition: { type: 'percentage', value: 10, ...definition } })], ['C'], extra), refusedWith(422, 'SK614', `Coupon C does not apply: ${reason}`));
    const applies = (definition: Partial<Coupon['definition']>) =>
      assert.equal(withCoupons([coupon('C', { definition: { type: 'percentage', value: 10, ...definition } })], ['C']).quote.coupons.length, 1, JSON.stringify(definition));
    applies({ min_duration: 3 });
    refused({ min_duration: 4 }, 'the stay must be at least 4 nights');
    refused({ min_duration: 4 }, 'the stay must be at least 4 days', { product: { ...PRODUCT, rent_period: 'daily' } });
    applies({ booking_from: TODAY });
    refused({ booking_from: '2027-03-02' }, 'it can be used from 2027-03-02');
    applies({ booking_until: TODAY });
    refused({ booking_until: '2027-02-28' }, 'it could be used until 2027-02-28');
    applies({ stay_from: START });
    refused({ stay_from: '2027-03-12' }, 'arrival must be on or after 2027-03-12');
    applies({ stay_until: START });
    refused({ stay_until: '2027-03-10' }, 'arrival must be on or before 2027-03-10');
  });
});

describe('taxes', () => {
  const cleaning = service('cleaning', { pricing: { per: 'stay', amount: 80 } });
  const damage = service('damage', { pricing: { per: 'stay', amount: 500, deposit: true } });

  it('an exclusive tax is added per line and as one line of its own; deposits are not taxed', () => {
    const priced = priceStay(input({ services: [cleaning, damage], taxes: [tax('vat', { percentage: 10 })] }));
    assert.deepEqual(priced.quote.line_items.map((item) => item.taxes.map((t) => t.amount)), [[32], [8], [], []]);
    assert.deepEqual(priced.quote.line_items[0]!.taxes, [{ tax_id: 'vat', name: 'VAT', percentage: 10, inclusive: false, amount: 32 }]);
    assert.deepEqual(lines(priced).at(-1), ['tax', 'fee', 'VAT', 1, 40]);
    assert.deepEqual([priced.quote.total, priced.quote.deposit], [440, 500]);
  });

  it('an inclusive tax is the share of the price it already holds, with no line of its own', () => {
    // 21 % included in 320: 320 × 21 / 121 = 55.54 → 56.
    const priced = priceStay(input({ taxes: [tax('vat', { percentage: 21, inclusive: true })] }));
    assert.deepEqual(priced.quote.line_items, [{
      item_type: 'rent', fee_type: 'fee', name: 'Rent', quantity: 3, amount: 320,
      taxes: [{ tax_id: 'vat', name: 'VAT', percentage: 21, inclusive: true, amount: 56 }],
    }]);
    assert.equal(priced.quote.total, 320);
  });

  it('a tax applies to rent (and its adjustments), to services, or to everything (coupons on everything too)', () => {
    const arrival = configuration({ long_rent_adjustments: [{ min_duration: 1, percentage: -10 }] });
    const taxes = [tax('city', { applies_to: 'rent', percentage: 5 }), tax('service', { applies_to: 'services', percentage: 50 }), tax('vat', { percentage: 10 })];
    const priced = priceStay(input({ services: [cleaning], taxes, coupons: [coupon('ALL', { definition: { type: 'fixed', value: 100 } })], couponCodes: ['ALL'] }, [100, 100, 120], arrival));
    assert.deepEqual(priced.quote.line_items.map((item) => [item.name, item.taxes.map((t) => `${t.tax_id} ${t.amount}`)]), [
      ['Rent', ['city 16', 'vat 32']],
      ['Long stay -10%', ['city -2', 'vat -3']],
      ['Cleaning', ['service 40', 'vat 8']],
      ['Coupon ALL', ['vat -10']],
      ['CITY', []],
      ['VAT', []],
      ['SERVICE', []],
    ]);
    // Rent 320 − 32 + cleaning 80 − coupon 100 = 268; taxes 16 − 2 = 14, 32 − 3 + 8 − 10 = 27 and 40, in the order first met.
    assert.deepEqual(lines(priced).slice(-3).map((line) => line[4]), [14, 27, 40]);
    assert.equal(priced.quote.total, 268 + 14 + 40 + 27);
  });

  it('an exclusive tax that comes to 0 adds no line', () => {
    const priced = priceStay(input({ taxes: [tax('tiny', { percentage: 0.1 })] }, [100]));
    assert.deepEqual(lines(priced), [['rent', 'fee', 'Rent', 1, 100]]);
  });
});
