/** The README's first command: `staykit serve` on the embedded default seeds a demo and prints a working key. */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServerProcess } from '../support/server-process.js';

/** Whether `check` turns true within a minute (a generous bound for a loaded machine, not a timing assertion). */
async function eventually(check: () => Promise<boolean>): Promise<boolean> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (await check()) return true;
    await new Promise((done) => setTimeout(done, 200));
  }
  return false;
}

describe('staykit serve on embedded PGlite', () => {
  let dataDir: string;
  before(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'staykit-serve-'));
  });
  after(() => rm(dataDir, { recursive: true, force: true }));

  it('prints a demo API key and a curl that returns the demo products, again after a restart', async () => {
    const env = { DATABASE_URL: '', DATA_DIR: dataDir };
    const first = await startServerProcess(env);
    after(() => first.stop());
    const key = /Demo organization API key: (sk_\S+)/.exec(first.output())?.[1];
    assert.ok(key, first.output());
    const curl = /curl -H "Authorization: Bearer (\S+)" "(\S+)"/.exec(first.output());
    assert.ok(curl, 'a curl example is printed');
    const response = await fetch(curl[2]!, { headers: { authorization: `Bearer ${curl[1]}` } });
    assert.equal(response.status, 200);
    const products = (await response.json()) as { name: { default: string } }[];
    assert.equal(products.length, 4);
    // The demo's bookings are added once the server listens: they arrive without a restart.
    assert.ok(await eventually(async () => {
      const bookings = await fetch(`${first.url}/v1/bookings?select=id`, { headers: { authorization: `Bearer ${key}` } });
      return ((await bookings.json()) as unknown[]).length > 0; // one transaction: some means all
    }), 'the demo bookings appear');
    assert.equal((await stat(join(dataDir, 'demo-api-key'))).mode & 0o777, 0o600);
    assert.equal(await first.stop(), 0);

    const second = await startServerProcess(env);
    after(() => second.stop());
    assert.match(second.output(), new RegExp(`Demo organization API key: ${key}`));
    const health = (await (await fetch(`${second.url}/health`)).json()) as { backend: string };
    assert.equal(health.backend, 'pglite');
    assert.equal(await second.stop(), 0);
  });
});
