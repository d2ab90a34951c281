/**
 * `staykit backup` and `staykit restore` (docs/operations.md): the demo organization with its photos, backed up and
 * restored into a fresh data folder or a fresh PostgreSQL database, comes back whole — every table of the schemas api
 * and staykit_internal with the same rows (count and checksum), every media file with the same bytes. A file from a
 * newer Staykit is refused, one from an older Staykit is migrated, a database in use is not overwritten, and the
 * server's scheduled backups (taken while it runs) keep the newest N.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { copyFile, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import { ComputePool } from '../../../src/compute/pool.js';
import { computePoolOptions } from '../../../src/compute/process-pool.js';
import { loadConfig } from '../../../src/config.js';
import { migrate, MIGRATIONS_DIR, migrationIds } from '../../../src/db/migrate.js';
import { openDatabase } from '../../../src/db/open.js';
import { openPGlite } from '../../../src/db/pglite.js';
import type { Backend, Database } from '../../../src/db/types.js';
import { FolderStore } from '../../../src/media/folder-store.js';
import { attachmentKey, type MediaStore } from '../../../src/media/store.js';
import { seedDemoOrganization } from '../../../src/seed/demo-organization.js';
import { databaseEntries } from '../../../src/backup/embedded-files.js';
import { ScheduledBackups } from '../../../src/backup/schedule.js';
import { extractEntry, listTar, pathInside, TarWriter } from '../../../src/backup/tar.js';
import { writeBackup } from '../../../src/backup/write-backup.js';
import { BACKENDS, createTestDatabase, type TestDatabase } from '../../support/databases.js';
import { migratedImage } from '../../support/migrated-templates.js';
import { staykit } from '../../support/staykit-cli.js';

/** Per table of api and staykit_internal (partitioned ones whole): its row count and an md5 of its rows in order. */
async function tableChecksums(db: Database): Promise<Record<string, string>> {
  const { rows: tables } = await db.query<{ name: string }>(`
    SELECT format('%I.%I', n.nspname, c.relname) AS name FROM pg_class AS c JOIN pg_namespace AS n ON n.oid = c.relnamespace
    WHERE n.nspname IN ('api', 'staykit_internal') AND c.relkind IN ('r', 'p') AND NOT c.relispartition ORDER BY 1`);
  const sums: Record<string, string> = {};
  for (const { name } of tables) {
    const { rows } = await db.query<{ count: number; md5: string }>(
      `SELECT count(*)::int AS count, md5(coalesce(string_agg(t::text, E'\\n' ORDER BY t::text), '')) AS md5 FROM ${name} AS t`);
    sums[name] = `${rows[0]!.count} rows, ${rows[0]!.md5}`;
  }
  return sums;
}

/** Every file under `folder` (none if it does not exist) with a hash of its bytes. */
async function fileHashes(folder: string): Promise<Record<string, string>> {
  const entries = await readdir(folder, { recursive: true, withFileTypes: true }).catch(() => []);
  const hashes: Record<string, string> = {};
  for (const entry of entries.filter((candidate) => candidate.isFile())) {
    const path = join(entry.parentPath, entry.name);
    hashes[path.slice(folder.length + 1)] = createHash('sha256').update(await readFile(path)).digest('hex');
  }
  return hashes;
}

/** A data folder holding the migrated database (the tests' image), as a first start leaves one. */
async function migratedDataFolder(dir: string): Promise<void> {
  const image = join(dir, '..', 'image.tar');
  await writeFile(image, await migratedImage());
  for (const { entry, path } of databaseEntries(await listTar(image), '')) await extractEntry(image, entry, pathInside(dir, path));
  await rm(image);
}

/** A backup file holding only `manifest` (enough for restore to decide whether to read on). */
async function backupWithManifest(file: string, manifest: object): Promise<void> {
  const gzip = createGzip();
  const written = pipeline(gzip, createWriteStream(file));
  const tar = new TarWriter(gzip);
  await tar.bytes('manifest.json', Buffer.from(JSON.stringify(manifest)));
  await tar.end();
  await written;
}

interface Source {
  db: Database;
  /** DATA_DIR: the embedded database's folder, and the media folder (DATA_DIR/media) of both backends. */
  dataDir: string;
  env: Record<string, string>;
  testDb?: TestDatabase;
}

