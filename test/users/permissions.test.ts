/**
 * A member's role and permissions decide what their session may do, in the HTTP layer and in the database: a
 * cleaner with only `calendar_events:read` reads the timeline but no guest's contact data, by any route; the
 * database shows a session's transaction nothing outside its grants and refuses its writes there; changes of
 * grants apply at the next request; and what a session changes is logged under its user.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { forEachBackend } from '../support/databases.js';
import { createOrganization, startApp, type TestOrganization } from '../support/app.js';
import { fixtures, insert } from '../support/fixtures.js';
import { inTenantTransaction } from '../../src/transaction/tenant-transaction.js';
import { memberScopes } from '../../src/auth/session-permissions.js';
import { createUser, login, type Session, type TestUser } from './support.js';

forEachBackend('member permissions', (ctx) => {
  let app: FastifyInstance;
  let org: TestOrganization;
  let cleaner: TestUser;
  let owner: TestUser;
  let bookingId: string;
  let productId: string;
  let eventId: string;
  let cleanerSession: Session;
  let ownerSession: Session;

  before(async () => {
    app = await startApp(ctx.db);
    org = await createOrganization(ctx.db, 'Seaside');
    const f = fixtures(ctx.db, org.id);
    productId = await f.product();
    bookingId = (await insert<{ id: string }>(ctx.db, 'bookings', { organization_id: org.id, currency: 'EUR' })).id;
    const contact = await insert<{ id: string }>(ctx.db, 'contacts', {
      organization_id: org.id, first_name: 'Ada', email: 'ada@example.com', phone: '+31 20 123 4567',
    });
    await insert(ctx.db, 'contact_bookings', { organization_id: org.id, contact_id: contact.id, booking_id: bookingId });
    eventId = await f.event(productId, { booking_id: bookingId, start_date: '2027-02-03', end_date: '2027-02-06', title: 'Stay' });
    owner = await createUser(ctx.db, org.id, 'owner@example.com', { role: 'owner' });
    cleaner = await createUser(ctx.db, org.id, 'cleaner@example.com', {
      role: 'cleaner', permissions: [{ resource: 'calendar_events', access: 'read' }],
    });
    cleanerSession = await login(app, cleaner.email, cleaner.password);
    ownerSession = await login(app, owner.email, owner.password);
  });
  after(() => app.close());

  const get = (session: Session, url: string) => app.inject({ method: 'GET', url, headers: { cookie: session.cookie } });

  describe('a cleaner with only calendar_events:read', () => {
    it('reads the timeline: calendar events and the units', async () => {
      const events = await get(cleanerSession, '/v1/calendar_events?select=id,start_date,end_date,status');
      assert.equal(events.statusCode, 200, events.body);
      assert.deepEqual(events.json().map((event: { id: string }) => event.id), [eventId]);
      const units = await get(cleanerSession, '/v1/products?select=id');
      assert.deepEqual(units.json(), [{ id: productId }]);
    });

    it('gets no guest contact data: contacts, bookings and any embed of them answer 403 SK703', async () => {
      const cases: [string, string][] = [
        ['/v1/contacts', 'contacts:read'],
        ['/v1/bookings', 'bookings:read'],
        ['/v1/contact_bookings', 'contact_bookings:read'],
        ['/v1/calendar_events?select=id,bookings(id)', 'bookings:read'],
        ['/v1/calendar_events?select=id,bookings(contact_bookings(contacts(email)))', 'bookings:read'],
      ];
      for (const [url, scope] of cases) {
        const response = await get(cleanerSession, url);
        assert.equal(response.statusCode, 403, `${url}: ${response.body}`);
        assert.equal(response.json().code, 'SK703');
        assert.equal(response.json().message, `Your role lacks the permission "${scope}"`);
        assert.doesNotMatch(response.body, /ada@example\.com|123 4567/);
      }
    });

    it('may not write what it may read', async () => {
      const response = await app.inject({
        method: 'PATCH', url: `/v1/calendar_events?id=eq.${eventId}`, payload: { notes: 'cleaned' },
        headers: { cookie: cleanerSession.cookie, 'x-csrf-token': cleanerSession.csrf },
      });
      assert.equal(response.statusCode, 403);
      assert.equal(response.json().message, 'Your role lacks the permission "calendar_events:write"');
    });

    it('gets a new grant at its next request, and loses it the same way', async () => {
      const grant = await fixtures(ctx.db, org.id).row('permissions', { member_id: cleaner.memberId, resource: 'contacts', access: 'read' });
      const granted = await get(cleanerSession, '/v1/contacts?select=email');
      assert.deepEqual(granted.json(), [{ email: 'ada@example.com' }]);
      await ctx.db.query('DELETE FROM api.permissions WHERE id = $1', [grant.id]);
      assert.equal((await get(cleanerSession, '/v1/contacts?select=email')).statusCode, 403);
    });
  });

  describe('the database on its own', () => {
    const asCleaner = <T>(work: (query: (sql: string) => Promise<{ rows: Record<string, unknown>[] }>) => Promise<T>) =>
      inTenantTransaction(ctx.db, {
        keyRowId: null, keyId: 'session:test', organizationId: org.id, userId: cleaner.id,
        scopes: memberScopes('cleaner', [{ resource: 'calendar_events', access: 'read' }]),
      }, async (tx) => ({ result: await work((sql) => tx.query(sql)), rollback: true }));

    it('shows a session transaction no rows of a table outside its grants', async () => {
      const counts = await asCleaner(async (query) => ({
        contacts: (await query('SELECT count(*)::int AS n FROM api.contacts')).rows[0]!.n,
        bookings: (await query('SELECT count(*)::int AS n FROM api.bookings')).rows[0]!.n,
        events: (await query('SELECT count(*)::int AS n FROM api.calendar_events')).rows[0]!.n,
      }));
      assert.deepEqual(counts, { contacts: 0, bookings: 0, events: 1 });
    });

    it('holds every table of the api schema with row-level security to the write grants (staykit_internal.enforce_write_scope)', async () => {
      const { rows } = await ctx.db.query<{ name: string }>(`
        SELECT c.relname AS name FROM pg_class AS c JOIN pg_namespace AS n ON n.oid = c.relnamespace
        WHERE n.nspname = 'api' AND c.relkind IN ('r', 'p') AND c.relrowsecurity AND NOT c.relispartition
          AND (SELECT count(*) FROM pg_policy AS p
               WHERE p.polrelid = c.oid AND NOT p.polpermissive AND p.polname LIKE 'write_scope_%') <> 3`);
      assert.deepEqual(rows, [], 'tables without the three write_scope policies: call staykit_internal.enforce_write_scope(table) in their migration');
    });

    it('refuses its inserts into, and hides from its updates, a table it may only read', async () => {
      await assert.rejects(
        // Raw: the statement is the cleaner's own, under row-level security.
        asCleaner((query) => query(`INSERT INTO api.calendar_events (product_id, type, status, start_date, end_date)
                                    VALUES ('${productId}', 'note', 'CONFIRMED', '2027-05-01', '2027-05-02')`)),
        /row-level security/,
      );
      const updated = await asCleaner((query) => query(`UPDATE api.calendar_events SET notes = 'x' RETURNING id`));
      assert.deepEqual(updated.rows, []);
    });
  });

  describe('an owner', () => {
    it('reads everything, guests included', async () => {
      const response = await get(ownerSession, '/v1/contacts?select=email');
      assert.deepEqual(response.json(), [{ email: 'ada@example.com' }]);
    });

    it('is recorded as the acting user of what they change and create', async () => {
      const headers = { cookie: ownerSession.cookie, 'x-csrf-token': ownerSession.csrf };
      const patched = await app.inject({ method: 'PATCH', url: `/v1/bookings?id=eq.${bookingId}`, payload: { language: 'nl' }, headers });
      assert.equal(patched.statusCode, 204, patched.body);
      const created = await app.inject({
        method: 'POST', url: '/v1/calendar_events', headers: { ...headers, prefer: 'return=representation' },
        payload: { product_id: productId, type: 'blocked period', status: 'CONFIRMED', start_date: '2027-06-01', end_date: '2027-06-03' },
      });
      assert.equal(created.statusCode, 201, created.body);
      assert.equal(created.json()[0].creator_id, owner.id);
      const updates = await ctx.db.query<{ user_id: string | null }>(`SELECT user_id FROM api.booking_updates WHERE booking_id = $1 AND 'language' = ANY (changed_fields)`, [bookingId]);
      assert.deepEqual(updates.rows, [{ user_id: owner.id }]);
      const log = await ctx.db.query<{ user_id: string | null }>(
        'SELECT user_id FROM api.calendar_event_updates WHERE calendar_event_id = $1', [created.json()[0].id],
      );
      assert.deepEqual(log.rows, [{ user_id: owner.id }]);
    });
  });

  describe('field staff (cleaner, maintenance)', () => {
    it('see only the tasks assigned to them; other roles and API keys see every task', async () => {
      const taskGrants = [
        { resource: 'calendar_event_tasks', access: 'read' }, { resource: 'tasks', access: 'read' }, { resource: 'task_assignees', access: 'read' },
      ] as const;
      const mover = await createUser(ctx.db, org.id, 'mover@example.com', { role: 'maintenance', permissions: [...taskGrants] });
      const planner = await createUser(ctx.db, org.id, 'planner@example.com', { role: 'staff', permissions: [...taskGrants] });
      const eventTask = (label: string, assignee: string | null) => insert(ctx.db, 'calendar_event_tasks', {
        organization_id: org.id, calendar_event_id: eventId, label, due_at: '2027-02-06T10:00:00Z', assignee_id: assignee,
      });
      await eventTask('Clean for the mover', mover.memberId);
      await eventTask('Clean for the planner', planner.memberId);
      await eventTask('Nobody yet', null);
      for (const [title, member] of [['Fix the tap', mover.memberId], ['Order towels', planner.memberId]] as const) {
        const task = await insert<{ id: string }>(ctx.db, 'tasks', { organization_id: org.id, title });
        await insert(ctx.db, 'task_assignees', { organization_id: org.id, task_id: task.id, member_id: member });
      }
      const labels = async (session: Session | undefined) => {
        const headers = session ? { cookie: session.cookie } : { authorization: `Bearer ${org.key}` };
        const read = async (url: string) => (await app.inject({ method: 'GET', url, headers })).json().map((row: Record<string, string>) => Object.values(row)[0]).sort();
        return {
          eventTasks: await read('/v1/calendar_event_tasks?select=label'),
          tasks: await read('/v1/tasks?select=title'),
          assignees: (await read('/v1/task_assignees?select=member_id')).length,
        };
      };
      assert.deepEqual(await labels(await login(app, mover.email, mover.password)), { eventTasks: ['Clean for the mover'], tasks: ['Fix the tap'], assignees: 1 });
      const everything = { eventTasks: ['Clean for the mover', 'Clean for the planner', 'Nobody yet'], tasks: ['Fix the tap', 'Order towels'], assignees: 2 };
      assert.deepEqual(await labels(await login(app, planner.email, planner.password)), everything);
      assert.deepEqual(await labels(undefined), everything);
    });
  });

  it('gives a new member of each role a working first screen: the calendar, and for field staff their tasks, never guests', async () => {
    for (const role of ['cleaner', 'maintenance', 'staff', 'manager'] as const) {
      const fresh = await createUser(ctx.db, org.id, `new-${role}@example.com`, { role });
      const session = await login(app, fresh.email, fresh.password);
      assert.equal((await get(session, '/v1/calendar_events?select=id,start_date')).statusCode, 200, `${role}: the calendar`);
      assert.equal((await get(session, '/v1/contacts?select=email')).statusCode, 403, `${role}: no guests`);
      assert.equal((await get(session, '/v1/bookings?select=id')).statusCode, 403, `${role}: no bookings`);
      const tasks = await get(session, '/v1/calendar_event_tasks?select=id');
      assert.equal(tasks.statusCode, role === 'cleaner' || role === 'maintenance' ? 200 : 403, `${role}: tasks`);
    }
  });

  it('ends the sessions of a member who is deactivated', async () => {
    const leaving = await createUser(ctx.db, org.id, 'leaving@example.com', { role: 'staff', permissions: [{ resource: '*', access: 'read' }] });
    const session = await login(app, leaving.email, leaving.password);
    assert.equal((await get(session, '/v1/contacts?select=email')).statusCode, 200);
    await ctx.db.query('UPDATE api.members SET active = false WHERE id = $1', [leaving.memberId]);
    const response = await get(session, '/v1/contacts?select=email');
    assert.equal(response.statusCode, 401);
    assert.equal(response.json().code, 'SK701');
  });
});
