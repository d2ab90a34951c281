/**
 * When the network to PostgreSQL stalls (packets dropped, no reset), nothing waits for TCP to give up: a request in
 * flight, and every request after it, is answered 503 SK503 once the statement timeout and a small margin have
 * passed, and the stalled connections are dropped so the pool's slots come free. `staykit serve` runs behind a
 * TCP proxy that the test stalls.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import pg from 'pg';
import { BACKENDS, createTestDatabase, type TestDatabase } from '../support/databases.js';
import { bearer, createOrganization, type TestOrganization } from '../support/app.js';
import { startServerProcess, type ServerProcess } from '../support/server-process.js';
import { proxyPostgres, type TcpProxy } from '../support/tcp-proxy.js';
import { createContact, waitFor } from '../webhooks/support.js';

/** Far beyond what the server needs (statement timeout 2 s + 2 s margin, or the 5 s connection wait), far below TCP's own minutes. */
const ANSWER_DEADLINE_MS = 20_000;

async function assertUnavailable(response: Response): Promise<void> {
  const text = await response.text();
  assert.equal(response.status, 503, text);
  const body = JSON.parse(text) as Record<string, unknown>;
  assert.deepEqual(Object.keys(body).sort(), ['code', 'details', 'hint', 'message']);
  assert.equal(body.code, 'SK503');
  assert.ok(response.headers.get('retry-after'));
}

describe('a stalled network to PostgreSQL [postgres]', { skip: !BACKENDS.includes('postgres') }, () => {
  let testDb: TestDatabase;
  let proxy: TcpProxy;
  let server: ServerProcess;
  let org: TestOrganization;

  before(async () => {
    testDb = await createTestDatabase('postgres');
    const proxied = await proxyPostgres(testDb.url!);
    proxy = proxied.proxy;
    org = await createOrganization(testDb.db, 'Stalled');
    server = await startServerProcess({ DATABASE_URL: proxied.url, STAYKIT_STATEMENT_TIMEOUT: '2' });
  });
  after(async () => {
    await server?.stop('SIGKILL');
    await proxy?.close();
    await testDb?.drop();
  });

  it('the request in flight and the ones after it are answered 503, and the pool does not stay blocked', async () => {
    // A request in flight: a PATCH waiting for a row the test holds locked.
    const contact = await createContact(testDb.db, org.id);
    const locker = new pg.Client({ connectionString: testDb.url });
    await locker.connect();
    try {
      await locker.query('BEGIN');
      await locker.query('SELECT 1 FROM api.contacts WHERE id = $1 FOR UPDATE', [contact]);
      const inFlight = fetch(`${server.url}/v1/contacts?id=eq.${contact}`, {
        method: 'PATCH',
        headers: { ...bearer(org.key), 'content-type': 'application/json' },
        body: JSON.stringify({ first_name: 'Stalled' }),
        signal: AbortSignal.timeout(ANSWER_DEADLINE_MS),
      });
      await waitFor(async () => {
        const { rows } = await testDb.db.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`,
        );
        return rows[0]!.n === 1;
      }, ANSWER_DEADLINE_MS, 'the PATCH to wait for the lock');

      proxy.stall();
      await assertUnavailable(await inFlight);
    } finally {
      await locker.end();
    }

    // More requests than the pool has connections: each is answered, none waits for a slot a stalled connection holds.
    const later = await Promise.all(Array.from({ length: 12 }, () =>
      fetch(`${server.url}/v1/contacts?select=id`, { headers: bearer(org.key), signal: AbortSignal.timeout(ANSWER_DEADLINE_MS) })));
    for (const response of later) await assertUnavailable(response);
  });
});
