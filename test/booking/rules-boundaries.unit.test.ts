/**
 * The stay rules at their exact boundaries: a stay of exactly the minimum / maximum length, an arrival exactly
 * `min_advance` / `max_advance` days ahead, an occupancy of exactly a capacity's `min` / `max`, the longest stay the
 * booking flow accepts, and the adjustment thresholds. One step inside each boundary passes, one step outside fails.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { MAX_STAY_DAYS, resolveOccupancy, stayRuleViolations, toStay } from '../../src/booking/rules.js';
import { bestAdjustments } from '../../src/booking/pricing.js';
import { addDays } from '../../src/common/dates.js';
import type { CapacityGroup, Configuration, Night } from '../../src/booking/model.js';
import { productModel } from './product-model.js';

const TODAY = '2027-03-01';

const product = productModel({ id: 'p' });

function configuration(rules: Partial<Configuration>): Configuration {
  return {
    id: 'c', check_in_days: Array(7).fill(true), checkout_days: Array(7).fill(true), min_duration: 0, max_duration: 0,
    min_advance: 0, max_advance: 0, cooldown_time: 0, long_rent_adjustments: [], early_bird_adjustments: [],
    last_minute_adjustments: [], ...rules,
  };
}

/** The reasons a nightly stay of `length` nights arriving `advance` days from TODAY breaks `rules`. */
function violations(rules: Partial<Configuration>, length: number, advance = 10): string[] {
  const start = addDays(TODAY, advance);
  const stay = toStay('nightly', { start, end: addDays(start, length) });
  const arrival = configuration(rules);
  const nights: Night[] = Array.from({ length }, (_, i) => ({ date: addDays(start, i), configuration: arrival, rate: 100 }));
  return stayRuleViolations(product, stay, nights, TODAY);
}

describe('stay rules at their boundaries', () => {
  it('accepts a stay of exactly min_duration and refuses one night less', () => {
    assert.deepEqual(violations({ min_duration: 3 }, 3), []);
    assert.deepEqual(violations({ min_duration: 3 }, 2), ['The stay must be at least 3 nights']);
  });

  it('accepts a stay of exactly max_duration and refuses one night more', () => {
    assert.deepEqual(violations({ max_duration: 7 }, 7), []);
    assert.deepEqual(violations({ max_duration: 7 }, 8), ['The stay may be at most 7 nights']);
  });

  it('accepts an arrival exactly min_advance days ahead and refuses one day sooner', () => {
    assert.deepEqual(violations({ min_advance: 5 }, 2, 5), []);
    assert.deepEqual(violations({ min_advance: 5 }, 2, 4), ['The arrival must be at least 5 days ahead']);
  });

  it('accepts an arrival exactly max_advance days ahead and refuses one day later', () => {
    assert.deepEqual(violations({ max_advance: 30 }, 2, 30), []);
    assert.deepEqual(violations({ max_advance: 30 }, 2, 31), ['The arrival may be at most 30 days ahead']);
  });

  it('accepts an arrival today and refuses one yesterday', () => {
    assert.deepEqual(violations({}, 2, 0), []);
    assert.deepEqual(violations({}, 2, -1), [`The arrival date ${addDays(TODAY, -1)} is in the past`]);
  });
});

describe('the longest stay', () => {
  it(`accepts exactly ${MAX_STAY_DAYS} nights or days and refuses one more`, () => {
    const start = '2027-01-01';
    assert.equal(toStay('nightly', { start, end: addDays(start, MAX_STAY_DAYS) }).length, MAX_STAY_DAYS);
    assert.throws(() => toStay('nightly', { start, end: addDays(start, MAX_STAY_DAYS + 1) }), /at most 731 days/);
    // A daily interval's end is the last rented day, inclusive.
    assert.equal(toStay('daily', { start, end: addDays(start, MAX_STAY_DAYS - 1) }).length, MAX_STAY_DAYS);
    assert.throws(() => toStay('daily', { start, end: addDays(start, MAX_STAY_DAYS) }), /at most 731 days/);
  });
});

describe('occupancy at its boundaries', () => {
  const groups: CapacityGroup[] = [{ id: 'adults', name: { default: 'Adults' }, requires_explicit_input: false, elements: [] }];
  const capacities = [{ product_id: 'p', capacity_group_id: 'adults', min: 2, max: 4 }];

  it('accepts exactly min and exactly max guests and refuses one outside either', () => {
    assert.deepEqual(resolveOccupancy({ adults: 2 }, groups, capacities).reasons, []);
    assert.deepEqual(resolveOccupancy({ adults: 4 }, groups, capacities).reasons, []);
    assert.deepEqual(resolveOccupancy({ adults: 1 }, groups, capacities).reasons, ['At least 2 Adults required (got 1)']);
    assert.deepEqual(resolveOccupancy({ adults: 5 }, groups, capacities).reasons, ['At most 4 Adults allowed (got 5)']);
  });
});

describe('adjustments at their thresholds', () => {
  const kinds = (length: number, advance: number, lists: Parameters<typeof bestAdjustments>[0]) =>
    bestAdjustments(lists, length, advance).map((adjustment) => adjustment.kind);
  const none = { long_rent_adjustments: [], early_bird_adjustments: [], last_minute_adjustments: [] };

  it('applies a long-stay discount from exactly min_duration', () => {
    const lists = { ...none, long_rent_adjustments: [{ min_duration: 7, percentage: -10 }] };
    assert.deepEqual(kinds(7, 50, lists), ['long_rent']);
    assert.deepEqual(kinds(6, 50, lists), []);
  });

  it('applies an early-bird discount from exactly min_advance', () => {
    const lists = { ...none, early_bird_adjustments: [{ min_advance: 60, percentage: -5 }] };
    assert.deepEqual(kinds(3, 60, lists), ['early_bird']);
    assert.deepEqual(kinds(3, 59, lists), []);
  });

  it('applies a last-minute adjustment up to exactly max_advance', () => {
    const lists = { ...none, last_minute_adjustments: [{ max_advance: 3, percentage: -20 }] };
    assert.deepEqual(kinds(3, 3, lists), ['last_minute']);
    assert.deepEqual(kinds(3, 4, lists), []);
  });
});
