/**
 * Key ids that match no key are remembered for 5 s: a repeated (or concurrent) unknown key id costs one database
 * lookup, and a key created with an id that was just looked up works once that time has passed.
 */
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { forEachBackend } from '../support/databases.js';
import { bearer, createOrganization, startApp, type TestOrganization } from '../support/app.js';
import { generateApiKey } from '../../src/auth/api-key-format.js';
import { waitFor } from '../webhooks/support.js';

/** The documented time an unknown key id is remembered. */
const UNKNOWN_KEY_CACHE_MS = 5_000;

forEachBackend('unknown key ids', (ctx) => {
  let app: FastifyInstance;
  let org: TestOrganization;
  const lookups: string[] = [];

  before(async () => {
    app = await startApp(ctx.db);
    org = await createOrganization(ctx.db, 'Unknown keys');
    ctx.db.onStatement = (text) => {
      if (/FROM staykit_internal\.api_keys\s+WHERE key_id = \$1/.test(text)) lookups.push(text);
    };
  });
  after(async () => {
    ctx.db.onStatement = undefined;
    await app.close();
  });

  const get = (key: string) => app.inject({ method: 'GET', url: '/v1/products?select=id', headers: bearer(key) });

  it('an unknown key id is looked up once, however many requests (also at once) present it', async () => {
    const unknown = generateApiKey().token;
    lookups.length = 0;
    const concurrent = await Promise.all(Array.from({ length: 10 }, () => get(unknown)));
    const sequential = [];
    for (let i = 0; i < 10; i += 1) sequential.push(await get(unknown));
    for (const response of [...concurrent, ...sequential]) {
      assert.equal(response.statusCode, 401);
      assert.equal(response.json().code, 'SK401');
    }
    assert.equal(lookups.length, 1, `lookups: ${lookups.length}`);
  });

  it('a key created with an id just found unknown works within 5 s', async () => {
    const generated = generateApiKey();
    assert.equal((await get(generated.token)).statusCode, 401);
    await ctx.db.query(
      `INSERT INTO staykit_internal.api_keys (organization_id, key_id, secret_hash, name, scopes) VALUES ($1, $2, $3, 'late', '{read}')`,
      [org.id, generated.keyId, generated.secretHash],
    );
    assert.equal((await get(generated.token)).statusCode, 401, 'the id is still remembered as unknown');
    await waitFor(async () => (await get(generated.token)).statusCode === 200, UNKNOWN_KEY_CACHE_MS + 5_000, 'the new key to work');
  });
});
