/**
 * Private notes on a stay through the resource API (migration 0246): created with POST, the author set by the
 * database — none for an API key, which has no user; a client cannot write one — and never changed or deleted
 * through the API (part of the booking's history). The dashboard's session as the author is covered by
 * test/dashboard/booking-money.test.ts.
 */
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { forEachBackend } from '../support/databases.js';
import { createOrganization, startApp } from '../support/app.js';
import { bookingFixture, resourceClient } from '../money/support.js';

forEachBackend('booking notes', (ctx) => {
  let app: FastifyInstance;
  let api: ReturnType<typeof resourceClient>;
  let eventId: string;

  before(async () => {
    app = await startApp(ctx.db);
    const org = await createOrganization(ctx.db, 'Notes B.V.');
    api = resourceClient(app, org.key);
    const { bookingId } = await bookingFixture(ctx.db, org.id);
    eventId = (await ctx.db.query<{ id: string }>('SELECT id FROM api.calendar_events WHERE booking_id = $1', [bookingId])).rows[0]!.id;
  });
  after(() => app.close());

  it('adds a note to a stay; an API key writes it without an author', async () => {
    const note = await api.create('calendar_event_notes', { calendar_event_id: eventId, note: 'Guest arrives by boat.' });
    assert.equal(note.note, 'Guest arrives by boat.');
    assert.equal(note.author_id, null);
    const listed = await api.call('GET', `calendar_event_notes?calendar_event_id=eq.${eventId}&select=note`);
    assert.deepEqual(listed.json(), [{ note: 'Guest arrives by boat.' }]);
  });

  it('keeps an author named by the client off the note, and refuses changing or deleting a note', async () => {
    const named = await api.call('POST', 'calendar_event_notes', { calendar_event_id: eventId, note: 'Signed', author_id: '00000000-0000-4000-8000-000000000001' });
    if (named.statusCode < 400) {
      const { rows } = await ctx.db.query<{ author_id: string | null }>(`SELECT author_id FROM api.calendar_event_notes WHERE note = 'Signed'`);
      assert.deepEqual(rows, [{ author_id: null }], 'the named author is not written');
    }
    const note = await api.create('calendar_event_notes', { calendar_event_id: eventId, note: 'Stays as written.' });
    assert.equal((await api.call('PATCH', `calendar_event_notes?id=eq.${String(note.id)}`, { note: 'Changed' })).statusCode, 405);
    assert.equal((await api.call('DELETE', `calendar_event_notes?id=eq.${String(note.id)}`)).statusCode, 405);
    assert.equal((await api.get('calendar_event_notes', String(note.id))).note, 'Stays as written.');
  });
});
