/**
 * The calendar rules in the database: no overlapping bookings or blocked periods on one unit (cancelled events,
 * notes and other units never conflict; cooldown padding blocks the days after a stay), the allowed status moves,
 * bookings.confirmed_at following the event, and calendar_event_updates written on every change.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { before, it } from 'node:test';
import { forEachBackend } from '../support/databases.js';
import { fixtures } from '../support/fixtures.js';
import type { Queryable } from '../../src/db/types.js';
import { asApi, createOrganization, rejectsWith, type Organization } from './helpers.js';

interface EventInput {
  product: string;
  start: string;
  end: string;
  type?: 'booking' | 'blocked period' | 'note';
  status?: 'TENTATIVE' | 'CONFIRMED' | 'CANCELLED';
  padding?: number;
  booking?: string | null;
}

forEachBackend('schema: calendar events', (ctx) => {
  let o: Organization;

  before(async () => {
    o = await createOrganization(ctx.db);
  });

  const newProduct = () => fixtures(ctx.db, o.id).product({ name: { default: 'Unit' }, timezone: 'UTC' });
  const newBooking = () => fixtures(ctx.db, o.id).booking();

  function addEvent(db: Queryable, e: EventInput): Promise<string> {
    return fixtures(db, o.id).event(e.product, {
      start_date: e.start, end_date: e.end, type: e.type, status: e.status, padding: e.padding, booking_id: e.booking,
    });
  }

  it('rejects an overlapping booking on the same unit (23P01, calendar_events_no_overlap)', async () => {
    const product = await newProduct();
    await addEvent(ctx.db, { product, start: '2030-07-01', end: '2030-07-05' });
    await rejectsWith(addEvent(ctx.db, { product, start: '2030-07-04', end: '2030-07-06' }), '23P01', /calendar_events_no_overlap/);
    await rejectsWith(addEvent(ctx.db, { product, start: '2030-06-28', end: '2030-07-10', type: 'blocked period' }), '23P01');
    await rejectsWith(addEvent(ctx.db, { product, start: '2030-07-02', end: '2030-07-03', status: 'TENTATIVE' }), '23P01');
  });

  it('treats end_date as exclusive: a stay may start on the previous checkout date', async () => {
    const product = await newProduct();
    await addEvent(ctx.db, { product, start: '2030-07-01', end: '2030-07-05' });
    await addEvent(ctx.db, { product, start: '2030-07-05', end: '2030-07-08' });
    await addEvent(ctx.db, { product, start: '2030-06-28', end: '2030-07-01', type: 'blocked period' });
  });

  it('lets cancelled events, notes and other units overlap', async () => {
    const product = await newProduct();
    const other = await newProduct();
    await addEvent(ctx.db, { product, start: '2030-08-01', end: '2030-08-10' });
    await addEvent(ctx.db, { product, start: '2030-08-02', end: '2030-08-04', status: 'CANCELLED' });
    await addEvent(ctx.db, { product, start: '2030-08-02', end: '2030-08-04', type: 'note' });
    await addEvent(ctx.db, { product, start: '2030-08-02', end: '2030-08-04', type: 'note', status: 'TENTATIVE' });
    await addEvent(ctx.db, { product: other, start: '2030-08-01', end: '2030-08-10' });
  });

  it('frees the dates when an event is cancelled, and re-checks them when it comes back', async () => {
    const product = await newProduct();
    const first = await addEvent(ctx.db, { product, start: '2030-09-01', end: '2030-09-05', status: 'TENTATIVE' });
    await ctx.db.query(`UPDATE api.calendar_events SET status = 'CANCELLED' WHERE id = $1`, [first]);
    await addEvent(ctx.db, { product, start: '2030-09-02', end: '2030-09-04' });
    await rejectsWith(ctx.db.query(`UPDATE api.calendar_events SET status = 'CONFIRMED' WHERE id = $1`, [first]), '23P01');
    await rejectsWith(ctx.db.query(`UPDATE api.calendar_events SET status = 'TENTATIVE' WHERE id = $1`, [first]), '23P01');
  });

  it('blocks the cooldown padding after a stay, and only after it', async () => {
    const product = await newProduct();
    await addEvent(ctx.db, { product, start: '2030-10-10', end: '2030-10-14', padding: 2 });
    await rejectsWith(addEvent(ctx.db, { product, start: '2030-10-15', end: '2030-10-17' }), '23P01');
    await rejectsWith(addEvent(ctx.db, { product, start: '2030-10-14', end: '2030-10-15' }), '23P01');
    await addEvent(ctx.db, { product, start: '2030-10-16', end: '2030-10-18', padding: 2 });
    // Before the stay, only the earlier stay's own padding counts: it must end cooldown days before arrival.
    await addEvent(ctx.db, { product, start: '2030-10-05', end: '2030-10-08', padding: 2 });
    await rejectsWith(addEvent(ctx.db, { product, start: '2030-10-08', end: '2030-10-09', padding: 2 }), '23P01');
  });

  it('allows exactly the documented status moves (others: 23514 calendar_events_status_transition)', async () => {
    const statuses = ['TENTATIVE', 'CONFIRMED', 'CANCELLED'] as const;
    const allowed = new Set(['TENTATIVE>CONFIRMED', 'TENTATIVE>CANCELLED', 'CONFIRMED>CANCELLED', 'CANCELLED>TENTATIVE',
      'CANCELLED>CONFIRMED', 'TENTATIVE>TENTATIVE', 'CONFIRMED>CONFIRMED', 'CANCELLED>CANCELLED']);
    const product = await newProduct();
    let day = 1;
    for (const from of statuses) {
      for (const to of statuses) {
        const start = `2031-01-${String(day).padStart(2, '0')}`;
        const end = `2031-01-${String(day + 1).padStart(2, '0')}`;
        day += 2;
        const id = await addEvent(ctx.db, { product, start, end, status: from });
        const move = ctx.db.query(`UPDATE api.calendar_events SET status = $2 WHERE id = $1`, [id, to]);
        if (allowed.has(`${from}>${to}`)) await move;
        else await rejectsWith(move, '23514', new RegExp(`cannot move from ${from} to ${to}`));
      }
    }
  });

  it('sets bookings.confirmed_at when the booking\'s event is confirmed, also for the API role', async () => {
    const product = await newProduct();
    const confirmedAt = async (booking: string) =>
      (await ctx.db.query<{ confirmed_at: string | null }>(`SELECT confirmed_at FROM api.bookings WHERE id = $1`, [booking])).rows[0]!.confirmed_at;

    const requested = await newBooking();
    const event = await addEvent(ctx.db, { product, start: '2031-03-01', end: '2031-03-04', status: 'TENTATIVE', booking: requested });
    assert.equal(await confirmedAt(requested), null);
    await ctx.db.transaction(async (tx) => {
      await tx.query(`SET LOCAL ROLE staykit_api`);
      await tx.query(`SELECT set_config('staykit.organization_id', $1, true)`, [o.id]);
      await tx.query(`UPDATE api.calendar_events SET status = 'CONFIRMED' WHERE id = $1`, [event]);
    });
    const first = await confirmedAt(requested);
    assert.ok(first);
    await ctx.db.query(`UPDATE api.calendar_events SET status = 'CANCELLED' WHERE id = $1`, [event]);
    await ctx.db.query(`UPDATE api.calendar_events SET status = 'CONFIRMED' WHERE id = $1`, [event]);
    assert.equal(await confirmedAt(requested), first, 'the first confirmation time is kept');

    const instant = await newBooking();
    await addEvent(ctx.db, { product, start: '2031-03-10', end: '2031-03-12', status: 'CONFIRMED', booking: instant });
    assert.ok(await confirmedAt(instant));
  });

  it('writes calendar_event_updates with a snapshot on create, update and delete', async () => {
    const product = await newProduct();
    const booking = await newBooking();
    const userId = randomUUID();
    await fixtures(ctx.db, o.id).row('user_profiles', { user_id: userId, name: 'Ed' });
    const event = await addEvent(ctx.db, { product, start: '2031-05-01', end: '2031-05-03', status: 'TENTATIVE', booking });
    await ctx.db.transaction(async (tx) => {
      await tx.query(`SET LOCAL ROLE staykit_api`);
      await tx.query(`SELECT set_config('staykit.organization_id', $1, true), set_config('staykit.user_id', $2, true)`, [o.id, userId]);
      await tx.query(`UPDATE api.calendar_events SET status = 'CONFIRMED', notes = 'Late arrival' WHERE id = $1`, [event]);
      await tx.query(`DELETE FROM api.calendar_events WHERE id = $1`, [event]);
    });
    const { rows } = await ctx.db.query<{
      kind: string; status: string; previous_status: string | null; changed_fields: string[];
      snapshot: Record<string, unknown>; user_id: string | null; booking_id: string; organization_id: string;
    }>(`SELECT kind, status, previous_status, changed_fields, snapshot, user_id, booking_id, organization_id
        FROM api.calendar_event_updates WHERE calendar_event_id = $1 ORDER BY created_at, kind`, [event]);
    assert.deepEqual(rows.map((r) => r.kind).sort(), ['created', 'deleted', 'updated']);
    const byKind = Object.fromEntries(rows.map((r) => [r.kind, r]));
    assert.equal(byKind.created!.status, 'TENTATIVE');
    assert.equal(byKind.created!.previous_status, null);
    assert.equal(byKind.created!.user_id, null);
    assert.deepEqual(byKind.updated!.changed_fields, ['notes', 'status']);
    assert.equal(byKind.updated!.previous_status, 'TENTATIVE');
    assert.equal(byKind.updated!.snapshot.notes, 'Late arrival');
    assert.equal(byKind.updated!.snapshot.status, 'CONFIRMED');
    assert.equal(byKind.updated!.snapshot.fts, undefined);
    assert.equal(byKind.updated!.user_id, userId);
    assert.equal(byKind.deleted!.snapshot.id, event);
    assert.ok(rows.every((r) => r.booking_id === booking && r.organization_id === o.id));
    // The API role reads the log but cannot write it.
    await rejectsWith(asApi(ctx.db, o.id, (tx) => tx.query(`DELETE FROM api.calendar_event_updates`)), '42501');
  });
});
