/**
 * `staykit serve --processes 2` (node:cluster, PostgreSQL only): two API processes on one port under a supervising
 * primary; the rate limit is shared through Redis, so two processes together allow what one would; a revoked key
 * stops working on both; only one process runs the background work (one LISTEN connection, not one per process); a
 * process that dies is replaced; SIGTERM stops them all and exits 0.
 *
 * Every request here opens a connection of its own: node:cluster hands connections to the processes in turn
 * (round robin), so consecutive requests are answered by alternating processes.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { readFileSync, readdirSync } from 'node:fs';
import { BACKENDS, createTestDatabase, type TestDatabase } from '../support/databases.js';
import { createOrganization, type TestOrganization } from '../support/app.js';
import { startServerProcess, type ServerProcess } from '../support/server-process.js';
import { needsRedis, REDIS_URL } from '../limits/support/redis.js';

const RATE_LIMIT = 20;

/** One request on a new connection: status only. */
function request(base: string, path: string, key: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${base}${path}`, { agent: false, headers: { authorization: `Bearer ${key}`, connection: 'close' } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end();
  });
}

/** Pids of the processes whose parent is `pid` (Linux /proc). */
function childrenOf(pid: number): number[] {
  return readdirSync('/proc').filter((name) => /^\d+$/.test(name)).filter((name) => {
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === pid;
    } catch {
      return false; // gone meanwhile
    }
  }).map(Number);
}

describe('staykit serve --processes 2 [postgres]', { skip: BACKENDS.includes('postgres') ? false : 'needs PostgreSQL' }, () => {
  let database: TestDatabase;
  let server: ServerProcess;
  let org: TestOrganization;

  before(async () => {
    database = await createTestDatabase('postgres');
    org = await createOrganization(database.db, 'Cluster');
    server = await startServerProcess({
      DATABASE_URL: database.url!,
      STAYKIT_WORKER: 'embedded',
      REDIS_URL,
      STAYKIT_RATE_LIMIT: String(RATE_LIMIT),
      STAYKIT_RATE_LIMIT_BURST: '100000',
    }, ['--processes', '2']);
  });

  after(async () => {
    await server?.stop();
    await database?.drop();
  });

  it('runs two API processes under the one started', async () => {
    assert.equal(childrenOf(server.child.pid!).length, 2, server.output());
  });

  it('shares the rate limit between the processes (through Redis)', needsRedis, async () => {
    const statuses: number[] = [];
    for (let i = 0; i < RATE_LIMIT + 10; i += 1) statuses.push(await request(server.url, '/v1/products?select=id', org.key));
    // Each process saw about half the requests: counted apart, none would have been refused.
    assert.equal(statuses.filter((status) => status === 200).length, RATE_LIMIT, statuses.join(' '));
    assert.equal(statuses.filter((status) => status === 429).length, 10);
  });

  it('runs one set of background workers: a single LISTEN connection', async () => {
    for (let attempt = 0; ; attempt += 1) {
      const { rows } = await database.db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND query LIKE 'LISTEN %'`);
      if (rows[0]!.n === 1) break;
      assert.ok(attempt < 200 && rows[0]!.n < 2, `${rows[0]!.n} LISTEN connections`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  });

  it('stops accepting a revoked key on every process', async () => {
    const other = await createOrganization(database.db, 'Revoked');
    assert.equal(await request(server.url, '/v1/products?select=id', other.key), 200);
    await database.db.query(`UPDATE staykit_internal.api_keys SET revoked_at = now() WHERE organization_id = $1`, [other.id]);
    // Within the key cache's 2 s on each process; the loop's bound only keeps a failure from hanging. Few requests:
    // the key's rate limit is low here.
    const twice = () => Promise.all([0, 1].map(() => request(server.url, '/v1/products?select=id', other.key)));
    for (let attempt = 0; !(await twice()).every((status) => status === 401); attempt += 1) {
      assert.ok(attempt < 20, 'the revoked key still works');
      await new Promise((resolve) => setTimeout(resolve, 400));
    }
    const statuses = await Promise.all([0, 1, 2, 3].map(() => request(server.url, '/v1/products?select=id', other.key)));
    assert.deepEqual(statuses, [401, 401, 401, 401]);
  });

  it('replaces a process that dies', async () => {
    const [victim] = childrenOf(server.child.pid!);
    process.kill(victim!, 'SIGKILL');
    for (let attempt = 0; ; attempt += 1) {
      const children = childrenOf(server.child.pid!);
      if (children.length === 2 && !children.includes(victim!)) break;
      assert.ok(attempt < 600, `not replaced: ${children.join(', ')}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    for (let attempt = 0; (await request(server.url, '/health', org.key).catch(() => 0)) !== 200; attempt += 1) {
      assert.ok(attempt < 600, 'no answer after the replacement');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  });

  it('stops every process on SIGTERM and exits 0', async () => {
    const pid = server.child.pid!;
    assert.equal(await server.stop('SIGTERM'), 0, server.output());
    assert.deepEqual(childrenOf(pid), []);
  });
});
