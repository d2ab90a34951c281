/**
 * Jobs and tasks are written in the transaction of the change that causes them: a booking that rolls back leaves
 * no e-mail job and no task behind; the same booking committed has both.
 */
import { before, it } from 'node:test';
import assert from 'node:assert/strict';
import { forEachBackend } from '../support/databases.js';
import { createOrganization } from '../support/app.js';
import { fixtures, insert } from '../support/fixtures.js';
import { bookableUnit } from './support.js';

forEachBackend('automation jobs follow their transaction', (ctx) => {
  let org: { id: string };
  let unit: { product: string };

  before(async () => {
    org = await createOrganization(ctx.db, 'Atomic Rentals');
    unit = await bookableUnit(ctx.db, org.id);
    await insert(ctx.db, 'email_templates', { organization_id: org.id, trigger: 'created', subject: { default: 'Hi' }, body: { default: 'Hi' } });
    await insert(ctx.db, 'product_tasks', { organization_id: org.id, product_id: unit.product, label: 'Clean', schedule: 'departure' });
  });

  const counts = async () => (await ctx.db.query<{ jobs: number; tasks: number }>(
    `SELECT (SELECT count(*)::int FROM staykit_internal.automation_jobs WHERE organization_id = $1) AS jobs,
            (SELECT count(*)::int FROM api.calendar_event_tasks WHERE organization_id = $1) AS tasks`, [org.id])).rows[0]!;

  const bookIn = async (rollback: boolean) => {
    await ctx.db.transaction(async (tx) => {
      const f = fixtures(tx, org.id);
      await f.event(unit.product, { booking_id: await f.booking(), start_date: '2027-10-01', end_date: '2027-10-03' });
      if (rollback) throw new Error('rolled back on purpose');
    }).catch((error: Error) => {
      if (!rollback) throw error;
    });
  };

  it('a rolled-back booking leaves nothing; a committed one has its job and task', async () => {
    await bookIn(true);
    assert.deepEqual(await counts(), { jobs: 0, tasks: 0 });
    await bookIn(false);
    const after = await counts();
    assert.equal(after.jobs, 1);
    assert.equal(after.tasks, 1);
  });
});
