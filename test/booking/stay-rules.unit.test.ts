/**
 * What rules.unit.test.ts and rules-boundaries.unit.test.ts leave open: closed dates and weekdays in the stay rules,
 * the cooldown a stay keeps, the occupancy's explicit-input rule, and the day flags of the availability timeline
 * (check-in and checkout at their advance, minimum-stay and cooldown edges; per-date overrides; daily rentals) —
 * each with the reason or flag a guest would see. Run by the mutation run of src/booking (scripts/mutation-modules.js).
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { conflictingEvents, paddingFor, resolveOccupancy, stayRuleViolations, toStay } from '../../src/booking/rules.js';
import { statusOf, toDays, toIntervals, type Category, type GoverningConfiguration, type ProductTimeline } from '../../src/booking/timeline.js';
import type { ShowOptions } from '../../src/booking/show-options.js';
import { addDays, WEEKDAY_NAMES, weekdayIndex } from '../../src/common/dates.js';
import { ApiError } from '../../src/errors/api-error.js';
import type { BlockingEvent, CapacityGroup, Configuration, Night } from '../../src/booking/model.js';
import { productModel } from './product-model.js';

const TODAY = '2027-03-01';

const PRODUCT = productModel({ id: 'p', cooldown_time: 3 });

function configuration(rules: Partial<Configuration> = {}): Configuration {
  return {
    id: 'c', check_in_days: Array(7).fill(true), checkout_days: Array(7).fill(true), min_duration: 0, max_duration: 0,
    min_advance: 0, max_advance: 0, cooldown_time: 0, long_rent_adjustments: [], early_bird_adjustments: [],
    last_minute_adjustments: [], ...rules,
  };
}

const onlyOn = (date: string) => Array.from({ length: 7 }, (_, i) => i === weekdayIndex(date));
const allBut = (date: string) => Array.from({ length: 7 }, (_, i) => i !== weekdayIndex(date));

describe('stay rules', () => {
  const stay = toStay('nightly', { start: '2027-03-11', end: '2027-03-14' });
  const nights = (arrival: Configuration | null, closed: number[] = []): Night[] =>
    [0, 1, 2].map((i) => ({ date: addDays(stay.start, i), configuration: closed.includes(i) ? null : arrival, rate: 100 }));

  it('check-in and checkout weekdays of the arrival’s configuration, named in the reasons', () => {
    const arrival = configuration({ check_in_days: allBut(stay.start), checkout_days: allBut(stay.end) });
    assert.deepEqual(stayRuleViolations(PRODUCT, stay, nights(arrival), TODAY), [
      `Check-in is not possible on ${WEEKDAY_NAMES[weekdayIndex(stay.start)]} (2027-03-11)`,
      `Check-out is not possible on ${WEEKDAY_NAMES[weekdayIndex(stay.end)]} (2027-03-14)`,
    ]);
    assert.deepEqual(stayRuleViolations(PRODUCT, stay, nights(configuration({ check_in_days: onlyOn(stay.start), checkout_days: onlyOn(stay.end) })), TODAY), []);
  });

  it('closed nights are listed (five at most); a closed arrival night checks nothing else', () => {
    const arrival = configuration({ min_duration: 10 });
    assert.deepEqual(stayRuleViolations(PRODUCT, stay, nights(arrival, [1]), TODAY), ['The product is closed on 2027-03-12', 'The stay must be at least 10 nights']);
    assert.deepEqual(stayRuleViolations(PRODUCT, stay, nights(arrival, [0, 2]), TODAY), ['The product is closed on 2027-03-11, 2027-03-13']);
    const long = toStay('nightly', { start: '2027-03-11', end: '2027-03-17' });
    const closed: Night[] = Array.from({ length: 6 }, (_, i) => ({ date: addDays(long.start, i), configuration: null, rate: null }));
    assert.deepEqual(stayRuleViolations(PRODUCT, long, closed, TODAY), ['The product is closed on 2027-03-11, 2027-03-12, 2027-03-13, 2027-03-14, 2027-03-15, …']);
    assert.deepEqual(stayRuleViolations(PRODUCT, long, closed.slice(0, 5), TODAY), ['The product is closed on 2027-03-11, 2027-03-12, 2027-03-13, 2027-03-14, 2027-03-15']);
  });

  it('a daily rental counts days; a past arrival is not also too soon', () => {
    const daily = { ...PRODUCT, rent_period: 'daily' as const };
    const days = toStay('daily', { start: '2027-03-11', end: '2027-03-11' });
    assert.deepEqual(stayRuleViolations(daily, days, nights(configuration({ min_duration: 2 })).slice(0, 1), TODAY), ['The stay must be at least 2 days']);
    assert.deepEqual(stayRuleViolations(daily, days, nights(configuration({ max_duration: 0, min_duration: 1 })).slice(0, 1), TODAY), [], 'max_duration 0: no maximum');
    assert.deepEqual(stayRuleViolations(PRODUCT, stay, nights(configuration({ min_advance: 20 })), '2027-03-12'), ['The arrival date 2027-03-11 is in the past']);
  });

  it('a nightly stay needs a night: 400 SK601 naming the field', () => {
    assert.throws(() => toStay('nightly', { start: '2027-03-11', end: '2027-03-10' }, 'items[0].interval'), (error: unknown) => {
      assert.ok(error instanceof ApiError);
      assert.deepEqual([error.status, error.code, error.message], [400, 'SK601', 'items[0].interval.end must be after items[0].interval.start: a nightly stay has at least one night']);
      return true;
    });
  });

  it('the cooldown after a stay: the arrival configuration’s, or the product’s when rent is priced by services', () => {
    assert.equal(paddingFor(PRODUCT, configuration({ cooldown_time: 2 })), 2);
    assert.equal(paddingFor(PRODUCT, null), 0);
    assert.equal(paddingFor({ ...PRODUCT, rent_pricing_definition: 'services' }, configuration({ cooldown_time: 2 })), 3);
  });

  it('an event overlaps when its days, with its cooldown, meet the stay’s, with ours', () => {
    const event = (start_date: string, end_date: string, padding = 0): BlockingEvent =>
      ({ id: start_date, product_id: 'p', start_date, end_date, padding, status: 'CONFIRMED', type: 'booking' });
    const s = toStay('nightly', { start: '2027-03-10', end: '2027-03-12' });
    assert.equal(conflictingEvents(s, 2, [event('2027-03-13', '2027-03-15')]).length, 1, 'within our 2-day cooldown');
    assert.equal(conflictingEvents(s, 2, [event('2027-03-14', '2027-03-15')]).length, 0, 'right after it');
    assert.equal(conflictingEvents(s, 0, [event('2027-03-06', '2027-03-08', 2)]).length, 0, 'their cooldown ends on our arrival');
    assert.equal(conflictingEvents(s, 0, [event('2027-03-06', '2027-03-08', 3)]).length, 1);
    assert.equal(conflictingEvents(s, 0, [event('2027-03-11', '2027-03-12')]).length, 1, 'inside');
  });

  it('the number of a group with explicit input is required only where the product has a capacity for it', () => {
    const groups: CapacityGroup[] = [
      { id: 'adults', name: { default: 'Adults', nl: 'Volwassenen' }, requires_explicit_input: true, elements: [] },
      { id: 'pets', name: {}, requires_explicit_input: true, elements: [] },
      { id: 'people', name: { default: 'People' }, requires_explicit_input: true, elements: ['adults'] },
    ];
    const capacity = (group: string, min: number, max: number | null) => ({ product_id: 'p', capacity_group_id: group, min, max });
    assert.deepEqual(resolveOccupancy({}, groups, [capacity('adults', 0, null), capacity('people', 0, null)], 'nl').reasons, ['The number of Volwassenen must be given']);
    assert.deepEqual(resolveOccupancy({}, groups, [capacity('pets', 0, 1)]).reasons, ['The number of pets must be given']);
    assert.deepEqual(resolveOccupancy({ adults: 0 }, groups, [capacity('adults', 0, null)]).reasons, [], 'zero is an answer');
    assert.deepEqual(resolveOccupancy({}, groups, []).reasons, [], 'no capacities, no requirement');
    const resolved = resolveOccupancy({ pets: 1 }, groups, [capacity('people', 1, 2)]);
    assert.deepEqual(resolved.occupancy, { pets: 1 }, 'an accumulator with nothing in it is left out');
    assert.deepEqual(resolved.reasons, ['At least 1 People required (got 0)']);
    assert.equal(resolveOccupancy({ people: 0 }, groups, []).occupancy.people, 0, 'unless it was given');
  });
});

describe('availability statuses', () => {
  const defaults: ShowOptions = { showBookedAs: 'unavailable', showClosedAs: 'unavailable', showPendingAs: 'TENTATIVE' };
  const shown: ShowOptions = { showBookedAs: 'booked', showClosedAs: 'closed', showPendingAs: 'CONFIRMED' };

  it('each category under the default options and under the ones that show more', () => {
    const categories: Category[] = ['past', 'booked', 'tentative', 'blocked', 'padding', 'open', 'closed'];
    assert.deepEqual(categories.map((category) => statusOf(category, defaults)), ['unavailable', 'unavailable', 'tentative', 'unavailable', 'reserved', 'available', 'unavailable']);
    assert.deepEqual(categories.map((category) => statusOf(category, shown)), ['unavailable', 'booked', 'booked', 'unavailable', 'reserved', 'available', 'closed']);
    assert.equal(statusOf('tentative', { ...defaults, showPendingAs: 'CANCELLED' }), 'tentative');
  });

  it('intervals are clipped to the window, and only touching ranges of one status merge', () => {
    const timeline = {
      categories: [['2027-03-01', '2027-03-03', 'open'], ['2027-03-03', '2027-03-04', 'padding'], ['2027-03-04', '2027-03-06', 'open'], ['2027-03-06', '2027-03-09', 'open']],
    } as ProductTimeline;
    assert.deepEqual(toIntervals(timeline, '2027-03-02', '2027-03-07', defaults), [
      { start: '2027-03-02', end: '2027-03-03', status: 'available' },
      { start: '2027-03-03', end: '2027-03-04', status: 'reserved' },
      { start: '2027-03-04', end: '2027-03-07', status: 'available' },
    ]);
    assert.deepEqual(toIntervals(timeline, '2027-03-03', '2027-03-04', defaults), [{ start: '2027-03-03', end: '2027-03-04', status: 'reserved' }]);
    assert.deepEqual(toIntervals(timeline, '2027-03-10', '2027-03-12', defaults), []);
  });
});

describe('availability days', () => {
  const show: ShowOptions = { showBookedAs: 'unavailable', showClosedAs: 'unavailable', showPendingAs: 'TENTATIVE' };
  const governing = (rules: Partial<GoverningConfiguration> = {}): GoverningConfiguration => ({
    id: 'c', check_in_days: Array(7).fill(true), checkout_days: Array(7).fill(true), min_duration: 1, max_duration: 0,
    min_advance: 0, max_advance: 0, cooldown_time: 0, rate: 100, dates: [['2027-03-01', '2027-03-21']], ...rules,
  });
  const timeline = (fields: Partial<ProductTimeline>): ProductTimeline => ({
    product_id: 'p', rent_period: 'nightly', product_cooldown: null, today: '2027-03-01',
    categories: [['2027-03-01', '2027-03-21', 'open']], configurations: [governing()], overrides: [], ...fields,
  });
  const flags = (t: ProductTimeline, start: string, end: string) =>
    toDays(t, start, end, show).map((day) => `${day.date.slice(8)} ${day.check_in ? 'in' : '-'} ${day.checkout ? 'out' : '-'}`);

  it('check-in from exactly min_advance days ahead up to exactly max_advance', () => {
    const t = timeline({ configurations: [governing({ min_advance: 2, max_advance: 4 })] });
    assert.deepEqual(flags(t, '2027-03-02', '2027-03-07'), ['02 - out', '03 in out', '04 in out', '05 in out', '06 - out']);
  });

  it('check-in needs the minimum stay free (a per-date minimum first) and the cooldown after it unblocked', () => {
    const booked: ProductTimeline['categories'] = [['2027-03-01', '2027-03-10', 'open'], ['2027-03-10', '2027-03-12', 'booked'], ['2027-03-12', '2027-03-21', 'open']];
    assert.deepEqual(flags(timeline({ categories: booked, configurations: [governing({ min_duration: 3 })] }), '2027-03-06', '2027-03-10'), ['06 in out', '07 in out', '08 - out', '09 - out']);
    assert.deepEqual(flags(timeline({ categories: booked, configurations: [governing({ cooldown_time: 2 })] }), '2027-03-06', '2027-03-10'), ['06 in out', '07 in out', '08 - out', '09 - -']);
    assert.deepEqual(flags(timeline({ categories: booked, product_cooldown: 1, configurations: [governing({ cooldown_time: 5 })] }), '2027-03-07', '2027-03-10'), ['07 in out', '08 in out', '09 - out']);
    const overridden = timeline({ categories: booked, overrides: [['2027-03-07', 250, 3], ['2027-03-08', null, null]] });
    const days = toDays(overridden, '2027-03-07', '2027-03-09', show);
    assert.deepEqual(days.map((day) => [day.date, day.check_in, day.min_duration, day.rate]), [['2027-03-07', true, 3, 250], ['2027-03-08', true, 1, 100]]);
    assert.equal(toDays(timeline({ categories: booked, overrides: [['2027-03-08', null, 3]] }), '2027-03-08', '2027-03-09', show)[0]!.check_in, false);
  });

  it('a minimum of 0 nights still needs the arrival night free', () => {
    const t = timeline({ categories: [['2027-03-01', '2027-03-05', 'open'], ['2027-03-05', '2027-03-06', 'blocked'], ['2027-03-06', '2027-03-21', 'open']], configurations: [governing({ min_duration: 0 })] });
    assert.deepEqual(flags(t, '2027-03-04', '2027-03-07'), ['04 in out', '05 - out', '06 in -']);
  });

  it('weekdays: check-in on the day’s configuration, checkout on the last night’s', () => {
    const t = timeline({ configurations: [governing({ check_in_days: onlyOn('2027-03-06'), checkout_days: onlyOn('2027-03-08') })] });
    assert.deepEqual(flags(t, '2027-03-05', '2027-03-09'), ['05 - -', '06 in -', '07 - -', '08 - out']);
  });

  it('a closed date, or one no configuration governs, has no flags, minimum stay or rate', () => {
    const t = timeline({
      categories: [['2027-03-01', '2027-03-05', 'open'], ['2027-03-05', '2027-03-06', 'closed'], ['2027-03-06', '2027-03-21', 'open']],
      configurations: [governing({ dates: [['2027-03-01', '2027-03-07']] })],
    });
    const days = toDays(t, '2027-03-04', '2027-03-09', show);
    assert.deepEqual(days.map((day) => [day.date.slice(8), day.status, day.check_in, day.checkout, day.min_duration, day.max_duration, day.rate]), [
      ['04', 'available', true, true, 1, 0, 100],
      ['05', 'unavailable', false, true, null, null, null],
      ['06', 'available', true, false, 1, 0, 100],
      ['07', 'available', false, true, null, null, null],
      ['08', 'available', false, false, null, null, null],
    ]);
  });

  it('the first day of the window has no night before it to check out from', () => {
    assert.deepEqual(flags(timeline({}), '2027-03-01', '2027-03-03'), ['01 in -', '02 in out']);
    assert.deepEqual(flags(timeline({}), '2027-02-27', '2027-03-02'), ['01 in -'], 'days before the timeline are left out');
    assert.deepEqual(flags(timeline({}), '2027-03-20', '2027-03-25'), ['20 in out'], 'and days after it');
    assert.deepEqual(toDays(timeline({ categories: [] }), '2027-03-01', '2027-03-03', show), []);
  });

  it('daily rentals: checkout on a free day of the configuration, with the cooldown after it unblocked', () => {
    const categories: ProductTimeline['categories'] = [['2027-03-01', '2027-03-06', 'open'], ['2027-03-06', '2027-03-07', 'booked'], ['2027-03-07', '2027-03-21', 'open']];
    const t = timeline({ rent_period: 'daily', categories, configurations: [governing({ cooldown_time: 1 })] });
    assert.deepEqual(flags(t, '2027-03-03', '2027-03-08'), ['03 in out', '04 in out', '05 - -', '06 - -', '07 in out']);
  });
});
