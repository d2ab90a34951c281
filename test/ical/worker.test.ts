import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import { forEachBackend } from '../support/databases.js';
import { bearer, createOrganization, startApp } from '../support/app.js';
import { claimCalendars, startIcalWorker, syncDueCalendars, syncProductCalendars } from '../../src/ical/worker.js';
import type { SyncReport } from '../../src/ical/sync.js';
import {
  airbnbFeed, airbnbReservation, calendarState, createCalendar, createProduct, importedEvents, startFeedServer, type FeedServer,
} from './support.js';

const config = { icalSyncIntervalSeconds: 900, outboundAllowPrivate: true };

forEachBackend('iCal scheduling', (ctx) => {
  let server: FeedServer;
  let org: { id: string; key: string };
  before(async () => {
    server = await startFeedServer();
    org = await createOrganization(ctx.db, 'Worker Org');
  });
  after(async () => server.close());

  const deactivate = (ids: string[]) => ctx.db.query('UPDATE api.external_calendars SET active = false WHERE id = ANY($1::uuid[])', [ids]);
  const synced = (reports: SyncReport[], ids: string[]) => reports.map((r) => r.calendarId).filter((id) => ids.includes(id)).sort();

  it('syncs due calendars once; PATCH sync_requested_at asks for a sync at once; the interval brings them back', async () => {
    const product = await createProduct(ctx.db, org.id, 'Due Unit');
    server.set('/due.ics', airbnbFeed([airbnbReservation('d1', 3, 6)]));
    server.set('/broken.ics', { status: 500, body: 'oops' });
    const a = await createCalendar(ctx.db, org.id, product.id, server.url('/due.ics'));
    const broken = await createCalendar(ctx.db, org.id, product.id, server.url('/broken.ics'));
    const inactive = await createCalendar(ctx.db, org.id, product.id, server.url('/due.ics'), { active: false });
    const ids = [a, broken, inactive];

    assert.deepEqual(synced(await syncDueCalendars(ctx.db, config), ids), [a, broken].sort());
    assert.equal((await importedEvents(ctx.db, a)).length, 1);
    assert.match((await calendarState(ctx.db, broken)).error!, /HTTP 500/);
    assert.equal((await calendarState(ctx.db, inactive)).last_synced, null);
    // Nothing is due now — not even the failing one (it waits for the interval, no tight retry loop).
    assert.deepEqual(synced(await syncDueCalendars(ctx.db, config), ids), []);

    // The API's PATCH of sync_requested_at makes it due at once.
    const app = await startApp(ctx.db);
    try {
      const patch = await app.inject({
        method: 'PATCH', url: `/v1/external_calendars?id=eq.${broken}`, headers: bearer(org.key),
        payload: { sync_requested_at: new Date(Date.now() + 1000).toISOString() },
      });
      assert.equal(patch.statusCode, 204, patch.body);
    } finally {
      await app.close();
    }
    server.set('/broken.ics', airbnbFeed([]));
    assert.deepEqual(synced(await syncDueCalendars(ctx.db, config), ids), [broken]);
    assert.equal((await calendarState(ctx.db, broken)).error, null);

    // With a 1 s interval both are due again after a second.
    await new Promise((resolve) => setTimeout(resolve, 1100));
    assert.deepEqual(synced(await syncDueCalendars(ctx.db, { ...config, icalSyncIntervalSeconds: 1 }), ids), [a, broken].sort());
    await deactivate(ids);
  });

  it('concurrent claims never hand one calendar to two workers', async () => {
    const product = await createProduct(ctx.db, org.id, 'Claim Unit');
    const ids = await Promise.all(Array.from({ length: 8 }, () => createCalendar(ctx.db, org.id, product.id, server.url('/due.ics'))));
    const claim = claimCalendars(3, 120, 900, null);
    const results = await Promise.all(Array.from({ length: 6 }, () => ctx.db.query<{ calendar_id: string }>(claim.text, claim.values)));
    const claimed = results.flatMap((r) => r.rows.map((row) => row.calendar_id)).filter((id) => ids.includes(id));
    assert.equal(new Set(claimed).size, claimed.length, 'no calendar claimed twice');
    assert.equal(claimed.length, 8, 'every due calendar claimed once');
    // Held leases are not claimable, and not synced by the scheduler.
    assert.deepEqual(synced(await syncDueCalendars(ctx.db, config), ids), []);
    await deactivate(ids);
  });

  it('startIcalWorker syncs in the background and stops cleanly', async () => {
    const product = await createProduct(ctx.db, org.id, 'Background Unit');
    server.set('/bg.ics', airbnbFeed([airbnbReservation('bg1', 8, 11)]));
    const calendar = await createCalendar(ctx.db, org.id, product.id, server.url('/bg.ics'));
    const reports: SyncReport[] = [];
    const worker = startIcalWorker(ctx.db, config, undefined, { pollIntervalMs: 50, onSync: (report) => reports.push(report) });
    try {
      for (let i = 0; i < 100 && !reports.some((r) => r.calendarId === calendar); i += 1) await new Promise((r) => setTimeout(r, 50));
    } finally {
      await worker.stop();
    }
    assert.equal(reports.find((r) => r.calendarId === calendar)?.status, 'ok');
    assert.equal((await importedEvents(ctx.db, calendar)).length, 1);
    await deactivate([calendar]);
  });

  it('syncProductCalendars (perform_sync) syncs the unit\'s calendars within its bound', async () => {
    const product = await createProduct(ctx.db, org.id, 'Perform Unit');
    server.set('/fast.ics', airbnbFeed([airbnbReservation('f1', 4, 7)]));
    server.set('/slow.ics', { delayMs: 3000, body: airbnbFeed([]) });
    const fast = await createCalendar(ctx.db, org.id, product.id, server.url('/fast.ics'));
    const slow = await createCalendar(ctx.db, org.id, product.id, server.url('/slow.ics'));
    // Another organization's key cannot make this unit sync.
    const stranger = await createOrganization(ctx.db, 'Stranger Org');
    const refused = await syncProductCalendars(ctx.db, product.id, { timeoutMs: 500, allowPrivate: true, organizationId: stranger.id });
    assert.deepEqual(refused, { reports: [], pending: [] });
    assert.equal(server.hits('/fast.ics'), 0);
    const result = await syncProductCalendars(ctx.db, product.id, { timeoutMs: 500, allowPrivate: true, organizationId: org.id });
    // Bounded: the slow feed (3 s) is given up at the 500 ms bound and reported failed; unbounded, it would be ok.
    const byId = new Map(result.reports.map((r) => [r.calendarId, r]));
    assert.equal(byId.get(fast)?.status, 'ok');
    assert.equal(byId.get(slow)?.status, 'failed');
    assert.match(byId.get(slow)!.error!, /timeout/);
    assert.equal((await importedEvents(ctx.db, fast)).length, 1);

    // A calendar held by another worker is not fetched again; the call waits for it at most its bound.
    await ctx.db.query(`INSERT INTO staykit_internal.ical_sync_claims (calendar_id, organization_id, claimed_until) VALUES ($1, $2, now() + interval '1 minute')
                        ON CONFLICT (calendar_id, organization_id) DO UPDATE SET claimed_until = EXCLUDED.claimed_until`, [fast, org.id]);
    const hits = server.hits('/fast.ics');
    const waited = await syncProductCalendars(ctx.db, product.id, { timeoutMs: 300, allowPrivate: true });
    assert.deepEqual(waited.pending, [fast]);
    assert.equal(server.hits('/fast.ics'), hits);
    await deactivate([fast, slow]);
  });

  it('DELETE of an external calendar through the API cancels its future imported events (no orphaned blocks)', async () => {
    const product = await createProduct(ctx.db, org.id, 'Delete Unit');
    server.set('/delete.ics', airbnbFeed([airbnbReservation('del1', 3, 6)]));
    const calendar = await createCalendar(ctx.db, org.id, product.id, server.url('/delete.ics'));
    await syncDueCalendars(ctx.db, config);
    const [event] = await importedEvents(ctx.db, calendar);
    assert.equal(event?.status, 'CONFIRMED');
    const app = await startApp(ctx.db);
    try {
      const response = await app.inject({ method: 'DELETE', url: `/v1/external_calendars?id=eq.${calendar}`, headers: bearer(org.key) });
      assert.equal(response.statusCode, 204, response.body);
    } finally {
      await app.close();
    }
    const { rows } = await ctx.db.query<{ status: string; calendar_id: string | null }>(
      'SELECT status, calendar_id FROM api.calendar_events WHERE id = $1', [event!.id]);
    assert.deepEqual(rows[0], { status: 'CANCELLED', calendar_id: null });
    const claims = await ctx.db.query('SELECT 1 FROM staykit_internal.ical_sync_claims WHERE calendar_id = $1', [calendar]);
    assert.equal(claims.rows.length, 0);
  });
});
