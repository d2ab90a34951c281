/**
 * When PostgreSQL goes away under steady traffic, the API answers 503 with Retry-After at once (no hang),
 * /ready turns false, it recovers by itself when the database returns, and every acknowledged write is there.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { BACKENDS, createTestDatabase, type TestDatabase } from '../support/databases.js';
import { createOrganization } from '../support/app.js';
import { startServerProcess, type ServerProcess } from '../support/server-process.js';
import { proxyPostgres, type TcpProxy } from '../support/tcp-proxy.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('database outage under traffic [postgres]', { skip: !BACKENDS.includes('postgres') }, () => {
  let testDb: TestDatabase;
  let proxy: TcpProxy;
  let server: ServerProcess;
  let key: string;

  before(async () => {
    testDb = await createTestDatabase('postgres');
    const proxied = await proxyPostgres(testDb.url!);
    proxy = proxied.proxy;
    key = (await createOrganization(testDb.db, 'Outage')).key;
    server = await startServerProcess({ DATABASE_URL: proxied.url });
  });
  after(async () => {
    await server?.stop();
    await proxy?.close();
    await testDb?.drop();
  });

  it('answers only 2xx or 503, reports not ready, recovers, and keeps every acknowledged write', async () => {
    const acknowledged: string[] = [];
    const statuses = new Map<number, number>();
    let hung = 0;
    let missingRetryAfter = 0;
    let running = true;
    let sequence = 0;

    const traffic = (async () => {
      while (running) {
        const name = `guest-${sequence++}`;
        let response: Response;
        try {
          // A request that hangs is a failure: a deadline on the answer, far above any normal answer time.
          response = await fetch(`${server.url}/v1/contacts`, {
            method: 'POST',
            headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', prefer: 'return=minimal' },
            body: JSON.stringify({ first_name: name }),
            signal: AbortSignal.timeout(8000),
          });
          await response.arrayBuffer();
        } catch (error) {
          if ((error as Error).name !== 'TimeoutError') throw error;
          hung++;
          continue;
        }
        statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
        if (response.status === 201) acknowledged.push(name);
        if (response.status === 503 && !response.headers.get('retry-after')) missingRetryAfter++;
        await sleep(20);
      }
    })();

    const ready = async () => {
      try {
        return (await fetch(`${server.url}/ready`)).status;
      } catch (error) {
        throw new Error(`the server stopped answering: ${(error as Error).message}\n${server.output()}`, { cause: error });
      }
    };
    await sleep(800);
    assert.equal(await ready(), 200);

    await proxy.cut();
    let readyStatus = 200;
    const cutAt = Date.now();
    while (readyStatus === 200 && Date.now() - cutAt < 15_000) {
      readyStatus = await ready();
      await sleep(100);
    }
    assert.equal(readyStatus, 503, '/ready turns false while the database is away');
    await sleep(1500);

    await proxy.restore();
    const restoredAt = Date.now();
    while (readyStatus !== 200 && Date.now() - restoredAt < 20_000) {
      readyStatus = await ready();
      await sleep(100);
    }
    assert.equal(readyStatus, 200, '/ready turns true again by itself');
    const before = acknowledged.length;
    const waitFrom = Date.now();
    while (acknowledged.length === before && Date.now() - waitFrom < 10_000) await sleep(50);
    running = false;
    await traffic;

    const seen = [...statuses.keys()].sort();
    assert.ok(seen.every((status) => status === 201 || status === 503), `statuses: ${JSON.stringify([...statuses])}`);
    assert.ok((statuses.get(503) ?? 0) > 0, 'the outage was noticed');
    assert.ok(acknowledged.length > before, 'writes succeed again after recovery');
    assert.equal(missingRetryAfter, 0, 'every 503 carries Retry-After');
    assert.equal(hung, 0, 'no request went unanswered for 8 s');

    const { rows } = await testDb.db.query<{ first_name: string }>(
      `SELECT first_name FROM api.contacts WHERE first_name = ANY($1)`,
      [acknowledged],
    );
    assert.equal(rows.length, acknowledged.length, 'every acknowledged write is present');
  });
});
