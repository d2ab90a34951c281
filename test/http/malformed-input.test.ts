/**
 * Malformed input through the real app is a 4xx in the API's error shape, never a silent success: a CSV body that
 * breaks the format or names unknown columns, a filter parameter without "=", a path segment past the router's
 * limit. (Bodies that are not UTF-8: test/http/body-guard.test.ts.)
 */
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { forEachBackend } from '../support/databases.js';
import { bearer, createOrganization, startApp, type TestOrganization } from '../support/app.js';

type Injected = { statusCode: number; body: string; json(): Record<string, unknown> };

forEachBackend('malformed input', (ctx) => {
  let app: FastifyInstance;
  let org: TestOrganization;

  before(async () => {
    app = await startApp(ctx.db);
    org = await createOrganization(ctx.db, 'Malformed');
  });
  after(() => app.close());

  const postCsv = (payload: string) =>
    app.inject({
      method: 'POST', url: '/v1/contacts', headers: { ...bearer(org.key), 'content-type': 'text/csv', prefer: 'return=representation' }, payload,
    });
  const count = async () =>
    (await ctx.db.query<{ n: number }>('SELECT count(*)::integer AS n FROM api.contacts WHERE organization_id = $1', [org.id])).rows[0]!.n;
  const assertError = (response: Injected, status: number, code: string, text?: RegExp) => {
    assert.equal(response.statusCode, status, response.body);
    const body = response.json();
    assert.deepEqual(Object.keys(body).sort(), ['code', 'details', 'hint', 'message']);
    assert.equal(body.code, code);
    if (text) assert.match(`${String(body.message)} ${String(body.details)}`, text);
  };

  it('refuses malformed CSV bodies instead of inserting nothing with 201', async () => {
    const before = await count();
    // JSON sent as CSV: quotes inside a field.
    assertError(await postCsv('{"first_name":"Ada"}'), 400, 'PGRST102', /quote may only enclose a whole field/);
    // A header alone still names its columns: unknown ones are refused.
    assertError(await postCsv('nope\n'), 400, 'PGRST204');
    assertError(await postCsv('first_name;last_name'), 400, 'PGRST204');
    assertError(await postCsv('first_name\n"Ada"Lovelace\n'), 400, 'PGRST102', /quote may only enclose a whole field/);
    assertError(await postCsv('first_name\nAda "the" Countess\n'), 400, 'PGRST102', /quote may only enclose a whole field/);
    assertError(await postCsv('first_name,first_name\nAda,Grace\n'), 400, 'PGRST102', /twice/);
    assertError(await postCsv('first_name,\nAda,x\n'), 400, 'PGRST102', /empty column name/);
    assertError(await postCsv('first_name\n"Ada\n'), 400, 'PGRST102', /Unterminated/);
    assert.equal(await count(), before, 'nothing was written');
  });

  it('still takes well-formed CSV, quotes and all', async () => {
    const response = await postCsv('first_name,company\n"Ada, Countess","Love""lace"\nGrace,NULL\n');
    assert.equal(response.statusCode, 201, response.body);
    const rows = response.json() as unknown as { first_name: string; company: string | null }[];
    assert.deepEqual(rows.map((row) => [row.first_name, row.company]), [['Ada, Countess', 'Love"lace'], ['Grace', null]]);
    // A header alone inserts nothing, like an empty JSON array, once its columns are known.
    assert.equal((await postCsv('first_name,last_name\n')).statusCode, 201);
  });

  it('refuses a filter parameter without "=" on a table', async () => {
    const get = (query: string) => app.inject({ method: 'GET', url: `/v1/contacts?${query}`, headers: bearer(org.key) });
    assertError(await get('first_name'), 400, 'PGRST100', /has no value/);
    assertError(await get('select=id&last_name'), 400, 'PGRST100', /"last_name"/);
    // Reserved parameters without a value are ignored, as PostgREST does.
    assert.equal((await get('select&order&limit')).statusCode, 200);
    assert.equal((await get('first_name=eq.Grace')).statusCode, 200);
  });

  it('answers a path segment over 100 characters with 414 SK414', async () => {
    const response = await app.inject({ method: 'GET', url: `/v1/${'x'.repeat(101)}`, headers: bearer(org.key) });
    assertError(response, 414, 'SK414', /at most 100 characters/);
    const atLimit = await app.inject({ method: 'GET', url: `/v1/${'x'.repeat(100)}`, headers: bearer(org.key) });
    assertError(atLimit, 404, 'PGRST205');
  });
});
