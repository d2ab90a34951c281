/**
 * The release records stay consistent (docs/operations.md#releases): every release in CHANGELOG.md has its database
 * and record in releases/, the record names the same commit and last migration, every migration a release had is
 * still in migrations/ (a migration is never renamed or removed once released), and package.json's version is the
 * newest release or a `-dev` of a later one.
 */
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import semver from 'semver';
import { migrationIds } from '../../src/db/migrate.js';
import { RELEASES_DIR, type ReleaseRecord } from '../../scripts/release-dump/record.js';

const root = new URL('../../', import.meta.url);
const changelog = readFileSync(new URL('CHANGELOG.md', root), 'utf8');
const manifest = JSON.parse(readFileSync(new URL('package.json', root), 'utf8')) as { version: string };

interface Entry { version: string; commit: string | undefined; lastMigration: string | undefined }

const entries: Entry[] = changelog.split(/^## /m).slice(1)
  .map((section) => ({ heading: section.split('\n')[0]!.trim(), body: section }))
  .filter(({ heading }) => heading !== 'Unreleased')
  .map(({ heading, body }) => ({
    version: heading,
    commit: /^- Commit: `([0-9a-f]{40})`$/m.exec(body)?.[1],
    lastMigration: /^- Last migration: `([^`]+)`$/m.exec(body)?.[1],
  }));

it('each release in CHANGELOG.md names its commit and last migration and has its database and record', async () => {
  assert.ok(entries.length > 0, 'at least one release');
  const migrations = await migrationIds();
  for (const entry of entries) {
    assert.ok(semver.valid(entry.version), `"${entry.version}" is a version`);
    assert.ok(entry.commit && entry.lastMigration, `${entry.version} names its commit and last migration`);
    assert.ok(existsSync(join(RELEASES_DIR, `${entry.version}.sql.gz`)), `releases/${entry.version}.sql.gz`);
    const record = JSON.parse(readFileSync(join(RELEASES_DIR, `${entry.version}.json`), 'utf8')) as ReleaseRecord;
    assert.equal(record.version, entry.version);
    assert.equal(record.commit, entry.commit, `${entry.version}: the record was made from the commit the changelog names`);
    assert.equal(record.lastMigration, entry.lastMigration);
    assert.equal([...record.migrations].sort().at(-1), entry.lastMigration, 'the last migration is the newest the database had');
    assert.deepEqual(record.migrations.filter((id) => !migrations.includes(id)), [], `${entry.version}'s migrations are all still in migrations/`);
  }
  const recorded = readdirSync(RELEASES_DIR).filter((file) => file.endsWith('.json')).map((file) => file.slice(0, -'.json'.length)).sort();
  assert.deepEqual(recorded, entries.map((entry) => entry.version).sort(), 'every record in releases/ is a release of the changelog');
});

it('package.json is the newest release, or a -dev of a later version', () => {
  const newest = entries.map((entry) => entry.version).sort(semver.rcompare)[0]!;
  const version = manifest.version;
  assert.ok(version === newest || (semver.prerelease(version)?.[0] === 'dev' && semver.gt(version, newest)),
    `package.json's ${version} is ${newest} or a later -dev`);
});
