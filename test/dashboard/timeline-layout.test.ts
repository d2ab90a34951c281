/** Where the timeline puts a bar in a month, and which days a two-click selection blocks (pure date arithmetic). */
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { placeBar, selectionRange } from '../../web/dashboard/src/timeline/layout.js';
import { monthDays } from '../../web/dashboard/src/common/dates.js';

const first = '2026-03-01';
const days = monthDays(first).length;

it('a stay inside the month covers its nights, from its arrival column', () => {
  assert.equal(days, 31);
  assert.deepEqual(placeBar('2026-03-03', '2026-03-07', first, days), { offset: 2, length: 4, continuesBefore: false, continuesAfter: false });
});

it('a stay across the month edges is cut there and says it goes on', () => {
  assert.deepEqual(placeBar('2026-02-26', '2026-03-02', first, days), { offset: 0, length: 1, continuesBefore: true, continuesAfter: false });
  assert.deepEqual(placeBar('2026-03-30', '2026-04-04', first, days), { offset: 29, length: 2, continuesBefore: false, continuesAfter: true });
  assert.deepEqual(placeBar('2026-02-01', '2026-05-01', first, days), { offset: 0, length: 31, continuesBefore: true, continuesAfter: true });
});

it('a stay that ends on the first day or starts after the last is not in the month', () => {
  assert.equal(placeBar('2026-02-25', '2026-03-01', first, days), null);
  assert.equal(placeBar('2026-04-01', '2026-04-03', first, days), null);
});

it('the daylight-saving change (29 March in Europe) does not shift a bar', () => {
  assert.deepEqual(placeBar('2026-03-28', '2026-03-31', first, days), { offset: 27, length: 3, continuesBefore: false, continuesAfter: false });
});

it('a selection blocks from the earlier to the later day picked, both included', () => {
  assert.deepEqual(selectionRange('2026-03-10', '2026-03-12'), { start: '2026-03-10', end: '2026-03-13' });
  assert.deepEqual(selectionRange('2026-03-12', '2026-03-10'), { start: '2026-03-10', end: '2026-03-13' });
  assert.deepEqual(selectionRange('2026-03-31', '2026-03-31'), { start: '2026-03-31', end: '2026-04-01' });
});
