/**
 * The error registry is the one place a client-visible code is declared: every code the source and the database's
 * functions use is in it, no code is built outside it, docs/errors.md lists exactly its codes, and the OpenAPI
 * document's error examples are the bodies the API really answers.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { ERROR_REGISTRY } from '../../src/errors/registry.js';
import { forEachBackend } from '../support/databases.js';
import { bearer, createOrganization, startApp, type TestOrganization } from '../support/app.js';

const ROOT = join(import.meta.dirname, '..', '..');
const REGISTRY_FILE = 'src/errors/registry.ts';
/** Passes PostgreSQL's own SQLSTATEs through with their status; builds no code of its own. */
const SQLSTATE_PASS_THROUGH_FILE = 'src/errors/database-error.ts';

/**
 * A SQLSTATE a migration raises: `RAISE … USING ERRCODE = '…'` or `RAISE SQLSTATE '…'` (condition names such as
 * unique_violation are PostgreSQL's own and not matched).
 */
const RAISED_IN_SQL = /\b(?:ERRCODE\s*=\s*|SQLSTATE\s+)'([0-9A-Z]{5})'/g;

/**
 * A Staykit code written in a function's body: raised (ERRCODE, SQLSTATE) or handed to a function that raises it
 * (`check_money_status_move('payment', 'SK660', …)`). The old private SQLSTATEs (SKP01, SKB01, …) match too.
 */
const STAYKIT_CODE_IN_SQL = /'(SK[0-9A-Z]{3})'/g;

function sourceFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