/** The suite on one backend: test/cli/backup-pglite.test.ts and backup-postgres.test.ts, each in its own time budget. */
export function backupSuite(backend: Backend): void {
  describe(`staykit backup and restore [${backend}]`, () => {
    let root: string;
    let source: Source;
    let compute: ComputePool;
    const databases: TestDatabase[] = [];

    /** A fresh target: an empty data folder, or a new empty PostgreSQL database (and a media folder). */
    async function freshTarget(name: string): Promise<{ env: Record<string, string>; dataDir: string; open(): Promise<Database> }> {
      const dataDir = join(root, name);
      if (backend === 'pglite') return { env: { DATA_DIR: dataDir }, dataDir, open: () => openPGlite(dataDir) };
      const target = await createTestDatabase('postgres', { migrated: false });
      databases.push(target);
      return { env: { DATA_DIR: dataDir, DATABASE_URL: target.url! }, dataDir, open: async () => target.db };
    }

    async function openSource(): Promise<Database> {
      return backend === 'pglite' ? openPGlite(source.dataDir) : source.testDb!.db;
    }

    before(async () => {
      root = await mkdtemp(join(tmpdir(), 'staykit-backup-'));
      compute = new ComputePool(computePoolOptions(loadConfig({})));
      const dataDir = join(root, 'source');
      await mkdir(dataDir, { recursive: true });
      if (backend === 'pglite') {
        await migratedDataFolder(dataDir);
        source = { db: await openPGlite(dataDir), dataDir, env: { DATA_DIR: dataDir } };
      } else {
        const testDb = await createTestDatabase('postgres');
        databases.push(testDb);
        source = { db: testDb.db, dataDir, env: { DATA_DIR: dataDir, DATABASE_URL: testDb.url! }, testDb };
      }
      const demo = await seedDemoOrganization(source.db, undefined, { compute, store: new FolderStore(join(dataDir, 'media')), timeLimitMs: 120_000 });
      // A guest's e-mail attachment (src/inbox) is kept in the same store, beside the pictures.
      const pdf = Buffer.from('%PDF-1.4 a guest\'s scan of their passport');
      const store: MediaStore = new FolderStore(join(dataDir, 'media'));
      await store.put(attachmentKey(demo.organization_id, createHash('sha256').update(pdf).digest('hex')), pdf, 'application/pdf');
    });
    after(async () => {
      if (backend === 'pglite') await source.db.close();
      await compute.close();
      for (const testDb of databases) await testDb.drop();
      await rm(root, { recursive: true, force: true });
    });

    it('backs up the demo organization with its photos and restores every row and file into a fresh database', async () => {
      const expected = await tableChecksums(source.db);
      assert.ok(Number(expected['api.media']!.split(' ')[0]) >= 12, 'the demo has photos');
      const media = await fileHashes(join(source.dataDir, 'media'));
      assert.ok(Object.keys(media).length >= 36, 'and their files');
      assert.equal(Object.keys(media).filter((name) => name.startsWith('attachments/')).length, 1, 'and an e-mail attachment');
      // The embedded folder is held by one process: the command backs up a stopped server's folder.
      if (backend === 'pglite') await source.db.close();
      const file = join(root, 'demo.staykit.tar.gz');
      const backedUp = await staykit(['backup', '--output', file], source.env);
      if (backend === 'pglite') source.db = await openSource();
      assert.equal(backedUp.code, 0, backedUp.stderr);
      const summary = JSON.parse(backedUp.stdout) as { manifest: { backend: Backend; migration: string }; media_files: number };
      assert.equal(summary.manifest.backend, backend);
      assert.equal(summary.manifest.migration, (await migrationIds()).at(-1));
      assert.equal(summary.media_files, Object.keys(media).length);

      const target = await freshTarget('restored');
      const restored = await staykit(['restore', file], target.env);
      assert.equal(restored.code, 0, restored.stderr);
      assert.deepEqual((JSON.parse(restored.stdout) as { migrations_applied: string[] }).migrations_applied, []);
      const db = await target.open();
      try {
        assert.deepEqual(await tableChecksums(db), expected);
      } finally {
        if (backend === 'pglite') await db.close();
      }
      assert.deepEqual(await fileHashes(join(target.dataDir, 'media')), media);
    });

    it('refuses a backup from a newer Staykit, saying so, and leaves the target untouched', async () => {
      const file = join(root, 'future.tar.gz');
      await backupWithManifest(file, {
        format: 1, staykit_version: '9.0.0', migration: '9999_from_the_future', backend, created_at: new Date().toISOString(), media: 'folder',
      });
      const target = await freshTarget('future');
      const run = await staykit(['restore', file], target.env);
      assert.equal(run.code, 1, run.stderr);
      assert.match(run.stderr, /^staykit: the backup was made by Staykit 9\.0\.0 with migration 9999_from_the_future, newer than this Staykit's .*upgrade Staykit first/);
      assert.deepEqual(await readdir(target.dataDir).catch(() => []), [], 'nothing written');
      if (backend === 'postgres') {
        const db = await target.open();
        assert.equal((await db.query(`SELECT 1 FROM pg_namespace WHERE nspname = 'api'`)).rowCount, 0);
      }
    });

    it('restores into a database that holds data only when told to', async () => {
      const file = join(root, 'again.tar.gz');
      await writeBackup(source.db, { databaseUrl: source.env.DATABASE_URL, databaseDirectUrl: undefined, dataDir: source.dataDir, mediaS3Url: undefined }, file);
      const restoredDir = join(root, 'restored');
      const run = await staykit(['restore', file], backend === 'pglite' ? { DATA_DIR: restoredDir } : source.env);
      assert.equal(run.code, 1, run.stderr);
      assert.match(run.stderr, backend === 'pglite' ? /holds a database already/ : /is not empty .*--force/);
      if (backend === 'postgres') {
        const before = await tableChecksums(source.db);
        const forced = await staykit(['restore', file, '--force'], source.env);
        assert.equal(forced.code, 0, forced.stderr);
        assert.deepEqual(await tableChecksums(source.db), before);
      }
    });

    it('the running server\'s scheduled backups keep the newest N, each one restorable', async () => {
      const folder = join(root, 'scheduled');
      let clock = Date.parse('2026-03-01T02:00:00Z');
      const logged: string[] = [];
      const schedule = new ScheduledBackups({
        db: source.db, // open, as in a running server
        config: { databaseUrl: source.env.DATABASE_URL, databaseDirectUrl: undefined, dataDir: source.dataDir, mediaS3Url: undefined },
        folder, keep: 2, intervalSeconds: 3600,
        log: { info: (_fields, message) => logged.push(message), error: (_fields, message) => logged.push(message) },
        now: () => new Date(clock),
      });
      for (let run = 0; run < 4; run += 1) {
        await schedule.run();
        clock += 3_600_000;
      }
      await writeFile(join(folder, 'notes.txt'), 'not a backup: kept');
      await schedule.run();
      assert.deepEqual((await readdir(folder)).sort(), ['notes.txt', 'staykit-20260301T050000000Z.tar.gz', 'staykit-20260301T060000000Z.tar.gz']);
      assert.equal(logged.filter((message) => message === 'scheduled backup written').length, 5);

      const expected = await tableChecksums(source.db);
      const target = await freshTarget('from-schedule');
      const restored = await staykit(['restore', join(folder, 'staykit-20260301T060000000Z.tar.gz')], target.env);
      assert.equal(restored.code, 0, restored.stderr);
      const db = await target.open();
      try {
        assert.deepEqual(await tableChecksums(db), expected);
      } finally {
        if (backend === 'pglite') await db.close();
      }
    });

    if (backend === 'pglite') {
      it('leaves a running server\'s data folder to the server, saying how it backs itself up', async () => {
        const run = await staykit(['backup', '--output', join(root, 'refused.tar.gz')], source.env); // this process holds the folder
        assert.equal(run.code, 1);
        assert.match(run.stderr, /is in use by another Staykit process .*A running server backs itself up: set STAYKIT_BACKUP_INTERVAL/);
        assert.deepEqual((await readdir(root)).filter((name) => name.startsWith('refused') || name.startsWith('.refused')), []);
      });
    }

    if (backend === 'pglite' && BACKENDS.includes('postgres')) {
      it('migrate-to-postgres copies every row of the embedded database into a fresh PostgreSQL database', async () => {
        const expected = await tableChecksums(source.db);
        const target = await createTestDatabase('postgres', { migrated: false });
        databases.push(target);
        await source.db.close();
        const run = await staykit(['migrate-to-postgres'], { DATA_DIR: source.dataDir, DATABASE_URL: target.url! });
        source.db = await openSource();
        assert.equal(run.code, 0, run.stderr);
        assert.deepEqual(await tableChecksums(target.db), expected);
        const again = await staykit(['migrate-to-postgres'], { DATA_DIR: source.dataDir, DATABASE_URL: target.url! });
        assert.equal(again.code, 1, 'a database that holds data is not copied into');
        assert.match(again.stderr, /is not empty/);
      });
    }

    if (backend === 'postgres') {
      it('upgrades a backup from an older Staykit: the migrations it lacks are applied after it is loaded', async () => {
        const ids = await migrationIds();
        const older = join(root, 'older-migrations');
        await mkdir(older);
        for (const id of ids.slice(0, -1)) await copyFile(join(MIGRATIONS_DIR, `${id}.sql`), join(older, `${id}.sql`));
        const old = await createTestDatabase('postgres', { migrated: false });
        databases.push(old);
        await migrate(old.db, `${older}/`);
        const file = join(root, 'older.tar.gz');
        const summary = await writeBackup(old.db, { databaseUrl: old.url, databaseDirectUrl: undefined, dataDir: join(root, 'older-data'), mediaS3Url: undefined }, file);
        assert.equal(summary.manifest.migration, ids.at(-2));

        const target = await freshTarget('upgraded');
        const run = await staykit(['restore', file], target.env);
        assert.equal(run.code, 0, run.stderr);
        assert.deepEqual((JSON.parse(run.stdout) as { migrations_applied: string[] }).migrations_applied, [ids.at(-1)]);
        const db = await openDatabase({ databaseUrl: target.env.DATABASE_URL });
        try {
          assert.equal((await db.query('SELECT 1 FROM staykit_internal.migrations')).rowCount, ids.length);
        } finally {
          await db.close();
        }
      });
    }
  });
}
