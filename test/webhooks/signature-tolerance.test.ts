/**
 * The receiver's timestamp window is symmetric: a message signed too far in the future is refused like a stale
 * one (a replay window that only looks backwards lets an attacker who once saw a future-dated signature use it
 * for ever), and exactly ± the tolerance is still accepted.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULT_TOLERANCE_SECONDS, generateSigningSecret, signedHeaders, verifyWebhook } from '../../src/webhooks/signature.js';

const NOW = 1_800_000_000;
const BODY = '{"id":"n1","date":1,"event_type":"contacts.created","payload":{"new":null,"old":null}}';

describe('webhook signature timestamp tolerance', () => {
  const secret = generateSigningSecret();
  const verifyAt = (timestamp: number, toleranceSeconds?: number) =>
    verifyWebhook(secret, BODY, signedHeaders(secret, 'n1', BODY, timestamp), { now: NOW, toleranceSeconds });

  it('accepts a timestamp exactly the tolerance before or after now', () => {
    assert.deepEqual(verifyAt(NOW - DEFAULT_TOLERANCE_SECONDS), JSON.parse(BODY));
    assert.deepEqual(verifyAt(NOW + DEFAULT_TOLERANCE_SECONDS), JSON.parse(BODY));
  });

  it('refuses a timestamp one second beyond the tolerance on either side', () => {
    assert.throws(() => verifyAt(NOW - DEFAULT_TOLERANCE_SECONDS - 1), /tolerance/);
    assert.throws(() => verifyAt(NOW + DEFAULT_TOLERANCE_SECONDS + 1), /tolerance/);
  });

  it('refuses a far-future timestamp', () => {
    assert.throws(() => verifyAt(NOW + 365 * 24 * 3600), /tolerance/);
    assert.throws(() => verifyAt(9_999_999_999), /tolerance/);
  });

  it('applies a custom tolerance the same way', () => {
    assert.deepEqual(verifyAt(NOW + 10, 10), JSON.parse(BODY));
    assert.throws(() => verifyAt(NOW + 11, 10), /tolerance/);
    assert.throws(() => verifyAt(NOW - 11, 10), /tolerance/);
  });
});
