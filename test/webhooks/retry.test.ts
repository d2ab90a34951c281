import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { MAX_RETRY_AFTER_SECONDS, decideOutcome, parseRetryAfter } from '../../src/webhooks/retry.js';

const DEFAULT = [0, 5, 300, 1800, 7200, 18000, 36000, 50400, 72000, 86400];

describe('webhook retry policy', () => {
  it('after attempt n fails, waits schedule[n]; after the last, error', () => {
    assert.deepEqual(decideOutcome(DEFAULT, 1, 500), { kind: 'retry', delaySeconds: 5 });
    assert.deepEqual(decideOutcome(DEFAULT, 2, undefined), { kind: 'retry', delaySeconds: 300 });
    assert.deepEqual(decideOutcome(DEFAULT, 9, 502), { kind: 'retry', delaySeconds: 86400 });
    assert.deepEqual(decideOutcome(DEFAULT, 10, 500), { kind: 'error' });
    assert.deepEqual(decideOutcome([0], 1, 500), { kind: 'error' });
  });

  it('only 2xx is success; 3xx and 4xx are failures; 410 is gone', () => {
    assert.deepEqual(decideOutcome(DEFAULT, 1, 200), { kind: 'sent' });
    assert.deepEqual(decideOutcome(DEFAULT, 10, 299), { kind: 'sent' });
    assert.equal(decideOutcome(DEFAULT, 1, 302).kind, 'retry');
    assert.equal(decideOutcome(DEFAULT, 1, 400).kind, 'retry');
    assert.deepEqual(decideOutcome(DEFAULT, 1, 410), { kind: 'gone' });
  });

  it('Retry-After on 429/503 delays further than the schedule, never less', () => {
    assert.deepEqual(decideOutcome(DEFAULT, 1, 429, 60), { kind: 'retry', delaySeconds: 60 });
    assert.deepEqual(decideOutcome(DEFAULT, 3, 503, 60), { kind: 'retry', delaySeconds: 1800 });
    assert.deepEqual(decideOutcome(DEFAULT, 1, 500, 60), { kind: 'retry', delaySeconds: 5 });
    assert.deepEqual(decideOutcome(DEFAULT, 10, 429, 60), { kind: 'error' });
  });

  it('parses Retry-After seconds and dates, capped', () => {
    assert.equal(parseRetryAfter('120'), 120);
    assert.equal(parseRetryAfter(' 7 '), 7);
    assert.equal(parseRetryAfter('99999999'), MAX_RETRY_AFTER_SECONDS);
    const now = Date.parse('2026-01-01T00:00:00Z');
    assert.equal(parseRetryAfter('Thu, 01 Jan 2026 00:01:00 GMT', now), 60);
    assert.equal(parseRetryAfter('Wed, 31 Dec 2025 00:00:00 GMT', now), 0);
    assert.equal(parseRetryAfter('soon'), undefined);
    assert.equal(parseRetryAfter(undefined), undefined);
  });
});
