/**
 * A page of parents with embeds is the same page of the whole answer, whether the engine cuts the page before it
 * builds the embeds (src/query/sql/page-first.ts) or after them (an `!inner` embed, a filter on an embed's
 * presence, an order by an embedded column, aggregates, computed fields and relationships).
 */
import assert from 'node:assert/strict';
import { before, it } from 'node:test';
import type { SchemaCache } from '../../src/schema/types.js';
import { forEachBackend } from '../support/databases.js';
import { createFixture, engineClient, fixtureCache } from './fixture.js';

const FUNCTIONS = `
CREATE FUNCTION fixture.label(fixture.projects) RETURNS text LANGUAGE sql STABLE AS $f$ SELECT upper($1.name) $f$;
CREATE FUNCTION fixture.project_tasks(fixture.projects) RETURNS SETOF fixture.tasks LANGUAGE sql STABLE
  AS $f$ SELECT * FROM fixture.tasks WHERE project_id = $1.id $f$;
GRANT EXECUTE ON FUNCTION fixture.label(fixture.projects), fixture.project_tasks(fixture.projects) TO staykit_fixture_api;
`;

/** Requests whose whole answer is sliced, each with `limit`/`offset` appended. */
const LISTS = [
  // Embeds that only add to their parents: the page is cut first.
  'projects?select=id,name,clients(name),tasks(id,name)',
  'projects?select=id,client:clients(id,name),tasks(name)&order=client_id.desc.nullslast,id',
  'clients?select=name,projects(name,tasks(name))&projects.order=name.desc',
  'clients?select=id,projects(id,tasks(id))&projects.limit=1&projects.offset=1',
  'users?select=name,tasks(name),passports(number)&order=name',
  'users?select=id,...orgs(org:name),tasks(id)',
  'family?select=name,children:family(name),parent:parent_id(name)&order=name.desc',
  'things?select=id,name&order=data->>k.desc.nullsfirst,id',
  'orgs?select=name,sites(name,pages(title))',
  // Embeds that decide which parents there are or their order: the page is cut after them.
  'projects?select=id,tasks!inner(id)&tasks.name=like.Code*',
  'projects?select=id,clients(name)&clients=not.is.null',
  'projects?select=id,clients(name)&order=clients(name).desc,id',
  'projects?select=id,label,tasks(id)&order=label',
  'projects?select=id,project_tasks(name)',
  'clients?select=id,projects(count())',
];

const PAGES = [
  { limit: 1, offset: 0 },
  { limit: 2, offset: 1 },
  { limit: 3, offset: 2 },
  { limit: 10, offset: 3 },
  { limit: 0, offset: 0 },
];

forEachBackend('embeds of a page', (ctx) => {
  let cache: SchemaCache;
  const request = engineClient(() => ctx.db, () => cache);

  before(async () => {
    await createFixture(ctx.db);
    await ctx.db.exec(FUNCTIONS);
    cache = await fixtureCache(ctx.db);
  });

  it('a page of parents carries the same embeds as the same rows of the whole list', async () => {
    for (const list of LISTS) {
      const whole = await request('GET', list);
      assert.equal(whole.status, 200, `${list}: ${whole.body}`);
      const rows = whole.json as unknown[];
      for (const { limit, offset } of PAGES) {
        const path = `${list}&limit=${limit}&offset=${offset}`;
        const page = await request('GET', path);
        assert.equal(page.status, 200, `${path}: ${page.body}`);
        assert.deepEqual(page.json, rows.slice(offset, offset + limit), path);
      }
    }
  });

  it('a counted page counts every parent, and Range pages the same way', async () => {
    const page = await request('GET', 'projects?select=id,tasks(id)&offset=1&limit=2', { headers: { Prefer: 'count=exact' } });
    assert.equal(page.status, 206);
    assert.equal(page.headers['Content-Range'], '1-2/5');
    assert.deepEqual(page.json, [{ id: 2, tasks: [{ id: 3 }, { id: 4 }] }, { id: 3, tasks: [{ id: 5 }, { id: 6 }] }]);
    const ranged = await request('GET', 'projects?select=id,tasks(id)', { headers: { Range: '1-2' } });
    assert.deepEqual(ranged.json, page.json);
  });
});
