import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { generateApiKey, hashSecret, parseApiKey, secretMatches } from '../../src/auth/api-key-format.js';

describe('API key format', () => {
  it('generates sk_<12 base32>_<base62 secret> and stores only the hash of the secret', () => {
    const key = generateApiKey();
    assert.match(key.token, /^sk_[a-z2-7]{12}_[0-9A-Za-z]{43}$/);
    const parsed = parseApiKey(key.token);
    assert.ok(parsed);
    assert.equal(parsed.keyId, key.keyId);
    assert.equal(key.secretHash, hashSecret(parsed.secret));
    assert.ok(!key.secretHash.includes(parsed.secret));
  });

  it('gives every key its own id and secret', () => {
    const tokens = new Set(Array.from({ length: 200 }, () => generateApiKey().token));
    const ids = new Set([...tokens].map((token) => parseApiKey(token)?.keyId));
    assert.equal(tokens.size, 200);
    assert.equal(ids.size, 200);
  });

  it('rejects tokens of another shape', () => {
    for (const token of ['', 'sk_', 'sk_ABCDEFGHIJKL_secretsecretsecretsecret', 'pk_abcdefghijkl_secretsecretsecretsecret', 'sk_abcdefghijkl_short', 'sk_abcdefghijkl_has space in it 1234567890']) {
      assert.equal(parseApiKey(token), undefined, token);
    }
  });

  it('matches a secret only against its own hash', () => {
    const key = generateApiKey();
    const secret = parseApiKey(key.token)!.secret;
    assert.equal(secretMatches(secret, key.secretHash), true);
    assert.equal(secretMatches(`${secret}x`, key.secretHash), false);
    assert.equal(secretMatches(secret, generateApiKey().secretHash), false);
    assert.equal(secretMatches(secret, 'not-hex'), false);
  });
});
