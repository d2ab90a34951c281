/**
 * `npm start`'s path: the server compiled by scripts/build-server.js runs as plain JavaScript — no TypeScript loader —
 * and finds what it reads at run time (migrations, the dashboard's build, the database thread's module) from the
 * build as from the sources. The build goes to a folder of this test's own, so the repository's dist/ (which
 * bin/staykit.js may be running in other tests) is left alone.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { startChildServer } from '../support/server-process.js';
import { BACKENDS, createTestDatabase } from '../support/databases.js';

const run = promisify(execFile);
const ROOT = join(import.meta.dirname, '../..');
// Inside the repository, so the compiled modules find node_modules/ by walking up, as in dist/.
const BUILD = join(ROOT, 'node_modules/.cache', `staykit-build-test-${process.pid}`);
const MAIN = join(BUILD, 'src/cli/main.js');
const QUIET = { LOG_LEVEL: 'warn', STAYKIT_WORKER: 'off' };

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((entry) => entry.isFile()).map((entry) => entry.name);
}

/** GET with an optional key: the status and body text. */
async function get(url: string, key?: string): Promise<{ status: number; text: string }> {
  const response = await fetch(url, { headers: key ? { authorization: `Bearer ${key}` } : {} });
  return { status: response.status, text: await response.text() };
}

describe('staykit serve from the compiled build', () => {
  before(async () => {
    await mkdir(join(ROOT, 'node_modules/.cache'), { recursive: true });
    await run(process.execPath, ['scripts/build-server.js', '--out-dir', BUILD], { cwd: ROOT });
  });
  after(() => rm(BUILD, { recursive: true, force: true }));

  it('holds JavaScript only', async () => {
    const files = await filesUnder(join(BUILD, 'src'));
    assert.ok(files.includes('main.js') && files.includes('pglite-worker.js'), files.slice(0, 20).join(', '));
    assert.deepEqual(files.filter((name) => name.endsWith('.ts')), []);
  });

  for (const backend of BACKENDS) {
    it(`serves /v1 and the dashboard on ${backend}, run by plain node`, async () => {
      let env: Record<string, string>;
      let cleanUp: () => Promise<void>;
      if (backend === 'postgres') {
        const database = await createTestDatabase('postgres', { migrated: false });
        env = { ...QUIET, DATABASE_URL: database.url! };
        cleanUp = () => database.drop();
      } else {
        const dataDir = await mkdtemp(join(tmpdir(), 'staykit-built-'));
        env = { ...QUIET, DATABASE_URL: '', DATA_DIR: dataDir };
        cleanUp = () => rm(dataDir, { recursive: true, force: true });
      }
      after(cleanUp);
      // No `--import tsx`: a .ts module anywhere on the way would fail to load.
      const server = await startChildServer([MAIN, 'serve', '--port', '0'], env);
      after(() => server.stop());
      let key = /Demo organization API key: (\S+)/.exec(server.output())?.[1];
      if (backend === 'postgres') {
        // Never seeded implicitly on PostgreSQL: an organization from the compiled CLI.
        const created = await run(process.execPath, [MAIN, 'org', 'create', '--name', 'Built'], { cwd: ROOT, env: { ...process.env, ...env } });
        key = (JSON.parse(created.stdout) as { api_key: string }).api_key;
      }
      assert.ok(key, server.output());

      const health = JSON.parse((await get(`${server.url}/health`)).text) as { backend: string; migration: string };
      assert.equal(health.backend, backend);
      const migrations = (await readdir(join(ROOT, 'migrations'))).filter((name) => name.endsWith('.sql')).sort();
      assert.equal(`${health.migration}.sql`, migrations.at(-1), 'every migration applied');

      const products = await get(`${server.url}/v1/products?select=id`, key);
      assert.equal(products.status, 200, products.text);
      assert.equal((JSON.parse(products.text) as unknown[]).length, backend === 'pglite' ? 4 : 0);

      const dashboard = await get(`${server.url}/admin`);
      assert.equal(dashboard.status, 200);
      assert.match(dashboard.text, /<script[^>]+src="[^"]+\.js"/);
      assert.equal(await server.stop(), 0);
    });
  }
});