describe('error registry', () => {
  it('declares every code once with an HTTP error status, a message and a meaning, frozen', () => {
    assert.ok(Object.isFrozen(ERROR_REGISTRY));
    for (const [code, definition] of Object.entries(ERROR_REGISTRY)) {
      assert.match(code, /^(PGRST[0-9X]{3}|SK\d{3}|[0-9A-Z]{5})$/, code);
      assert.ok(Object.isFrozen(definition), code);
      assert.ok(Number.isInteger(definition.status) && definition.status >= 300 && definition.status <= 599, code);
      assert.ok(definition.message.trim() !== '' && definition.meaning.trim() !== '', code);
    }
  });

  it('holds every code the source uses or mentions, and no ApiError is built with a code outside it', () => {
    const unknown: string[] = [];
    const inline: string[] = [];
    for (const file of sourceFiles('src')) {
      if (file === REGISTRY_FILE) continue;
      const text = readFileSync(join(ROOT, file), 'utf8');
      for (const match of text.matchAll(/\b(PGRST[0-9X]+|SK\d{3,})\b/g)) {
        if (!(match[1]! in ERROR_REGISTRY)) unknown.push(`${file}: ${match[1]}`);
      }
      if (file !== SQLSTATE_PASS_THROUGH_FILE && /new ApiError\(/.test(text)) inline.push(relative(ROOT, join(ROOT, file)));
    }
    assert.deepEqual(unknown, [], 'codes used or mentioned in src/ but not declared in the registry');
    assert.deepEqual(inline, [], 'files that build an ApiError themselves instead of through the registry');
  });

  it('holds every Staykit code a migration raises', () => {
    const unknown: string[] = [];
    for (const name of readdirSync(join(ROOT, 'migrations')).filter((entry) => entry.endsWith('.sql')).sort()) {
      const text = readFileSync(join(ROOT, 'migrations', name), 'utf8');
      for (const match of text.matchAll(RAISED_IN_SQL)) {
        const code = match[1]!;
        // Private codes (SK[A-Z]nn) in a migration whose function a later one replaced are history, not answers:
        // the test of the functions in effect below refuses them where they still run.
        if (/^SK\d{3}$/.test(code) && !(code in ERROR_REGISTRY)) {
          unknown.push(`migrations/${name}:${text.slice(0, match.index).split('\n').length}: ${code}`);
        }
      }
    }
    assert.deepEqual(unknown, [], 'codes raised in migrations/ but not declared in the registry');
  });

  it('is the table of docs/errors.md: same codes, statuses, messages and meanings', () => {
    const doc = readFileSync(join(ROOT, 'docs/errors.md'), 'utf8');
    const rows = [...doc.matchAll(/^\| `([^`]+)` \| (\d{3}) \| (.+?) \| (.+?) \|$/gm)].map(([, code, status, message, meaning]) => ({
      code, status: Number(status), message, meaning,
    }));
    const expected = Object.entries(ERROR_REGISTRY).map(([code, definition]) => ({
      code,
      status: definition.status,
      message: definition.message === '{message}' ? '(worded for the case)' : definition.message,
      meaning: definition.meaning,
    }));
    assert.deepEqual(
      [...rows].sort((a, b) => a.code!.localeCompare(b.code!)),
      [...expected].sort((a, b) => a.code.localeCompare(b.code)),
    );
  });
});

forEachBackend('error codes raised by the database', (ctx) => {
  // The functions in effect, read from the migrated database: a migration's copy that a later one replaced no
  // longer runs, so only pg_proc tells which codes the database can still raise.
  it('the functions in effect raise only codes of the registry, none of the private SQLSTATEs of before 0230', async () => {
    const { rows } = await ctx.db.query<{ name: string; source: string }>(
      `SELECT p.oid::regprocedure::text AS name, p.prosrc AS source
       FROM pg_catalog.pg_proc AS p JOIN pg_catalog.pg_namespace AS n ON n.oid = p.pronamespace
       WHERE n.nspname NOT IN ('pg_catalog', 'information_schema') AND p.prosrc ~ $1`,
      [STAYKIT_CODE_IN_SQL.source],
    );
    const found = rows.flatMap(({ name, source }) => [...source.matchAll(STAYKIT_CODE_IN_SQL)].map((match) => ({ name, code: match[1]! })));
    const unknown = found.filter(({ code }) => !(code in ERROR_REGISTRY)).map(({ name, code }) => `${name}: ${code}`);
    assert.deepEqual(unknown, [], 'codes raised by functions in effect but not declared in the registry');
    // The scan sees the booking write path's refusals, so an empty list above is not a query that found nothing.
    assert.ok(found.some(({ name, code }) => name.startsWith('staykit_internal.create_booking(') && code === 'SK602'), JSON.stringify(found));
  });
});

forEachBackend('error examples of the OpenAPI document', (ctx) => {
  let app: FastifyInstance;
  let org: TestOrganization;
  let examples: Record<string, { value: Record<string, unknown> }>;
  before(async () => {
    app = await startApp(ctx.db);
    org = await createOrganization(ctx.db, 'Errors');
    const doc = (await app.inject({ method: 'GET', url: '/v1/openapi.json' })).json();
    examples = doc.components.responses.PayloadTooLarge.content['application/json'].examples;
  });
  after(() => app.close());

  it('a bulk insert of too many rows answers the example body, with its own code, not the body-size one', async () => {
    const rows = JSON.stringify(Array.from({ length: 1200 }, (_, i) => ({ first_name: `bulk ${i}` })));
    const response = await app.inject({
      method: 'POST', url: '/v1/contacts', headers: { ...bearer(org.key), 'content-type': 'application/json' }, payload: rows,
    });
    assert.equal(response.statusCode, 413, response.body);
    assert.deepEqual(response.json(), examples.bulk!.value);
    assert.equal(response.json().code, 'SK440');
    assert.notEqual(examples.body!.value.code, examples.bulk!.value.code);
  });

  it('a path the router cannot decode has its own code, not the one of a PATCH without filter', async () => {
    const response = await app.inject({ method: 'GET', url: '/v1/%E0%A4%A', headers: bearer(org.key) });
    assert.equal(response.statusCode, 400, response.body);
    assert.equal(response.json().code, 'SK410');
  });

  it('a body over the size limit answers the example body', async () => {
    const response = await app.inject({
      method: 'POST', url: '/v1/contacts', headers: { ...bearer(org.key), 'content-type': 'application/json' },
      payload: JSON.stringify({ first_name: 'x'.repeat(1_100_000) }),
    });
    assert.equal(response.statusCode, 413, response.body);
    assert.deepEqual(response.json(), examples.body!.value);
  });
});
