/** The `staykit` command as a user runs it: a child process, its exit code, stdout and stderr. */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BACKENDS, createTestDatabase, type TestDatabase } from '../support/databases.js';
import { staykit, type CliRun as Run } from '../support/staykit-cli.js';

function assertUsageError(run: Run, pattern: RegExp): void {
  assert.equal(run.code, 2, `exit code, stderr: ${run.stderr}`);
  const lines = run.stderr.trim().split('\n');
  assert.equal(lines.length, 1, `one line on stderr, got: ${run.stderr}`);
  assert.match(lines[0]!, /^staykit: /);
  assert.match(lines[0]!, pattern);
  assert.equal(run.stdout, '');
}

for (const backend of BACKENDS) {
  describe(`staykit CLI [${backend}]`, () => {
    let env: Record<string, string>;
    let testDb: TestDatabase | undefined;
    let dataDir: string | undefined;
    let countKeys: () => Promise<number>;

    before(async () => {
      if (backend === 'postgres') {
        testDb = await createTestDatabase('postgres', { migrated: false });
        env = { DATABASE_URL: testDb.url! };
        countKeys = async () => Number((await testDb!.db.query<{ n: number }>('SELECT count(*) AS n FROM staykit_internal.api_keys')).rows[0]!.n);
      } else {
        dataDir = await mkdtemp(join(tmpdir(), 'staykit-cli-'));
        env = { DATA_DIR: dataDir };
        countKeys = async () => {
          const run = await staykit(['key', 'list', '--org', orgId, '--json'], env);
          return (JSON.parse(run.stdout) as unknown[]).length;
        };
      }
    });
    after(async () => {
      await testDb?.drop();
      if (dataDir) await rm(dataDir, { recursive: true, force: true });
    });

    let orgId = '';
    let keyId = '';

    it('migrates, and migrating again changes nothing', async () => {
      const first = await staykit(['migrate'], env);
      assert.equal(first.code, 0, first.stderr);
      const second = await staykit(['migrate'], env);
      assert.equal(second.code, 0, second.stderr);
      assert.match(second.stdout, /up to date/);
    });

    it('creates an organization and prints its id and a working key as JSON', async () => {
      const run = await staykit(['org', 'create', '--name', 'Dunes & Co'], env);
      assert.equal(run.code, 0, run.stderr);
      const created = JSON.parse(run.stdout) as { organization_id: string; api_key: string; key_id: string };
      assert.match(created.organization_id, /^[0-9a-f-]{36}$/);
      assert.match(created.api_key, new RegExp(`^sk_${created.key_id}_[0-9A-Za-z]{43}$`));
      orgId = created.organization_id;
    });

    it('creates a scoped, expiring key, lists it without its secret, and revokes it', async () => {
      const expires = new Date(Date.now() + 86_400_000).toISOString();
      const created = await staykit(['key', 'create', '--org', orgId, '--name', 'channel manager', '--scopes', 'bookings:read,products:write', '--expires-at', expires], env);
      assert.equal(created.code, 0, created.stderr);
      const key = JSON.parse(created.stdout) as Record<string, unknown>;
      assert.deepEqual(Object.keys(key).sort(), ['api_key', 'expires_at', 'id', 'key_id', 'name', 'organization_id', 'scopes']);
      assert.deepEqual(key.scopes, ['bookings:read', 'products:write']);
      keyId = key.key_id as string;

      const listed = await staykit(['key', 'list', '--org', orgId], env);
      assert.equal(listed.code, 0, listed.stderr);
      assert.match(listed.stdout, new RegExp(`${keyId}\\tchannel manager\\tbookings:read,products:write\\texpires`));
      assert.ok(!listed.stdout.includes(key.api_key as string));

      const revoked = await staykit(['key', 'revoke', keyId], env);
      assert.equal(revoked.code, 0, revoked.stderr);
      assert.ok((JSON.parse(revoked.stdout) as { revoked_at: string | null }).revoked_at);
    });

    it('answers bad input with one line and exit code 2, writing nothing', async () => {
      const before = await countKeys();
      assertUsageError(await staykit(['frobnicate'], env), /unknown command "frobnicate"/);
      assertUsageError(await staykit(['org', 'create'], env), /--name is required/);
      assertUsageError(await staykit(['org', 'create', '--name', 'x', '--colour', 'red'], env), /colour/);
      assertUsageError(await staykit(['key', 'create', '--org', 'not-a-uuid'], env), /--org must be an organization id/);
      assertUsageError(await staykit(['key', 'create', '--org', '00000000-0000-0000-0000-000000000000'], env), /no organization/);
      assertUsageError(await staykit(['key', 'create', '--org', orgId, '--scopes', 'guests:read'], env), /no resource "guests"/);
      assertUsageError(await staykit(['key', 'create', '--org', orgId, '--scopes', 'admin'], env), /invalid scope "admin"/);
      assertUsageError(await staykit(['key', 'create', '--org', orgId, '--expires-at', 'tomorrow'], env), /--expires-at/);
      assertUsageError(await staykit(['key', 'create', '--org', orgId, '--expires-at', '2001-01-01'], env), /in the future/);
      assertUsageError(await staykit(['key', 'list'], env), /--org is required/);
      assertUsageError(await staykit(['key', 'revoke', 'nosuchkey'], env), /no API key nosuchkey/);
      assertUsageError(await staykit(['serve', '--port', 'eighty'], env), /PORT must be an integer/);
      assert.equal(await countKeys(), before);
    });
  });
}

