import assert from 'node:assert/strict';
import { before, it } from 'node:test';
import { columnOf, type SchemaCache } from '../../src/schema/types.js';
import { forEachBackend } from '../support/databases.js';
import { createFixture, FIXTURE_ROLE, fixtureCache } from '../query/fixture.js';

forEachBackend('schema cache', (ctx) => {
  let cache: SchemaCache;
  let roleCache: SchemaCache;

  before(async () => {
    await createFixture(ctx.db);
    cache = await fixtureCache(ctx.db);
    roleCache = await fixtureCache(ctx.db, FIXTURE_ROLE);
  });

  it('lists tables and views of the schema only', () => {
    assert.ok(cache.tables.has('clients'));
    assert.equal(cache.tables.get('client_names')?.kind, 'view');
    assert.equal(cache.tables.get('things')?.kind, 'table');
    assert.equal(cache.tables.get('things')?.comment, 'things of every type');
    assert.equal(cache.tables.has('migrations'), false);
  });

  it('describes columns: types, nullability, defaults, generated, arrays, enums, comments', () => {
    const things = cache.tables.get('things');
    assert.ok(things);
    assert.deepEqual(things.columns.map((c) => c.name), [
      'id', 'name', 'amount', 'active', 'tags', 'nums', 'data', 'during', 'born', 'mood', 'doc', 'content', 'name_upper',
    ]);
    const id = columnOf(things, 'id');
    assert.equal(id?.type, 'integer');
    assert.equal(id?.nullable, false);
    const tags = columnOf(things, 'tags');
    assert.equal(tags?.isArray, true);
    assert.equal(tags?.elementType, 'text');
    assert.equal(tags?.type, 'text[]');
    assert.deepEqual(columnOf(things, 'mood')?.enumValues, ['sad', 'ok', 'happy']);
    assert.equal(columnOf(things, 'name_upper')?.generated, true);
    assert.equal(columnOf(things, 'name_upper')?.canInsert, false);
    assert.equal(columnOf(things, 'name')?.comment, 'the name');
    const items = cache.tables.get('items');
    assert.ok(items);
    assert.equal(columnOf(items, 'qty')?.defaultExpr, '1');
    assert.equal(columnOf(items, 'qty')?.hasDefault, true);
    assert.equal(columnOf(items, 'note')?.hasDefault, false);
  });

  it('reads primary, unique and composite foreign keys', () => {
    assert.deepEqual(cache.tables.get('sites')?.primaryKey, ['id', 'org_id']);
    assert.deepEqual(cache.tables.get('items')?.uniqueKeys, [['name']]);
    const fk = cache.tables.get('pages')?.foreignKeys.find((f) => f.name === 'pages_site_fkey');
    assert.deepEqual(fk, {
      name: 'pages_site_fkey',
      table: 'pages',
      columns: ['site_id', 'org_id'],
      refSchema: 'fixture',
      refTable: 'sites',
      refColumns: ['id', 'org_id'],
    });
  });

  it('derives relationships in every direction', () => {
    const of = (table: string) => cache.relationships.get(table) ?? [];
    const projects = of('clients').filter((r) => r.foreignTable === 'projects');
    assert.deepEqual(projects.map((r) => r.cardinality), ['one-to-many']);
    assert.deepEqual(of('projects').filter((r) => r.foreignTable === 'clients').map((r) => r.cardinality), ['many-to-one']);
    const m2m = of('users').find((r) => r.foreignTable === 'tasks');
    assert.equal(m2m?.cardinality, 'many-to-many');
    assert.equal(m2m?.junction?.table, 'users_tasks');
    assert.deepEqual(of('users').filter((r) => r.foreignTable === 'passports').map((r) => r.cardinality), ['one-to-one']);
    const self = of('family').filter((r) => r.foreignTable === 'family');
    assert.deepEqual(self.map((r) => r.cardinality).sort(), ['many-to-one', 'one-to-many']);
    assert.ok(self.every((r) => r.isSelf));
    const orgsUsers = of('orgs').filter((r) => r.foreignTable === 'users').map((r) => r.cardinality).sort();
    assert.deepEqual(orgsUsers, ['many-to-many', 'one-to-many']);
    const composite = of('sites').find((r) => r.foreignTable === 'pages');
    assert.deepEqual(composite?.columns, ['id', 'org_id']);
    assert.deepEqual(composite?.foreignColumns, ['site_id', 'org_id']);
  });

  it('evaluates privileges for the given role', () => {
    const items = roleCache.tables.get('items');
    assert.ok(items);
    assert.deepEqual(items.privileges, { select: true, insert: true, update: true, delete: true });
    assert.equal(columnOf(items, 'name')?.canInsert, true);
    assert.equal(columnOf(items, 'secret')?.canInsert, false);
    assert.equal(columnOf(items, 'secret')?.canUpdate, false);
    assert.deepEqual(roleCache.tables.get('logs')?.privileges, { select: true, insert: false, update: false, delete: false });
    assert.deepEqual(roleCache.tables.get('clients')?.privileges, { select: false, insert: false, update: false, delete: false });
    assert.deepEqual(cache.tables.get('clients')?.privileges, { select: true, insert: true, update: true, delete: true });
  });

  it('lists functions with their arguments and return shapes', () => {
    const add = cache.routines.get('add_them')?.[0];
    assert.deepEqual(add?.args.map((a) => [a.name, a.type, a.hasDefault]), [
      ['a', 'integer', false],
      ['b', 'integer', false],
    ]);
    assert.equal(add?.returnsSet, false);
    assert.equal(add?.returnsComposite, false);
    const projectsOf = cache.routines.get('projects_of')?.[0];
    assert.equal(projectsOf?.returnsSet, true);
    assert.equal(projectsOf?.returnsTable, 'projects');
    assert.equal(cache.routines.get('greet')?.[0]?.args[0]?.hasDefault, true);
    assert.equal(cache.routines.get('do_nothing')?.[0]?.returnsVoid, true);
    assert.equal(add?.volatility, 'immutable');
  });
});
