/**
 * `staykit gen types typescript` as a user runs it: the types on stdout or in `--output`, the same text the library
 * function makes; bad arguments are one line on stderr and exit code 2. The command's code is the same on both
 * backends (what it reads is tested on both in postgrest-js-types.test.ts); it runs here on PostgreSQL, where a
 * second process can open the test's database.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BACKENDS, createTestDatabase, type TestDatabase } from '../support/databases.js';
import { databaseTypes } from '../../src/typegen/load.js';

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function staykit(args: string[], env: Record<string, string>): Promise<Run> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['bin/staykit.js', ...args], { env: { ...process.env, ...env }, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr });
    });
  });
}

describe('staykit gen types typescript [postgres]', { skip: BACKENDS.includes('postgres') ? false : 'needs PostgreSQL' }, () => {
  let testDb: TestDatabase;
  let env: Record<string, string>;
  let dir: string;

  before(async () => {
    testDb = await createTestDatabase('postgres');
    env = { DATABASE_URL: testDb.url!, DATA_DIR: '' };
    dir = await mkdtemp(join(tmpdir(), 'staykit-gen-'));
  });
  after(async () => {
    await testDb.drop();
    await rm(dir, { recursive: true, force: true });
  });

  it('writes the Database type to --output, the same as on stdout', async () => {
    const file = join(dir, 'database.types.ts');
    const written = await staykit(['gen', 'types', 'typescript', '--output', file], env);
    assert.equal(written.code, 0, written.stderr);
    assert.equal(written.stdout, '');
    const source = await readFile(file, 'utf8');
    assert.equal(source, await databaseTypes(testDb.db));
    assert.match(source, /export type Database = \{\n {2}"api": \{/);
    const printed = await staykit(['gen', 'types', 'typescript', '--schema', 'api'], env);
    assert.equal(printed.code, 0, printed.stderr);
    assert.equal(printed.stdout, source);
  });

  it('refuses another language, a missing one, and a schema the database does not have', async () => {
    for (const [args, pattern] of [
      [['gen', 'types', 'python'], /usage: staykit gen types typescript/],
      [['gen', 'types'], /usage: staykit gen types typescript/],
      [['gen', 'types', 'typescript', '--schema', 'nope'], /no schema "nope" in the database/],
      [['gen', 'types', 'typescript', '--schema', 'a;b'], /not a schema name/],
    ] as const) {
      const run = await staykit([...args], env);
      assert.equal(run.code, 2, `${args.join(' ')}: ${run.stderr}`);
      assert.match(run.stderr.trim(), new RegExp(`^staykit: .*${pattern.source}`));
      assert.equal(run.stderr.trim().split('\n').length, 1);
      assert.equal(run.stdout, '');
    }
  });
});
