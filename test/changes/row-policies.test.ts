/**
 * The change feed holds each table's own row policies (docs/webhooks.md#change-feed): a cleaner, whose
 * GET /v1/calendar_event_tasks shows only the tasks assigned to them (migration 0141), reads in GET /v1/changes
 * exactly those tasks' changes — a task reassigned away from them as a change without data (it left their view), a
 * task reassigned to them from then on, never another's task nor its deletion — while a key reads them all.
 */
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { forEachBackend } from '../support/databases.js';
import { bearer, createKey, createOrganization, startApp, type TestOrganization } from '../support/app.js';
import { createUser, login, type Session, type TestUser } from '../users/support.js';
import { fixtures, insert } from '../support/fixtures.js';
import type { Change } from '../../src/changes/feed.js';
import { settled, type Page } from './support.js';

forEachBackend('change feed under row policies', (ctx) => {
  let app: FastifyInstance;
  let org: TestOrganization;
  let chloe: TestUser;
  let bram: TestUser;
  let chloeSession: Session;
  let bramSession: Session;
  let tasksKey: string;
  let eventId: string;

  before(async () => {
    app = await startApp(ctx.db);
    org = await createOrganization(ctx.db, 'Field staff');
    const f = fixtures(ctx.db, org.id);
    const product = await f.product();
    eventId = await f.event(product, { start_date: '2027-02-03', end_date: '2027-02-06', title: 'Stay' });
    const permissions = [{ resource: 'calendar_event_tasks', access: 'read' as const }];
    chloe = await createUser(ctx.db, org.id, 'chloe@example.com', { role: 'cleaner', permissions });
    bram = await createUser(ctx.db, org.id, 'bram@example.com', { role: 'cleaner', permissions });
    chloeSession = await login(app, chloe.email, chloe.password);
    bramSession = await login(app, bram.email, bram.password);
    tasksKey = await createKey(ctx.db, org.id, ['calendar_event_tasks:read']);
  });
  after(() => app.close());

  const headers = (who: Session | string) => (typeof who === 'string' ? bearer(who) : { cookie: who.cookie });
  const get = async <T>(who: Session | string, url: string): Promise<T> => {
    const response = await app.inject({ method: 'GET', url, headers: headers(who) });
    assert.equal(response.statusCode, 200, `${url}: ${response.body}`);
    return response.json<T>();
  };
  /** Every change of calendar_event_tasks after `since` that `who` reads, paging through the feed. */
  const feed = async (who: Session | string, since: string | undefined): Promise<Change[]> => {
    const changes: Change[] = [];
    let cursor = since;
    for (;;) {
      const page = await get<Page>(who, `/v1/changes?limit=2&types=calendar_event_tasks.created,calendar_event_tasks.updated,calendar_event_tasks.deleted${cursor ? `&since=${cursor}` : ''}`);
      changes.push(...page.changes);
      cursor = page.next;
      if (!page.has_more) return changes;
    }
  };
  const task = (assignee: string, label: string) =>
    insert<{ id: string }>(ctx.db, 'calendar_event_tasks', {
      organization_id: org.id, calendar_event_id: eventId, assignee_id: assignee, label, due_at: '2027-02-06T09:00:00Z',
    }).then((row) => row.id);
  const summary = (changes: Change[]) => changes.map((change) => [change.type, change.id, change.data === null ? null : change.data.label]);

  it('shows a cleaner exactly the tasks GET /v1/calendar_event_tasks shows them, and a key every task', async () => {
    const chloes = await task(chloe.memberId, 'Clean the kitchen');
    const brams = await task(bram.memberId, 'Clean the garden');
    await settled(ctx.db);

    const readable = await get<{ id: string }[]>(chloeSession, '/v1/calendar_event_tasks?select=id');
    assert.deepEqual(readable.map((row) => row.id), [chloes]);
    assert.deepEqual(summary(await feed(chloeSession, undefined)), [['calendar_event_tasks.created', chloes, 'Clean the kitchen']]);
    assert.deepEqual(summary(await feed(bramSession, undefined)), [['calendar_event_tasks.created', brams, 'Clean the garden']]);
    assert.deepEqual(summary(await feed(tasksKey, undefined)), [
      ['calendar_event_tasks.created', chloes, 'Clean the kitchen'], ['calendar_event_tasks.created', brams, 'Clean the garden'],
    ]);
  });

  it('a task reassigned leaves the one view as a change without data and enters the other; a deletion reaches only who saw the row', async () => {
    const start = (await get<Page>(tasksKey, '/v1/changes?limit=1000')).next;
    const moved = await task(chloe.memberId, 'Fold the towels');
    await ctx.db.query('UPDATE api.calendar_event_tasks SET assignee_id = $1 WHERE id = $2', [bram.memberId, moved]);
    await ctx.db.query(`UPDATE api.calendar_event_tasks SET label = 'Fold and stack the towels' WHERE id = $1`, [moved]);
    const gone = await task(bram.memberId, 'Water the plants');
    await ctx.db.query('DELETE FROM api.calendar_event_tasks WHERE id = $1', [gone]);
    await settled(ctx.db);

    assert.deepEqual(summary(await feed(chloeSession, start)), [
      ['calendar_event_tasks.created', moved, 'Fold the towels'],
      ['calendar_event_tasks.updated', moved, null],
    ]);
    assert.deepEqual(summary(await feed(bramSession, start)), [
      ['calendar_event_tasks.updated', moved, 'Fold the towels'],
      ['calendar_event_tasks.updated', moved, 'Fold and stack the towels'],
      ['calendar_event_tasks.created', gone, 'Water the plants'],
      ['calendar_event_tasks.deleted', gone, null],
    ]);
    assert.equal((await feed(tasksKey, start)).length, 5);
    const chloeNow = await get<{ id: string }[]>(chloeSession, '/v1/calendar_event_tasks?select=id');
    assert.ok(!chloeNow.some((row) => row.id === moved || row.id === gone));
  });
});
