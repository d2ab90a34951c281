/**
 * The kept copy of a schema's catalogue reads (src/schema/snapshot.ts): a start with the copy's fingerprint builds
 * the same schema cache without reading the catalogue; another fingerprint, or a copy that cannot be read, reads it
 * again and keeps a new copy. Also through `staykit migrate` on an embedded database, which keeps one in the data
 * folder for `staykit serve`.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { after, before, it } from 'node:test';
import type { Database } from '../../src/db/types.js';
import { loadSchemaCache } from '../../src/schema/load.js';
import { loadSchemaCacheWithSnapshot } from '../../src/schema/snapshot.js';
import { type SchemaCache } from '../../src/schema/types.js';
import { API_SCHEMA } from '../../src/transaction/tenant-transaction.js';
import { forEachBackend } from '../support/databases.js';
import { createFixture, fixtureCache } from '../query/fixture.js';

/** `db`, counting the statements it is asked to run. */
function counted(db: Database): { db: Database; statements: () => number } {
  let statements = 0;
  return {
    db: { ...db, query: (text, values, options) => { statements += 1; return db.query(text, values, options); } },
    statements: () => statements,
  };
}

/** What the planner reads of a cache, comparable with deepEqual (its maps and sets as they are). */
const planned = (cache: SchemaCache) => ({ ...cache });

forEachBackend('schema catalogue kept in a file', (ctx) => {
  let dir: string;
  let file: string;
  let fresh: SchemaCache;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'staykit-snapshot-'));
    file = join(dir, 'schema-cache.json');
    fresh = await loadSchemaCache(ctx.db, API_SCHEMA);
  });
  after(() => rm(dir, { recursive: true, force: true }));

  it('is written on first use, then stands in for the catalogue reads while the fingerprint is the same', async () => {
    const first = counted(ctx.db);
    const written = await loadSchemaCacheWithSnapshot(first.db, API_SCHEMA, { file, fingerprint: { migrations: ['a'] } });
    assert.ok(first.statements() > 0);
    assert.deepEqual(planned(written), planned(fresh));
    assert.equal((await stat(file)).mode & 0o777, 0o600);

    const second = counted(ctx.db);
    const kept = await loadSchemaCacheWithSnapshot(second.db, API_SCHEMA, { file, fingerprint: { migrations: ['a'] } });
    assert.equal(second.statements(), 0, 'nothing read from the database');
    assert.deepEqual(planned(kept), planned(fresh));
    assert.ok(kept.tables.get('bookings')?.primaryKey.length, 'keys survive the copy');
    assert.ok(kept.relationships.size > 0 && kept.timezones.has('Europe/Amsterdam'));
  });

  it('is read again and replaced for another fingerprint, or when the file cannot be read', async () => {
    const before = await readFile(file, 'utf8');
    const other = counted(ctx.db);
    assert.deepEqual(planned(await loadSchemaCacheWithSnapshot(other.db, API_SCHEMA, { file, fingerprint: { migrations: ['a', 'b'] } })), planned(fresh));
    assert.ok(other.statements() > 0, 'another fingerprint reads the catalogue');
    assert.notEqual(JSON.parse(await readFile(file, 'utf8')).key, JSON.parse(before).key, 'and keeps the new copy');

    await writeFile(file, '{"key": "not json');
    const broken = counted(ctx.db);
    assert.deepEqual(planned(await loadSchemaCacheWithSnapshot(broken.db, API_SCHEMA, { file, fingerprint: { migrations: ['a', 'b'] } })), planned(fresh));
    assert.ok(broken.statements() > 0, 'an unreadable copy reads the catalogue');
    const again = counted(ctx.db);
    await loadSchemaCacheWithSnapshot(again.db, API_SCHEMA, { file, fingerprint: { migrations: ['a', 'b'] } });
    assert.equal(again.statements(), 0, 'and is replaced by a good one');
  });

  it('keeps what views expose of their tables\' keys', async () => {
    await createFixture(ctx.db);
    const viewsFile = join(dir, 'fixture.json');
    await loadSchemaCacheWithSnapshot(ctx.db, { schema: 'fixture' }, { file: viewsFile, fingerprint: 1 });
    const quiet = counted(ctx.db);
    const kept = await loadSchemaCacheWithSnapshot(quiet.db, { schema: 'fixture' }, { file: viewsFile, fingerprint: 1 });
    assert.equal(quiet.statements(), 0);
    assert.deepEqual(kept.tables.get('client_names')?.primaryKey, ['id'], 'the view inherits the key of clients');
    assert.deepEqual(planned(kept), planned(await fixtureCache(ctx.db)));
  });

  it('for another schema or role is not used', async () => {
    const asOwner = counted(ctx.db);
    const owner = await loadSchemaCacheWithSnapshot(asOwner.db, { schema: 'api' }, { file, fingerprint: { migrations: ['a', 'b'] } });
    assert.ok(asOwner.statements() > 0);
    assert.deepEqual(planned(owner), planned(await loadSchemaCache(ctx.db, { schema: 'api' })));
  });
});

it('staykit migrate keeps the embedded database\'s copy, which serve then uses', { timeout: 300_000 }, async () => {
  const dataDir = await mkdtemp(join(tmpdir(), 'staykit-snapshot-cli-'));
  try {
    const env = { ...process.env, DATABASE_URL: '', DATA_DIR: dataDir, LOG_LEVEL: 'warn' };
    await promisify(execFile)(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'migrate'], { env });
    const kept = JSON.parse(await readFile(join(dataDir, 'schema-cache.json'), 'utf8')) as { catalog: { rows: { tables: { name: string }[] } } };
    assert.ok(kept.catalog.rows.tables.some((table) => table.name === 'bookings'));
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
});
