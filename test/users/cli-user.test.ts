/**
 * `staykit user create` and `staykit user reset-password` as an operator runs them (a child process): the printed
 * one-time link sets a password the dashboard login then accepts, once; `--password-stdin` sets it directly; a
 * reset ends the old password; bad arguments exit with code 2 and one line.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BACKENDS, createTestDatabase, type TestDatabase } from '../support/databases.js';
import { openPGlite } from '../../src/db/pglite.js';
import type { Database } from '../../src/db/types.js';
import { startApp } from '../support/app.js';
import { fixtures } from '../support/fixtures.js';

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function staykit(args: string[], env: Record<string, string>, stdin = ''): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['bin/staykit.js', ...args], {
      env: { ...process.env, DATABASE_URL: '', HOST: '127.0.0.1', PORT: '3000', ...env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(stdin);
  });
}

const TOKEN_URL = /^http:\/\/127\.0\.0\.1:3000\/admin\/set-password\?token=([A-Za-z0-9_-]{43})$/;

for (const backend of BACKENDS) {
  describe(`staykit user [${backend}]`, () => {
    let env: Record<string, string>;
    let testDb: TestDatabase | undefined;
    let dataDir: string | undefined;
    let orgId = '';

    /** Runs `work` against the app on the CLI's database (PGlite: opened only while no CLI process has it). */
    async function withApp<T>(work: (inject: (url: string, payload: Record<string, unknown>) => Promise<{ statusCode: number; json(): Record<string, unknown> }>) => Promise<T>): Promise<T> {
      const db: Database = testDb ? testDb.db : await openPGlite(dataDir);
      const app = await startApp(db);
      try {
        return await work((url, payload) => app.inject({ method: 'POST', url, payload }));
      } finally {
        await app.close();
        if (!testDb) await db.close();
      }
    }

    const login = (email: string, password: string) =>
      withApp(async (inject) => (await inject('/auth/login', { email, password })).statusCode);

    before(async () => {
      if (backend === 'postgres') {
        testDb = await createTestDatabase('postgres');
        env = { DATABASE_URL: testDb.url! };
      } else {
        dataDir = await mkdtemp(join(tmpdir(), 'staykit-user-cli-'));
        env = { DATA_DIR: dataDir };
      }
      const created = await staykit(['org', 'create', '--name', 'Dunes'], env);
      assert.equal(created.code, 0, created.stderr);
      orgId = (JSON.parse(created.stdout) as { organization_id: string }).organization_id;
    });
    after(async () => {
      await testDb?.drop();
      if (dataDir) await rm(dataDir, { recursive: true, force: true });
    });

    it('creates an owner and prints a one-time link that sets the password', async () => {
      const run = await staykit(['user', 'create', '--org', orgId, '--email', 'ana@example.com', '--role', 'owner'], env);
      assert.equal(run.code, 0, run.stderr);
      const printed = JSON.parse(run.stdout) as Record<string, string>;
      assert.equal(printed.email, 'ana@example.com');
      assert.equal(printed.organization_id, orgId);
      assert.equal(printed.role, 'owner');
      const token = TOKEN_URL.exec(printed.set_password_url!)?.[1];
      assert.ok(token, printed.set_password_url);
      await withApp(async (inject) => {
        assert.equal((await inject('/auth/login', { email: 'ana@example.com', password: 'a long passphrase' })).statusCode, 401);
        assert.equal((await inject('/auth/set-password', { token, password: 'a long passphrase' })).statusCode, 200);
        assert.equal((await inject('/auth/set-password', { token, password: 'another passphrase' })).statusCode, 400);
        const login = await inject('/auth/login', { email: 'ana@example.com', password: 'a long passphrase' });
        assert.equal(login.statusCode, 200);
        assert.deepEqual(login.json().organizations, [{ id: orgId, name: 'Dunes', role: 'owner' }]);
      });
      const stored = testDb
        ? (await testDb.db.query<{ hash: string }>('SELECT password_hash AS hash FROM staykit_internal.users')).rows[0]!.hash
        : undefined;
      if (stored) assert.match(stored, /^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    });

    it('takes the password from stdin with --password-stdin, and prints no link', async () => {
      const run = await staykit(['user', 'create', '--org', orgId, '--email', 'bo@example.com', '--role', 'cleaner', '--name', 'Bo', '--password-stdin'], env, 'scripted passphrase\n');
      assert.equal(run.code, 0, run.stderr);
      const printed = JSON.parse(run.stdout) as Record<string, unknown>;
      assert.equal(printed.set_password_url, undefined);
      assert.equal(printed.password_set, true);
      assert.equal(await login('bo@example.com', 'scripted passphrase'), 200);
    });

    it('resets a password: a new link, after which the old password no longer works', async () => {
      const run = await staykit(['user', 'reset-password', '--email', 'ana@example.com'], env);
      assert.equal(run.code, 0, run.stderr);
      const token = TOKEN_URL.exec((JSON.parse(run.stdout) as { set_password_url: string }).set_password_url)?.[1];
      assert.ok(token);
      await withApp(async (inject) => {
        assert.equal((await inject('/auth/set-password', { token, password: 'the new passphrase' })).statusCode, 200);
        assert.equal((await inject('/auth/login', { email: 'ana@example.com', password: 'a long passphrase' })).statusCode, 401);
        assert.equal((await inject('/auth/login', { email: 'ana@example.com', password: 'the new passphrase' })).statusCode, 200);
      });
      const scripted = await staykit(['user', 'reset-password', '--email', 'ANA@example.com', '--password-stdin'], env, 'set from a script');
      assert.equal(scripted.code, 0, scripted.stderr);
      assert.equal(await login('ana@example.com', 'set from a script'), 200);
    });

    it('voids a link that is older than a newer link or than a password set from stdin', async () => {
      const link = async () => {
        const run = await staykit(['user', 'reset-password', '--email', 'ana@example.com'], env);
        assert.equal(run.code, 0, run.stderr);
        return TOKEN_URL.exec((JSON.parse(run.stdout) as { set_password_url: string }).set_password_url)![1]!;
      };
      const first = await link();
      const second = await link();
      const scripted = await staykit(['user', 'reset-password', '--email', 'ana@example.com', '--password-stdin'], env, 'set from a script again');
      assert.equal(scripted.code, 0, scripted.stderr);
      const third = await link();
      await withApp(async (inject) => {
        assert.equal((await inject('/auth/set-password', { token: first, password: 'from the first link' })).statusCode, 400, 'voided by the second');
        assert.equal((await inject('/auth/set-password', { token: second, password: 'from the second link' })).statusCode, 400, 'voided by the password');
        assert.equal((await inject('/auth/login', { email: 'ana@example.com', password: 'set from a script again' })).statusCode, 200);
        assert.equal((await inject('/auth/set-password', { token: third, password: 'from the third link' })).statusCode, 200);
      });
    });

    it('makes a member the manager already added with that e-mail address the user\'s, not a second member', async () => {
      const members = async () => {
        const db: Database = testDb ? testDb.db : await openPGlite(dataDir);
        try {
          return (await db.query<{ user_id: string | null; role: string; name: string }>(
            "SELECT user_id, role, name FROM api.members WHERE organization_id = $1 AND lower(email) = 'cleo@example.com'", [orgId])).rows;
        } finally {
          if (!testDb) await db.close();
        }
      };
      // Added on the dashboard's members page: a member with an e-mail address and no login.
      const db: Database = testDb ? testDb.db : await openPGlite(dataDir);
      await fixtures(db, orgId).member({ name: 'Cleo the cleaner', email: 'Cleo@Example.com', role: 'cleaner' });
      if (!testDb) await db.close();
      const run = await staykit(['user', 'create', '--org', orgId, '--email', 'cleo@example.com', '--role', 'cleaner', '--password-stdin'], env, 'tidy dunes at dawn\n');
      assert.equal(run.code, 0, run.stderr);
      const rows = await members();
      assert.equal(rows.length, 1, 'one member for one person');
      assert.ok(rows[0]!.user_id, 'linked to the new login');
      assert.equal(rows[0]!.name, 'Cleo the cleaner', 'the name the manager gave is kept');
      assert.equal(await login('cleo@example.com', 'tidy dunes at dawn'), 200);
    });

    it('refuses bad arguments with exit code 2 and one line', async () => {
      const cases: [string[], RegExp, string?][] = [
        [['user', 'create', '--org', orgId, '--email', 'x@example.com', '--role', 'boss'], /--role must be one of owner, admin/],
        [['user', 'create', '--org', orgId, '--email', 'not-an-address', '--role', 'owner'], /--email must be an e-mail address/],
        [['user', 'create', '--email', 'x@example.com', '--role', 'owner'], /--org is required/],
        [['user', 'create', '--org', '00000000-0000-4000-8000-000000000000', '--email', 'x@example.com', '--role', 'owner'], /no organization/],
        [['user', 'create', '--org', orgId, '--email', 'x@example.com', '--role', 'owner', '--password-stdin'], /at least 10 characters/, 'short\n'],
        [['user', 'create', '--org', orgId, '--email', 'x@example.com', '--role', 'owner', '--password-stdin'], /too easy to guess\. This is similar to a commonly used password/, 'password1234\n'],
        [['user', 'reset-password', '--email', 'ana@example.com', '--password-stdin'], /more than white space/, ' '.repeat(12)],
        [['user', 'reset-password', '--email', 'nobody@example.com'], /no user nobody@example.com/],
        [['user', 'remove'], /usage: staykit user create/],
      ];
      for (const [args, pattern, stdin] of cases) {
        const run = await staykit(args, env, stdin);
        assert.equal(run.code, 2, `${args.join(' ')}: ${run.stderr}`);
        assert.equal(run.stderr.trim().split('\n').length, 1, run.stderr);
        assert.match(run.stderr, pattern);
        assert.equal(run.stdout, '');
      }
    });
  });
}
