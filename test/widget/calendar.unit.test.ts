/** The widget's calendar rules, without a browser: which days can be picked, and where the keyboard moves focus. */
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { endsStay, moveFocus, selectable } from '../../web/widget/src/calendar.js';
import { addDays } from '../../web/widget/src/format.js';
import type { Day } from '../../web/widget/src/types.js';

function month(overrides: Record<string, Partial<Day>> = {}): Map<string, Day> {
  const days = new Map<string, Day>();
  for (let date = '2027-03-01'; date <= '2027-03-31'; date = addDays(date, 1)) {
    days.set(date, { date, status: 'available', check_in: true, checkout: true, min_duration: 2, max_duration: 7, rate: 10000, ...overrides[date] });
  }
  return days;
}

const nightly = (days: Map<string, Day>, start: string | null, end: string | null = null) => ({ days, selection: { start, end }, rentPeriod: 'nightly' as const });

it('picks check-in days first, then a checkout within the stay rules', () => {
  const days = month({ '2027-03-02': { check_in: false }, '2027-03-05': { check_in: false } });
  assert.equal(selectable(nightly(days, null), '2027-03-01'), true);
  assert.equal(selectable(nightly(days, null), '2027-03-02'), false);
  // From the 3rd: at least 2 nights, at most 7.
  assert.equal(endsStay(nightly(days, '2027-03-03'), '2027-03-04'), false);
  assert.equal(endsStay(nightly(days, '2027-03-03'), '2027-03-05'), true);
  assert.equal(selectable(nightly(days, '2027-03-03'), '2027-03-05'), true);
  assert.equal(endsStay(nightly(days, '2027-03-03'), '2027-03-10'), true);
  assert.equal(endsStay(nightly(days, '2027-03-03'), '2027-03-11'), false);
  assert.equal(endsStay(nightly(days, '2027-03-03'), '2027-03-02'), false);
  // The 4th cannot end the stay, but it may start a new one.
  assert.equal(selectable(nightly(days, '2027-03-03'), '2027-03-04'), true);
});

it('never lets a stay cross a booked night; the checkout day itself may be booked (nightly) but not a daily last day', () => {
  const days = month({ '2027-03-06': { status: 'booked', check_in: false } });
  assert.equal(endsStay(nightly(days, '2027-03-03'), '2027-03-06'), true);
  assert.equal(endsStay(nightly(days, '2027-03-03'), '2027-03-07'), false);
  assert.equal(endsStay({ days, selection: { start: '2027-03-03', end: null }, rentPeriod: 'daily' }, '2027-03-06'), false);
  assert.equal(endsStay({ days, selection: { start: '2027-03-03', end: null }, rentPeriod: 'daily' }, '2027-03-05'), true);
  assert.equal(selectable(nightly(days, null), '2027-03-06'), false);
});

it('requires a checkout day, and starts over once both days are picked', () => {
  const days = month({ '2027-03-06': { checkout: false } });
  assert.equal(endsStay(nightly(days, '2027-03-03'), '2027-03-06'), false);
  assert.equal(endsStay(nightly(days, '2027-03-03', '2027-03-05'), '2027-03-07'), false);
  assert.equal(selectable(nightly(days, '2027-03-03', '2027-03-05'), '2027-03-07'), true);
});

it('moves focus by day, week, week ends and month (clamped to the month\'s last day)', () => {
  assert.equal(moveFocus('2027-03-31', 'ArrowRight'), '2027-04-01');
  assert.equal(moveFocus('2027-03-01', 'ArrowLeft'), '2027-02-28');
  assert.equal(moveFocus('2027-03-03', 'ArrowDown'), '2027-03-10');
  assert.equal(moveFocus('2027-03-03', 'ArrowUp'), '2027-02-24');
  assert.equal(moveFocus('2027-03-03', 'Home'), '2027-03-01'); // Wednesday → Monday
  assert.equal(moveFocus('2027-03-03', 'End'), '2027-03-07');
  assert.equal(moveFocus('2027-03-31', 'PageDown'), '2027-04-30');
  assert.equal(moveFocus('2027-03-31', 'PageUp'), '2027-02-28');
  assert.equal(moveFocus('2027-03-03', 'Enter'), undefined);
});
