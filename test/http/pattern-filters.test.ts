/**
 * Pattern filters through the real app: like/ilike/match/imatch patterns and fts queries are bounded in length
 * (STAYKIT_MAX_PATTERN_LENGTH, default 1000), and regular expressions of the forms that make matching slow are
 * refused — at the top level, inside or/and trees and in (any)/(all) lists — with 400 PGRST100 before any SQL runs.
 */
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { forEachBackend } from '../support/databases.js';
import { fixtures } from '../support/fixtures.js';
import { bearer, createOrganization, startApp, type TestOrganization } from '../support/app.js';
import { buildApp } from '../../src/http/app.js';
import { loadConfig } from '../../src/config.js';

type Injected = { statusCode: number; body: string; json(): Record<string, unknown> };

forEachBackend('pattern filters', (ctx) => {
  let app: FastifyInstance;
  let org: TestOrganization;

  before(async () => {
    app = await startApp(ctx.db);
    org = await createOrganization(ctx.db, 'Patterns');
    await fixtures(ctx.db, org.id).rows('contacts', [{ first_name: 'Ada', last_name: 'Lovelace' }, { first_name: 'Grace', last_name: 'Hopper' }]);
  });
  after(() => app.close());

  const get = (query: string, target = app) =>
    target.inject({ method: 'GET', url: `/v1/contacts?select=first_name&order=first_name&${query}`, headers: bearer(org.key) });
  const names = (response: Injected) => (response.json() as unknown as { first_name: string }[]).map((row) => row.first_name);

  const assertRefused = (response: Injected, details: RegExp) => {
    assert.equal(response.statusCode, 400, response.body);
    assert.equal(response.json().code, 'PGRST100');
    assert.match(String(response.json().details), details);
  };

  it('runs ordinary patterns', async () => {
    assert.deepEqual(names(await get(`first_name=match.${encodeURIComponent('^A[a-z]+$')}`)), ['Ada']);
    assert.deepEqual(names(await get(`first_name=imatch.${encodeURIComponent('^(g|x)RA')}`)), ['Grace']);
    assert.deepEqual(names(await get(`first_name=like(any).${encodeURIComponent('{A*,G*}')}`)), ['Ada', 'Grace']);
    assert.deepEqual(names(await get(`last_name=fts.hopper`)), ['Grace']);
  });

  it('refuses back references and nested quantifiers wherever the filter is', async () => {
    const backReference = encodeURIComponent('([a-z]+)\\1');
    assertRefused(await get(`first_name=match.${backReference}`), /back references/);
    assertRefused(await get(`first_name=match.${encodeURIComponent('([a-z]+)*\\1')}`), /quantified group|back references/);
    assertRefused(await get(`first_name=imatch.${encodeURIComponent('(a+)+$')}`), /quantified group/);
    assertRefused(await get(`or=${encodeURIComponent('(last_name.eq.x,first_name.not.match."(a*)*b")')}`), /quantified group/);
    assertRefused(await get(`first_name=match(any).${encodeURIComponent('{^A,"(a|b+)*"}')}`), /quantified group/);
    assertRefused(await get(`first_name=match(all).${encodeURIComponent('{x,\\\\1}')}`), /back references/);
    assertRefused(await get(`first_name=match.${'x?'.repeat(21)}`), /at most 20 quantifiers/);
  });

  it('bounds patterns and full-text queries to 1000 characters', async () => {
    const at = 'A' + '_'.repeat(999);
    assert.equal((await get(`first_name=like.${at}`)).statusCode, 200);
    for (const query of [
      `first_name=like.${at}_`,
      `first_name=ilike.${at}_`,
      `first_name=match.${'a'.repeat(5000)}`,
      `last_name=wfts.${'word+'.repeat(201)}`,
      `and=(first_name.imatch.${'b'.repeat(1001)})`,
    ]) {
      assertRefused(await get(query), /at most 1000 characters/);
    }
  });

  it('takes the bound from STAYKIT_MAX_PATTERN_LENGTH', async () => {
    const strict = await buildApp({ db: ctx.db, config: loadConfig({ STAYKIT_MAX_PATTERN_LENGTH: '10' }) });
    try {
      assert.equal((await get('first_name=like.Ada*', strict)).statusCode, 200);
      assertRefused(await get(`first_name=like.${'A'.repeat(11)}`, strict), /at most 10 characters; this one has 11/);
    } finally {
      await strict.close();
    }
  });
});
