/**
 * A NUL character (U+0000) in any text a request carries is a 400 `SK707` in the error shape, never a 500:
 * PostgreSQL's text and jsonb cannot hold it (SQLSTATE 22021 / 22P05). One check covers every route: the body guard
 * finds it in JSON strings (`\u0000`), raw in text and CSV bodies and percent-encoded in form bodies, and the request
 * target check in the path and query string — so anonymous logins, set-password, publishable keys, the dashboard's
 * keys, resource writes, filters and the booking flow all answer the same — and a NUL that reaches the database by
 * any other way is mapped from its SQLSTATE to the same 400.
 */
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { forEachBackend } from '../support/databases.js';
import { bearer, createOrganization, startApp, type TestOrganization } from '../support/app.js';
import { createUser, login, type Session } from '../users/support.js';
import { fixtures } from '../support/fixtures.js';
import { toApiError } from '../../src/http/error-handler.js';

function assertRefused(response: LightMyRequestResponse, what: string): void {
  assert.equal(response.statusCode, 400, `${what}: ${response.statusCode} ${response.body}`);
  const body = response.json() as Record<string, unknown>;
  assert.deepEqual(Object.keys(body).sort(), ['code', 'details', 'hint', 'message'], what);
  assert.equal(body.code, 'SK707', `${what}: ${response.body}`);
}

forEachBackend('NUL characters in requests', (ctx) => {
  let app: FastifyInstance;
  let org: TestOrganization;
  let session: Session;
  let product: string;

  before(async () => {
    app = await startApp(ctx.db);
    org = await createOrganization(ctx.db, 'Nulls');
    const owner = await createUser(ctx.db, org.id, 'owner@nulls.example');
    session = await login(app, owner.email, owner.password);
    const make = fixtures(ctx.db, org.id);
    product = await make.product();
    await make.configuration(product);
  });
  after(() => app.close());

  const json = (method: 'POST' | 'PATCH' | 'GET', url: string, payload: string, headers: Record<string, string> = {}) =>
    app.inject({ method, url, payload, headers: { 'content-type': 'application/json', ...headers } });
  const withKey = bearer;
  const withSession = () => ({ cookie: session.cookie, 'x-csrf-token': session.csrf });

  it('in a JSON body: login, set-password, publishable keys, the dashboard\'s keys, a resource, the booking flow', async () => {
    assertRefused(await json('POST', '/auth/login', '{"email":"a\\u0000@x.test","password":"whatever it is"}'), 'anonymous login');
    assertRefused(await json('POST', '/auth/login', '{"email":"a@x.test","password":"pass\\u0000word"}'), 'login password');
    assertRefused(await json('POST', '/auth/set-password', `{"token":"${'A'.repeat(42)}\\u0000","password":"a long passphrase"}`), 'set-password');
    const widget = await app.inject({ method: 'POST', url: '/v1/widgets', payload: { name: 'Widget' }, headers: { ...withKey(org.key), prefer: 'return=representation' } });
    assert.equal(widget.statusCode, 201, widget.body);
    assertRefused(await json('POST', '/v1/publishable-keys', `{"widget_id":"${widget.json()[0].id}","name":"pk\\u0000"}`, withKey(org.key)), 'publishable key name');
    assertRefused(await json('POST', '/admin/api/keys', '{"name":"key\\u0000","scopes":["read"]}', withSession()), 'dashboard key name');
    assertRefused(await json('POST', '/v1/contacts', '{"first_name":"Ada\\u0000"}', withKey(org.key)), 'resource POST');
    assertRefused(await json('PATCH', `/v1/products?id=eq.${product}`, '{"name":{"default":"House\\u0000"}}', withKey(org.key)), 'jsonb column');
    assertRefused(await json('POST', '/v1/contacts', '{"first\\u0000name":"Ada"}', withKey(org.key)), 'an object key');
    assertRefused(await json('POST', '/v1/book', JSON.stringify({
      product_id: product, interval: { start: '2027-04-10', end: '2027-04-12' }, contact: { first_name: 'Ada\u0000', email: 'ada@example.com' },
    }), withKey(org.key)), 'booking');
    assertRefused(await json('POST', '/v1/quote', JSON.stringify({ product_id: product, interval: { start: '2027-04-10', end: '2027-04-12' }, coupon_codes: ['\u0000'] }), withKey(org.key)), 'quote');
  });

  it('in the path and the query string: a filter value, a select, the booking flow, the iCal feed', async () => {
    for (const url of [
      '/v1/contacts?first_name=eq.Ada%00', '/v1/contacts?select=first_name%00', `/v1/availability?product_ids=${product}%00`,
      '/v1/products/%00', '/v1/ical/%00.ics', '/auth/session?x=%00',
    ]) assertRefused(await app.inject({ method: 'GET', url, headers: withKey(org.key) }), url);
    assertRefused(await app.inject({ method: 'GET', url: '/v1/contacts?first_name=eq.Ada%00', headers: { cookie: session.cookie } }), 'session read');
    assertRefused(await app.inject({ method: 'GET', url: '/v1/contacts?first_name=eq.Ada%00' }), 'anonymous read');
  });

  it('raw in a CSV or text body, and percent-encoded in a form', async () => {
    assertRefused(await app.inject({ method: 'POST', url: '/v1/contacts', payload: 'first_name\nAda\u0000\n', headers: { ...withKey(org.key), 'content-type': 'text/csv' } }), 'CSV');
    assertRefused(await app.inject({ method: 'POST', url: `/g/${'a'.repeat(32)}/cancellation-request`, payload: 'reason=a%00b', headers: { 'content-type': 'application/x-www-form-urlencoded' } }), 'form');
  });

  it('maps a NUL the database refuses, by any other way in, to the same 400 and not a 500', async () => {
    for (const [sql, value] of [['SELECT $1::text', 'a\u0000b'], ['SELECT $1::jsonb', '{"name":"a\\u0000b"}']] as const) {
      const refused = await ctx.db.query(sql, [value]).then(() => undefined, (error: unknown) => error);
      assert.ok(refused, `${sql} must fail`);
      const mapped = toApiError(refused);
      assert.deepEqual([mapped?.status, mapped?.code], [400, 'SK707'], `${sql}: ${String(refused)}`);
    }
  });

  it('leaves the neighbours of NUL alone: an escaped backslash before u0000, and other control characters', async () => {
    const literal = await json('POST', '/v1/contacts', '{"first_name":"C:\\\\u0000"}', { ...withKey(org.key), prefer: 'return=representation' });
    assert.equal(literal.statusCode, 201, literal.body);
    assert.equal(literal.json()[0].first_name, 'C:\\u0000');
    const tab = await json('POST', '/v1/contacts', '{"first_name":"Tab\\tbed\\u0001"}', { ...withKey(org.key), prefer: 'return=representation' });
    assert.equal(tab.statusCode, 201, tab.body);
    const encoded = await app.inject({ method: 'GET', url: '/v1/contacts?first_name=eq.100%2500&select=first_name', headers: withKey(org.key) });
    assert.equal(encoded.statusCode, 200, encoded.body);
  });
});
