/**
 * Request bodies through the real app: JSON nested deeper than 64 levels and text that is not UTF-8 are refused
 * with 400 PGRST102 before anything runs — on the resource API and the booking flow alike — and nothing is stored.
 */
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { forEachBackend } from '../support/databases.js';
import { bearer, createOrganization, startApp, type TestOrganization } from '../support/app.js';

/** `levels` arrays, one inside the other, around `inner`. */
const nested = (levels: number, inner = '1') => '['.repeat(levels) + inner + ']'.repeat(levels);
/** An object (contacts.address must be one) holding `levels - 1` nested arrays: `levels` levels in all. */
const address = (levels: number) => `{"lines":${nested(levels - 1)}}`;

forEachBackend('request bodies: JSON depth and UTF-8', (ctx) => {
  let app: FastifyInstance;
  let org: TestOrganization;
  const json = () => ({ ...bearer(org.key), 'content-type': 'application/json' });

  before(async () => {
    app = await startApp(ctx.db);
    org = await createOrganization(ctx.db, 'Bodies');
  });
  after(() => app.close());

  const contacts = async () =>
    (await ctx.db.query<{ first_name: string; address: unknown }>(
      'SELECT first_name, address FROM api.contacts WHERE organization_id = $1 ORDER BY first_name', [org.id])).rows;

  const assertInvalidBody = (response: { statusCode: number; body: string; json(): Record<string, unknown> }, details: RegExp) => {
    assert.equal(response.statusCode, 400, response.body);
    const body = response.json();
    assert.equal(body.code, 'PGRST102');
    assert.match(String(body.details), details);
    assert.doesNotMatch(response.body, /max_stack_depth|stack/i);
  };

  it('stores JSON nested 64 levels deep and refuses 65 with 400, whatever the Prefer header', async () => {
    // The body object is level 1, so `address` may nest 63 levels.
    const atLimit = await app.inject({
      method: 'POST', url: '/v1/contacts', headers: json(), payload: `{"first_name":"Deep","address":${address(63)}}`,
    });
    assert.equal(atLimit.statusCode, 201, atLimit.body);
    for (const prefer of ['return=minimal', 'tx=rollback', 'return=representation']) {
      const past = await app.inject({
        method: 'POST', url: '/v1/contacts', headers: { ...json(), prefer }, payload: `{"first_name":"Deeper","address":${address(64)}}`,
      });
      assertInvalidBody(past, /at most 64 levels/);
    }
    const huge = await app.inject({
      method: 'POST', url: '/v1/contacts', headers: json(), payload: `{"first_name":"Deepest","address":${address(20_000)}}`,
    });
    assertInvalidBody(huge, /at most 64 levels/);
    assert.deepEqual((await contacts()).map((row) => row.first_name), ['Deep']);
  });

  it('counts brackets inside strings as text, escaped quotes included', async () => {
    const text = `\\"${'['.repeat(500)}`;
    const response = await app.inject({
      method: 'POST', url: '/v1/contacts', headers: json(), payload: `{"first_name":"Brackets","notes":"${text}"}`,
    });
    assert.equal(response.statusCode, 201, response.body);
  });

  it('refuses a deep body on the booking flow with 400, also with an Idempotency-Key', async () => {
    const body = `{"product_id":"00000000-0000-4000-8000-000000000000","interval":{"start":"2030-01-01","end":"2030-01-03"},"ignored":${nested(4000)}}`;
    const book = await app.inject({ method: 'POST', url: '/v1/book', headers: { ...json(), 'idempotency-key': 'deep-1' }, payload: body });
    assertInvalidBody(book, /at most 64 levels/);
    const quote = await app.inject({ method: 'POST', url: '/v1/quote', headers: json(), payload: body });
    assertInvalidBody(quote, /at most 64 levels/);
  });

  it('refuses bodies that are not UTF-8 instead of storing U+FFFD', async () => {
    const invalid = Buffer.concat([Buffer.from('{"first_name":"Bad'), Buffer.from([0xff, 0xfe]), Buffer.from('"}')]);
    assertInvalidBody(await app.inject({ method: 'POST', url: '/v1/contacts', headers: json(), payload: invalid }), /UTF-8/);
    // A truncated multi-byte sequence at the very end of the body.
    const truncated = Buffer.concat([Buffer.from('{"first_name":"Cut"}'), Buffer.from([0xe2, 0x82])]);
    assertInvalidBody(await app.inject({ method: 'POST', url: '/v1/contacts', headers: json(), payload: truncated }), /UTF-8/);
    const csv = Buffer.concat([Buffer.from('first_name\nBad'), Buffer.from([0xc3, 0x28]), Buffer.from('\n')]);
    assertInvalidBody(
      await app.inject({ method: 'POST', url: '/v1/contacts', headers: { ...bearer(org.key), 'content-type': 'text/csv' }, payload: csv }),
      /UTF-8/,
    );
    const quote = Buffer.concat([Buffer.from('{"product_id":"'), Buffer.from([0xc0, 0xaf]), Buffer.from('"}')]);
    assertInvalidBody(await app.inject({ method: 'POST', url: '/v1/quote', headers: json(), payload: quote }), /UTF-8/);
    // Valid multi-byte text is stored as sent.
    const valid = await app.inject({ method: 'POST', url: '/v1/contacts', headers: json(), payload: Buffer.from('{"first_name":"Zoë €"}') });
    assert.equal(valid.statusCode, 201, valid.body);
    assert.ok((await contacts()).every((row) => !row.first_name.includes('\uFFFD')));
  });
});
