import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { hasScope, parseScopes, readableTables, requiredScope, ScopeError } from '../../src/auth/scopes.js';

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

  it('reads every report view with reports:read, which is read-only and the only scope naming them', () => {
    assert.equal(requiredScope('report_unit_months', 'read'), 'reports:read');
    assert.equal(requiredScope('report_unit_days', 'read'), 'reports:read');
    assert.equal(requiredScope('bookings', 'read'), 'bookings:read');
    assert.equal(requiredScope('unit_report_notes', 'read'), 'unit_report_notes:read', 'only names starting with report_');
    assert.equal(hasScope(['reports:read'], 'report_unit_days', 'read'), true);
    assert.equal(hasScope(['reports:read'], 'report_unit_days', 'write'), false);
    assert.equal(hasScope(['reports:read'], 'bookings', 'read'), false);
    assert.equal(hasScope(['bookings:read'], 'report_unit_months', 'read'), false);
    assert.deepEqual(parseScopes('reports:read, bookings:read', resources), ['reports:read', 'bookings:read'], 'reports needs no resource of that name');
    assert.throws(() => parseScopes('reports:write', resources), (e: Error) => e instanceof ScopeError && /"reports:write": reports are read-only, use reports:read/.test(e.message));
    assert.throws(() => parseScopes('report_unit_days:read', new Set(['report_unit_days'])),
      (e: Error) => e instanceof ScopeError && /"report_unit_days:read": report views are read with reports:read/.test(e.message));
  });

  it('lists the tables a key may read, ignoring stored strings that are no scope', () => {
    assert.equal(readableTables(['read']), 'all');
    assert.equal(readableTables(['bookings:read', 'write']), 'all');
    assert.deepEqual(readableTables(['bookings:read', 'legacy-admin', 'products:write', 'bookings:write']), ['bookings', 'products']);
  });
});
