import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { hasScope, parseScopes, ScopeError } from '../../src/auth/scopes.js';

const resources = new Set(['bookings', 'webhooks', 'products']);

describe('scopes', () => {
  it('accepts read, write and per-resource scopes, without duplicates', () => {
    assert.deepEqual(parseScopes('read, bookings:write,read', resources), ['read', 'bookings:write']);
  });

  it('rejects unknown resources, levels and empty lists with a message naming the scope', () => {
    assert.throws(() => parseScopes('guests:read', resources), (e: Error) => e instanceof ScopeError && e.message.includes('guests'));
    assert.throws(() => parseScopes('admin', resources), /invalid scope "admin"/);
    assert.throws(() => parseScopes(' , ', resources), /at least one scope/);
  });

  it('lets write imply read, globally and per resource, but never the other way round', () => {
    assert.equal(hasScope(['write'], 'bookings', 'read'), true);
    assert.equal(hasScope(['bookings:write'], 'bookings', 'read'), true);
    assert.equal(hasScope(['read'], 'bookings', 'write'), false);
    assert.equal(hasScope(['bookings:read'], 'bookings', 'write'), false);
    assert.equal(hasScope(['bookings:write'], 'webhooks', 'read'), false);
    assert.equal(hasScope(['webhooks:read'], 'webhooks', 'read'), true);
  });
});
