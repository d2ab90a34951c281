/**
 * A PostgreSQL restart under load (issue: operations): `staykit serve` on a PostgreSQL server the test starts itself
 * keeps answering while reads and writes run and the database restarts (`pg_ctl restart -m fast`, which cuts every
 * connection). While it is down, requests answer 503 with `Retry-After` in the documented error shape — never a 500
 * and never a hang — and once it is back, the same Staykit process answers 200 again without being restarted.
 * Every write it acknowledged is there afterwards. PostgreSQL only: the embedded database restarts with the server.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { postgresBinariesAvailable, startPostgresCluster, type PostgresCluster } from '../scale/support/postgres-cluster.js';
import { startServerProcess, type ServerProcess } from '../support/server-process.js';
import { staykit } from '../support/staykit-cli.js';

const skip = !postgresBinariesAvailable() && 'PostgreSQL 15 binaries (initdb, pg_ctl) are missing';

interface Answer {
  status: number;
  retryAfter: string | null;
  code: string | undefined;
}

describe('a PostgreSQL restart under load', { skip }, () => {
  let cluster: PostgresCluster;
  let server: ServerProcess;
  let dataDir: string;
  let key: string;

  before(async () => {
    cluster = await startPostgresCluster();
    dataDir = await mkdtemp(join(tmpdir(), 'staykit-restart-'));
    const env = { DATABASE_URL: cluster.url, DATA_DIR: dataDir };
    const migrated = await staykit(['migrate'], env);
    assert.equal(migrated.code, 0, migrated.stderr);
    const created = await staykit(['org', 'create', '--name', 'Seaside Rentals'], env);
    assert.equal(created.code, 0, created.stderr);
    key = (JSON.parse(created.stdout) as { api_key: string }).api_key;
    server = await startServerProcess(env);
  });
  after(async () => {
    await server?.stop();
    await cluster?.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  const call = async (method: 'GET' | 'POST', path: string, body?: unknown): Promise<Answer & { json: unknown }> => {
    const response = await fetch(`${server.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', prefer: 'return=representation' },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(30_000),
    });
    const json = await response.json().catch(() => null) as { code?: string } | null;
    return { status: response.status, retryAfter: response.headers.get('retry-after'), code: json?.code, json };
  };

  it('answers 503 with Retry-After while the database is down, and 200 again after, in the same process', async () => {
    assert.equal((await call('GET', '/v1/coupons')).status, 200);
    const answers: Answer[] = [];
    const acknowledged: string[] = [];
    let restarting = true;
    // Two clients, each a read and a write after the other, for as long as the restart lasts.
    const load = Promise.all([0, 1].map(async (client) => {
      for (let n = 0; restarting; n++) {
        const code = `R${client}-${n}`;
        const read = await call('GET', '/v1/coupons?select=id,code&limit=5');
        const write = await call('POST', '/v1/coupons', { code, definition: { type: 'fixed', value: 500 } });
        answers.push(read, write);
        if (write.status === 201) acknowledged.push(code);
      }
    }));
    await new Promise((resolve) => setTimeout(resolve, 300));
    await cluster.restart();
    // Back: within a few seconds the same process answers again (its pool replaces the cut connections).
    let back: Answer | undefined;
    for (const until = Date.now() + 15_000; back?.status !== 200;) {
      assert.ok(Date.now() < until, `answers again within 15 s of the restart (last: ${JSON.stringify(back)})`);
      back = await call('GET', '/v1/coupons?limit=1');
    }
    restarting = false;
    await load;

    const statuses = [...new Set(answers.map((answer) => answer.status))].sort();
    assert.ok(statuses.every((status) => [200, 201, 503].includes(status)), `only 200, 201 and 503: ${statuses.join(', ')}`);
    for (const answer of answers.filter((a) => a.status === 503)) {
      assert.equal(answer.retryAfter, '1', 'a 503 says when to retry');
      assert.equal(answer.code, 'SK503', 'in the documented error shape');
    }
    assert.ok(answers.some((answer) => answer.status === 503), `some requests met the database down (${answers.length} answers)`);
    assert.ok(acknowledged.length > 0, 'writes were acknowledged around the restart');
    const { json } = await call('GET', `/v1/coupons?select=code&code=in.(${acknowledged.join(',')})`);
    assert.deepEqual((json as { code: string }[]).map((row) => row.code).sort(), [...acknowledged].sort(), 'every acknowledged write is there');
  });
});
