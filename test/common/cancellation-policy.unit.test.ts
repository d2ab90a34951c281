/** A unit's cancellation policy in a guest's words (src/common/cancellation-policy.ts), by the meaning of migration 0216. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { describeCancellationPolicy, refundBands } from '../../src/common/cancellation-policy.js';

const rule = (days: number, percentage: number) => ({ days_before_arrival: days, refund_percentage: percentage });

describe('describeCancellationPolicy', () => {
  const policy = [rule(14, 50), rule(30, 100)]; // in any order

  it('says each band, earliest first, then that nothing is refunded later, in English, Dutch and German', () => {
    assert.deepEqual(describeCancellationPolicy(policy, 'en'), [
      'Free cancellation until 30 days before arrival.', '50 % refunded until 14 days before arrival.', 'No refund after that.',
    ]);
    assert.deepEqual(describeCancellationPolicy(policy, 'nl-NL'), [
      'Gratis annuleren tot 30 dagen voor aankomst.', '50 % terugbetaald tot 14 dagen voor aankomst.', 'Daarna geen terugbetaling.',
    ]);
    assert.deepEqual(describeCancellationPolicy(policy, 'de'), [
      'Kostenlose Stornierung bis 30 Tage vor Anreise.', '50 % Erstattung bis 14 Tage vor Anreise.', 'Danach keine Erstattung.',
    ]);
    assert.deepEqual(describeCancellationPolicy(policy, 'fr'), describeCancellationPolicy(policy, 'en'), 'other languages read English');
  });

  it('an empty policy refunds everything paid, whenever: it says so', () => {
    assert.deepEqual(describeCancellationPolicy([], 'en'), ['Free cancellation: everything paid is refunded, whenever you cancel.']);
    assert.match(describeCancellationPolicy([], 'de')[0]!, /^Kostenlose Stornierung/);
  });

  it('names one day and the day of arrival as such', () => {
    assert.deepEqual(describeCancellationPolicy([rule(1, 100), rule(0, 25)], 'en'), [
      'Free cancellation until 1 day before arrival.', '25 % refunded until the day of arrival.', 'No refund after that.',
    ]);
    assert.deepEqual(describeCancellationPolicy([rule(0, 100)], 'nl'), ['Gratis annuleren tot de dag van aankomst.', 'Daarna geen terugbetaling.']);
    assert.deepEqual(describeCancellationPolicy([rule(1, 80)], 'de'), ['80 % Erstattung bis 1 Tag vor Anreise.', 'Danach keine Erstattung.']);
  });

  it('a policy that never refunds says so; a band without refund before a later refund is said too', () => {
    assert.deepEqual(describeCancellationPolicy([rule(60, 0), rule(7, 0)], 'en'), ['No refund if you cancel.']);
    assert.deepEqual(describeCancellationPolicy([rule(30, 0), rule(7, 50)], 'en'), [
      'No refund until 30 days before arrival.', '50 % refunded until 7 days before arrival.', 'No refund after that.',
    ]);
  });
});

describe('refundBands', () => {
  it('merges neighbours with the same refund (the later one reaches further) and drops trailing bands that refund nothing', () => {
    assert.deepEqual(refundBands([rule(60, 100), rule(30, 100), rule(14, 50), rule(7, 0), rule(3, 0)]), [
      { days: 30, percentage: 100 }, { days: 14, percentage: 50 },
    ]);
    assert.equal(refundBands([]), 'everything');
  });
});
