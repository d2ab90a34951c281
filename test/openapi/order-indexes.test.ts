/**
 * The OpenAPI document says, per table, which columns `order` is index-backed on (read from pg_index when the
 * document is built): a column an index leads with, or holds right after `organization_id` — so a client can tell
 * an order that stays fast on a large tenant from one that sorts every row. An index added to the database shows
 * in the next document built.
 */
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { forEachBackend } from '../support/databases.js';
import { startApp } from '../support/app.js';

interface ListOperation {
  description: string;
  'x-indexed-order'?: string[];
}

async function listOperation(app: FastifyInstance, table: string): Promise<ListOperation> {
  const response = await app.inject({ method: 'GET', url: '/v1/openapi.json' });
  assert.equal(response.statusCode, 200);
  const document = response.json<{ paths: Record<string, { get: ListOperation }> }>();
  return document.paths[`/${table}`]!.get;
}

forEachBackend('OpenAPI: columns with an index for order', (ctx) => {
  let app: FastifyInstance;
  before(async () => {
    app = await startApp(ctx.db);
  });
  after(async () => {
    await app?.close();
  });

  it('lists the leading columns of the table\'s indexes and the column after organization_id, never organization_id', async () => {
    const events = await listOperation(app, 'calendar_events');
    const indexed = events['x-indexed-order'] ?? [];
    // id: the (id, organization_id) key; start_date: the (organization_id, start_date) index.
    for (const column of ['id', 'start_date']) assert.ok(indexed.includes(column), `${column} in ${indexed.join(', ')}`);
    assert.ok(!indexed.includes('organization_id'));
    assert.ok(!indexed.includes('description'), 'an unindexed column is not listed');
    assert.match(events.description, /`order` is index-backed on .*`start_date`/);
  });

  it('follows the database: a new index is in the next document', async () => {
    assert.ok(!((await listOperation(app, 'contacts'))['x-indexed-order'] ?? []).includes('last_name'));
    await ctx.db.exec('CREATE INDEX contacts_last_name_for_order_test ON api.contacts (organization_id, last_name)');
    const rebuilt = await startApp(ctx.db);
    try {
      assert.ok((await listOperation(rebuilt, 'contacts'))['x-indexed-order']!.includes('last_name'));
    } finally {
      await rebuilt.close();
      await ctx.db.exec('DROP INDEX api.contacts_last_name_for_order_test');
    }
  });
});
