import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  WebhookVerificationError, generateSigningSecret, sign, signedHeaders, verifyWebhook,
} from '../../src/webhooks/signature.js';
import { StandardWebhooks } from './support.js';

// The example of the Standard Webhooks specification.
const SPEC_SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const SPEC_ID = 'msg_p5jXN8AQM9LWM0D4loKWxJek';
const SPEC_TIMESTAMP = 1614265330;
const SPEC_BODY = '{"test": 2432232314}';
const SPEC_SIGNATURE = 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=';

describe('webhook signatures', () => {
  it('matches the Standard Webhooks example', () => {
    assert.equal(sign(SPEC_SECRET, SPEC_ID, SPEC_TIMESTAMP, SPEC_BODY), SPEC_SIGNATURE);
  });

  it('generates whsec_ + base64 of 32 random bytes', () => {
    const secret = generateSigningSecret();
    assert.match(secret, /^whsec_[A-Za-z0-9+/]{43}=$/);
    assert.equal(Buffer.from(secret.slice(6), 'base64').length, 32);
    assert.notEqual(secret, generateSigningSecret());
  });

  it('verifies what it signs, and rejects tampering, a wrong secret and stale timestamps', () => {
    const secret = generateSigningSecret();
    const body = JSON.stringify({ id: 'n1', date: 1, event_type: 'contacts.created', payload: { new: null, old: null } });
    const headers = signedHeaders(secret, 'n1', body);
    assert.deepEqual(verifyWebhook(secret, body, headers), JSON.parse(body));
    assert.deepEqual(verifyWebhook(secret, Buffer.from(body), { 'Webhook-Id': 'n1', 'Webhook-Timestamp': headers['webhook-timestamp'], 'Webhook-Signature': headers['webhook-signature'] }), JSON.parse(body));
    assert.throws(() => verifyWebhook(secret, body.replace('n1', 'n2'), headers), WebhookVerificationError);
    assert.throws(() => verifyWebhook(generateSigningSecret(), body, headers), WebhookVerificationError);
    assert.throws(() => verifyWebhook(secret, body, { ...headers, 'webhook-id': 'other' }), WebhookVerificationError);
    const old = signedHeaders(secret, 'n1', body, Math.floor(Date.now() / 1000) - 600);
    assert.throws(() => verifyWebhook(secret, body, old), /tolerance/);
    assert.throws(() => verifyWebhook(secret, body, { 'webhook-id': 'n1' }), /missing/);
  });

  it('accepts any matching signature among several (secret rotation)', () => {
    const secret = generateSigningSecret();
    const headers = signedHeaders(secret, 'n1', '{}');
    const rotated = { ...headers, 'webhook-signature': `v1,${Buffer.alloc(32).toString('base64')} ${headers['webhook-signature']}` };
    assert.deepEqual(verifyWebhook(secret, '{}', rotated), {});
  });

  it('agrees with the standardwebhooks package', { skip: StandardWebhooks ? false : 'standardwebhooks is not installed' }, () => {
    const Webhook = StandardWebhooks!;
    const secret = generateSigningSecret();
    const body = '{"id":"x","date":1,"event_type":"bookings.created","payload":{"new":{"a":"é"},"old":null}}';
    const headers = signedHeaders(secret, 'notification-1', body);
    assert.deepEqual(new Webhook(secret).verify(body, { ...headers }), JSON.parse(body));
    assert.throws(() => new Webhook(secret).verify(`${body} `, { ...headers }));
  });
});
