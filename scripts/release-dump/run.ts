/**
 * `npm run release:dump -- --version X.Y.Z [--commit REV]`: the committed database of a release (docs/operations.md#releases),
 * built by that release's own code, so the upgrade test (test/releases/upgrade.test.ts) starts from what a user of
 * that release really has. The release's commit is checked out beside this one (a git worktree, with this
 * checkout's node_modules unless `--npm-ci`), and its own `staykit` command, on a new PostgreSQL database, seeds the
 * demo organization, makes an API key and a publishable key, and — through its running server — a webhook. Then
 * `pg_dump` writes the database as SQL that both backends load (`releases/<version>.sql.gz`, with the roles the
 * migrations make), and `releases/<version>.json` keeps what the test checks: each table's columns, row count and
 * checksum, the keys and the dashboard login.
 *
 * Needs git, PostgreSQL's `pg_dump` and a server (`--admin-url`, default postgres://postgres@127.0.0.1:5432/postgres).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';
import pg from 'pg';
import { RELEASES_DIR, type ReleaseRecord } from './record.js';
import { tableFingerprints } from './fingerprints.js';
import { populate } from './populate.js';
import { rolesPreamble } from './roles.js';

/** The dump sets its session's search_path to '' and row_security off: a loader's session goes on as it was. */
const END_OF_DUMP = 'RESET ALL;\n';

const { values } = parseArgs({
  options: {
    version: { type: 'string' }, commit: { type: 'string', default: 'HEAD' },
    'admin-url': { type: 'string', default: 'postgres://postgres@127.0.0.1:5432/postgres' }, 'npm-ci': { type: 'boolean' },
  },
});
if (!values.version) throw new Error('usage: npm run release:dump -- --version X.Y.Z [--commit REV] [--admin-url URL] [--npm-ci]');
const version = values.version;
const adminUrl = values['admin-url']!;
const commit = execFileSync('git', ['rev-parse', `${values.commit}^{commit}`], { encoding: 'utf8' }).trim();

const tree = mkdtempSync(join(tmpdir(), `staykit-release-${version}-`));
const database = `staykit_release_${version.replace(/\W/g, '_')}_${process.pid}`;
const databaseUrl = Object.assign(new URL(adminUrl), { pathname: `/${database}` }).toString();
const admin = new pg.Client({ connectionString: adminUrl });
await admin.connect();
try {
  execFileSync('git', ['worktree', 'add', '--detach', tree, commit], { stdio: 'inherit' });
  if (values['npm-ci']) execFileSync('npm', ['ci', '--ignore-scripts'], { cwd: tree, stdio: 'inherit' });
  else symlinkSync(join(process.cwd(), 'node_modules'), join(tree, 'node_modules'));
  const lastMigration = execFileSync('git', ['ls-tree', '--name-only', commit, 'migrations/'], { encoding: 'utf8' })
    .trim().split('\n').filter((file) => file.endsWith('.sql')).sort().at(-1)!.replace(/^migrations\/|\.sql$/g, '');

  await admin.query(`CREATE DATABASE ${database}`);
  const made = await populate(tree, databaseUrl);

  // psql's meta-commands (`\restrict` of newer pg_dumps) are psql's own: the SQL is run by a driver, not by psql.
  const dump = execFileSync('pg_dump', ['--no-owner', '--inserts', '--rows-per-insert=100', '--quote-all-identifiers', databaseUrl],
    { encoding: 'utf8', maxBuffer: 1 << 30 }).split('\n').filter((line) => !line.startsWith('\\')).join('\n');
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  let record: ReleaseRecord;
  try {
    await client.query(`SET TimeZone = 'UTC'`);
    const migrations = (await client.query<{ id: string }>('SELECT id FROM staykit_internal.migrations ORDER BY id')).rows.map((row) => row.id);
    record = { version, commit, lastMigration, migrations, madeAt: new Date().toISOString(), ...made, tables: await tableFingerprints(client) };
    writeFileSync(join(RELEASES_DIR, `${version}.sql.gz`), gzipSync(`${await rolesPreamble(client)}\n${dump}\n${END_OF_DUMP}`, { level: 9 }));
  } finally {
    await client.end();
  }
  writeFileSync(join(RELEASES_DIR, `${version}.json`), `${JSON.stringify(record, null, 2)}\n`);
  console.log(`releases/${version}.sql.gz and releases/${version}.json: ${Object.keys(record.tables).length} tables, last migration ${lastMigration}`);
} finally {
  await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
  await admin.end();
  execFileSync('git', ['worktree', 'remove', '--force', tree]);
  rmSync(tree, { recursive: true, force: true });
}
