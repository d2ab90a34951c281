import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { forEachBackend } from '../support/databases.js';
import { bearer, createOrganization, startApp } from '../support/app.js';
import { fixtures } from '../support/fixtures.js';

// The no-overlap rule holds for every writer, not only /book: events created or moved through the resource API.
forEachBackend('No overlap through /v1/calendar_events', (ctx) => {
  let app: FastifyInstance;
  let org: { id: string; key: string };
  let product: string;

  before(async () => {
    app = await startApp(ctx.db);
    org = await createOrganization(ctx.db, 'Overlap');
    product = await fixtures(ctx.db, org.id).product();
  });
  after(() => app.close());

  const post = (body: Record<string, unknown>) =>
    app.inject({ method: 'POST', url: '/v1/calendar_events', headers: { ...bearer(org.key), prefer: 'return=representation' }, payload: body });

  it('refuses an overlapping blocked period or booking event with 409, also counting padding and PATCHed dates', async () => {
    const first = await post({ product_id: product, start_date: '2027-03-10', end_date: '2027-03-12', padding: 2, type: 'blocked period' });
    assert.equal(first.statusCode, 201, first.body);
    const overlapping = await post({ product_id: product, start_date: '2027-03-13', end_date: '2027-03-15', type: 'blocked period' });
    assert.equal(overlapping.statusCode, 409, overlapping.body);
    assert.equal(overlapping.json().code, '23P01');
    // In words a manager reads, not the constraint's (row-level security keeps PostgreSQL from naming the other row).
    assert.equal(overlapping.json().message, 'These dates are taken: another booking or blocked period of this unit holds them');
    assert.doesNotMatch(overlapping.json().message, /constraint|calendar_events_no_overlap/);
    assert.match(overlapping.json().hint, /Choose other dates/);
    const note = await post({ product_id: product, start_date: '2027-03-10', end_date: '2027-03-12', type: 'note' });
    assert.equal(note.statusCode, 201, note.body);
    const later = await post({ product_id: product, start_date: '2027-03-14', end_date: '2027-03-16', type: 'blocked period' });
    assert.equal(later.statusCode, 201, later.body);
    const id = later.json()[0].id as string;
    const moved = await app.inject({
      method: 'PATCH', url: `/v1/calendar_events?id=eq.${id}`, headers: bearer(org.key), payload: { start_date: '2027-03-11' },
    });
    assert.equal(moved.statusCode, 409, moved.body);
    assert.equal(moved.json().code, '23P01');
  });
});
