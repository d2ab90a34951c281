/** `staykit key create --publishable` and `staykit key revoke pk_…` as a user runs them (PostgreSQL: a second process). */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { BACKENDS, createTestDatabase, type TestDatabase } from '../support/databases.js';
import { startApp } from '../support/app.js';
import { widgetOrganization, type WidgetOrganization } from './support.js';
import { staykit } from '../support/staykit-cli.js';

/** `staykit ARGS` against the database at `databaseUrl`. */
const staykitOn = (args: string[], databaseUrl: string) => staykit(args, { DATABASE_URL: databaseUrl });

describe('staykit key create --publishable [postgres]', { skip: !BACKENDS.includes('postgres') && 'needs PostgreSQL (a second process)' }, () => {
  let testDb: TestDatabase;
  let org: WidgetOrganization;

  before(async () => {
    testDb = await createTestDatabase('postgres');
    org = await widgetOrganization(testDb.db, 'CLI rentals');
  });
  after(() => testDb?.drop());

  it('creates a key for a widget that reads its catalogue, and revokes it', async () => {
    const created = await staykitOn(['key', 'create', '--publishable', '--widget', org.widget, '--name', 'main site'], testDb.url!);
    assert.equal(created.code, 0, created.stderr);
    const key = JSON.parse(created.stdout) as { key: string; widget_id: string; organization_id: string; name: string };
    assert.match(key.key, /^pk_[0-9A-Za-z]{32}$/);
    assert.equal(key.widget_id, org.widget);
    assert.equal(key.organization_id, org.id);
    assert.equal(key.name, 'main site');
    const app = await startApp(testDb.db);
    try {
      const catalogue = await app.inject({ method: 'GET', url: '/v1/widget', headers: { authorization: `Bearer ${key.key}` } });
      assert.equal(catalogue.statusCode, 200);
      const revoked = await staykitOn(['key', 'revoke', key.key], testDb.url!);
      assert.equal(revoked.code, 0, revoked.stderr);
      assert.ok((JSON.parse(revoked.stdout) as { revoked_at: string | null }).revoked_at);
    } finally {
      await app.close();
    }
  });

  it('refuses bad arguments with one line and exit code 2', async () => {
    for (const args of [
      ['key', 'create', '--publishable'],
      ['key', 'create', '--publishable', '--widget', 'nope'],
      ['key', 'create', '--publishable', '--widget', org.widget, '--site', org.widget],
      ['key', 'create', '--publishable', '--widget', '00000000-0000-4000-8000-000000000000'],
      ['key', 'revoke', 'pk_unknownunknownunknownunknown12'],
    ]) {
      const run = await staykitOn(args, testDb.url!);
      assert.equal(run.code, 2, `${args.join(' ')}: ${run.stderr}`);
      assert.equal(run.stderr.trim().split('\n').length, 1);
      assert.equal(run.stdout, '');
    }
  });
});
