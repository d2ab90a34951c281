import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { bestAdjustments, percentOf, roundHalfUp } from '../../src/booking/pricing.js';
import { conflictingEvents, resolveOccupancy, toStay } from '../../src/booking/rules.js';
import { addDays, daysBetween, isDate, todayIn, weekdayIndex } from '../../src/common/dates.js';
import { statusOf, toDays, toIntervals, type ProductTimeline } from '../../src/booking/timeline.js';
import type { BlockingEvent, CapacityGroup } from '../../src/booking/model.js';

describe('booking rules (pure)', () => {
  it('rounds half away from zero, without float noise', () => {
    assert.equal(roundHalfUp(2.5), 3);
    assert.equal(roundHalfUp(-2.5), -3);
    assert.equal(roundHalfUp(2.4999), 2);
    assert.equal(roundHalfUp(-0.4), 0);
    assert.ok(Object.is(roundHalfUp(-0.4), 0));
    assert.equal(percentOf(1005, 10), 101); // 100.5 → 101
    assert.equal(percentOf(1500, 2.3), 35); // 34.5, computed as 34.49999999999999 in floating point → 35
    assert.equal(percentOf(12345, -12.5), -1543); // −1543.125
    assert.equal(percentOf(333, 50), 167); // 166.5
  });

  it('picks the best entry of each adjustment list', () => {
    const arrival = {
      long_rent_adjustments: [{ min_duration: 7, percentage: -10 }, { min_duration: 28, percentage: -30 }, { min_duration: 14, percentage: -20 }],
      early_bird_adjustments: [{ min_advance: 30, percentage: -5 }, { min_advance: 90, percentage: -8 }],
      last_minute_adjustments: [{ max_advance: 7, percentage: -10 }, { max_advance: 2, percentage: -25 }],
    };
    assert.deepEqual(bestAdjustments(arrival, 20, 100).map((a) => [a.kind, a.entry.percentage]), [['long_rent', -20], ['early_bird', -8]]);
    assert.deepEqual(bestAdjustments(arrival, 6, 1).map((a) => [a.kind, a.entry.percentage]), [['last_minute', -25]]);
    assert.deepEqual(bestAdjustments(arrival, 6, 5).map((a) => [a.kind, a.entry.percentage]), [['last_minute', -10]]);
    assert.deepEqual(bestAdjustments(arrival, 6, 10), []);
  });

  it('shapes nightly and daily stays', () => {
    assert.deepEqual(toStay('nightly', { start: '2027-03-10', end: '2027-03-13' }), { start: '2027-03-10', end: '2027-03-13', endExclusive: '2027-03-13', length: 3 });
    assert.deepEqual(toStay('daily', { start: '2027-03-10', end: '2027-03-10' }), { start: '2027-03-10', end: '2027-03-10', endExclusive: '2027-03-11', length: 1 });
    assert.throws(() => toStay('nightly', { start: '2027-03-10', end: '2027-03-10' }), /at least one night/);
  });

  it('finds overlaps including both paddings', () => {
    const event = (start_date: string, end_date: string, padding: number): BlockingEvent =>
      ({ id: start_date, product_id: 'p', start_date, end_date, padding, status: 'CONFIRMED', type: 'booking' });
    const stay = toStay('nightly', { start: '2027-03-10', end: '2027-03-12' });
    assert.equal(conflictingEvents(stay, 0, [event('2027-03-12', '2027-03-14', 0)]).length, 0); // back to back
    assert.equal(conflictingEvents(stay, 1, [event('2027-03-12', '2027-03-14', 0)]).length, 1); // our cooldown
    assert.equal(conflictingEvents(stay, 0, [event('2027-03-08', '2027-03-10', 1)]).length, 1); // their cooldown
    assert.equal(conflictingEvents(stay, 0, [event('2027-03-07', '2027-03-09', 1)]).length, 0);
  });

  it('sets accumulators to the sum of their elements and counts guests without them', () => {
    const groups: CapacityGroup[] = [
      { id: 'adults', name: { default: 'Adults' }, requires_explicit_input: true, elements: [] },
      { id: 'children', name: { default: 'Children' }, requires_explicit_input: false, elements: [] },
      { id: 'pets', name: { default: 'Pets' }, requires_explicit_input: false, elements: [] },
      { id: 'people', name: { default: 'People' }, requires_explicit_input: false, elements: ['adults', 'children'] },
    ];
    const resolved = resolveOccupancy({ adults: 2, children: 1, people: 99 }, groups, [
      { product_id: 'p', capacity_group_id: 'people', min: 1, max: 3 },
      { product_id: 'p', capacity_group_id: 'adults', min: 1, max: null },
    ]);
    assert.deepEqual(resolved.occupancy, { adults: 2, children: 1, people: 3 });
    assert.equal(resolved.guests, 3);
    assert.deepEqual(resolved.reasons, []);
    const missing = resolveOccupancy({ children: 4 }, groups, [{ product_id: 'p', capacity_group_id: 'adults', min: 0, max: null }, { product_id: 'p', capacity_group_id: 'people', min: 0, max: 3 }]);
    assert.deepEqual(missing.reasons, ['The number of Adults must be given', 'At most 3 People allowed (got 4)']);
    assert.throws(() => resolveOccupancy({ ghosts: 1 }, groups, []), /Unknown capacity group ghosts/);
  });

  it('does date arithmetic in whole calendar days, independent of DST', () => {
    assert.equal(addDays('2027-03-27', 2), '2027-03-29'); // across the European DST change
    assert.equal(daysBetween('2027-02-27', '2027-03-01'), 2);
    assert.equal(weekdayIndex('2027-03-01'), 0); // Monday
    assert.equal(weekdayIndex('2027-03-07'), 6); // Sunday
    assert.equal(isDate('2027-02-29'), false);
    assert.equal(isDate('2028-02-29'), true);
    assert.equal(todayIn('Pacific/Kiritimati', new Date('2027-03-01T10:00:00Z')), '2027-03-02');
    assert.equal(todayIn('Pacific/Pago_Pago', new Date('2027-03-01T10:00:00Z')), '2027-02-28');
  });

  it('derives day statuses, flags and intervals', () => {
    const show = { showBookedAs: 'unavailable', showClosedAs: 'unavailable', showPendingAs: 'TENTATIVE' } as const;
    assert.equal(statusOf('tentative', { ...show, showPendingAs: 'CONFIRMED' }), 'unavailable');
    assert.equal(statusOf('booked', { ...show, showBookedAs: 'booked' }), 'booked');
    assert.equal(statusOf('closed', { ...show, showClosedAs: 'closed' }), 'closed');
    assert.equal(statusOf('padding', show), 'reserved');
    const timeline: ProductTimeline = {
      product_id: 'p', rent_period: 'nightly', product_cooldown: null, today: '2027-03-01',
      categories: [['2027-03-01', '2027-03-04', 'open'], ['2027-03-04', '2027-03-05', 'booked'], ['2027-03-05', '2027-03-06', 'open']],
      configurations: [{
        id: 'c', check_in_days: Array(7).fill(true), checkout_days: Array(7).fill(true), min_duration: 2, max_duration: 0,
        min_advance: 0, max_advance: 0, cooldown_time: 0, rate: 100, dates: [['2027-03-01', '2027-03-06']],
      }],
      overrides: [],
    };
    const days = toDays(timeline, '2027-03-02', '2027-03-05', show);
    // A 2-night minimum: check-in on the 2nd (nights 2, 3 free), not on the 3rd (night 4 booked).
    assert.deepEqual(days.map((d) => [d.date, d.status, d.check_in, d.checkout]), [
      ['2027-03-02', 'available', true, true],
      ['2027-03-03', 'available', false, true],
      ['2027-03-04', 'unavailable', false, true],
    ]);
    assert.deepEqual(toIntervals(timeline, '2027-03-02', '2027-03-05', show), [
      { start: '2027-03-02', end: '2027-03-04', status: 'available' },
      { start: '2027-03-04', end: '2027-03-05', status: 'unavailable' },
    ]);
    // Neighbouring categories that show the same status merge: booked and closed are both "unavailable".
    const merged = { ...timeline, categories: [['2027-03-01', '2027-03-04', 'booked'], ['2027-03-04', '2027-03-06', 'closed']] } as ProductTimeline;
    assert.deepEqual(toIntervals(merged, '2027-03-02', '2027-03-06', show), [{ start: '2027-03-02', end: '2027-03-06', status: 'unavailable' }]);
  });
});
