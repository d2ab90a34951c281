/** A revoked key stops working on every API process sharing the database, within the 2-second key cache. */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { BACKENDS, createTestDatabase, type TestDatabase } from '../support/databases.js';
import { createOrganization } from '../support/app.js';
import { startServerProcess, type ServerProcess } from '../support/server-process.js';
import { revokeApiKey } from '../../src/auth/api-key-store.js';
import { parseApiKey } from '../../src/auth/api-key-format.js';

describe('key revocation across two server processes [postgres]', { skip: !BACKENDS.includes('postgres') }, () => {
  let testDb: TestDatabase;
  let servers: ServerProcess[] = [];

  before(async () => {
    testDb = await createTestDatabase('postgres');
    servers = await Promise.all([0, 1].map(() => startServerProcess({ DATABASE_URL: testDb.url! })));
  });
  after(async () => {
    await Promise.all(servers.map((server) => server.stop()));
    await testDb.drop();
  });

  it('answers 401 on both processes soon after the revocation', async () => {
    const org = await createOrganization(testDb.db, 'Two processes');
    const call = (server: ServerProcess) =>
      fetch(`${server.url}/v1/products?select=id`, { headers: { authorization: `Bearer ${org.key}` } }).then((r) => r.status);
    assert.deepEqual(await Promise.all(servers.map(call)), [200, 200]);

    await revokeApiKey(testDb.db, parseApiKey(org.key)!.keyId);
    const revokedAt = Date.now();
    let statuses = [200, 200];
    while (statuses.some((status) => status !== 401) && Date.now() - revokedAt < 10_000) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      statuses = await Promise.all(servers.map(call));
    }
    assert.deepEqual(statuses, [401, 401]);
  });
});
