/**
 * A job's lease is short (a worker that dies gives its jobs back within it: test/operations/kill-burst.test.ts) and
 * renewed while the job is worked, so a send slower than the lease is never taken over by a second worker: the
 * guest would get the e-mail twice.
 */
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import { forEachBackend } from '../support/databases.js';
import { createOrganization } from '../support/app.js';
import { insert } from '../support/fixtures.js';
import { startAutomationScheduler } from '../../src/automations/scheduler.js';
import { createSmtpMailer } from '../../src/automations/smtp.js';
import { clock, runDue, schedulerOptions, startSmtpServer, type TestSmtpServer } from './support.js';

forEachBackend('automation job leases', (ctx) => {
  let smtp: TestSmtpServer;
  let org: { id: string };

  before(async () => {
    smtp = await startSmtpServer();
    org = await createOrganization(ctx.db, 'Seaside Rentals');
  });
  after(() => smtp.close());

  it('are renewed while a slow send runs: another worker cannot take the job meanwhile', async () => {
    const time = clock('2027-03-01T10:00:00Z');
    const message = await insert<{ id: string }>(ctx.db, 'messages', {
      organization_id: org.id, to_address: 'guest@example.com', subject: 'Your keys', body: 'Under the mat.',
    });
    smtp.answers.push('hang'); // the server takes the message and keeps the worker waiting (until its 3 s timeout)
    const arrived = smtp.nextData();
    const scheduler = startAutomationScheduler(ctx.db, {
      ...schedulerOptions(smtp, time), mailer: createSmtpMailer(smtp.url, 3000), leaseSeconds: 0.3, pollIntervalMs: 20,
    });
    const leasedUntil = async () => (await ctx.db.query<{ run_at: string }>(
      `SELECT run_at::text FROM staykit_internal.automation_jobs WHERE message_id = $1`, [message.id])).rows[0]!.run_at;
    try {
      await arrived;
      // The clock runs on, a fifth of a second at a time, to three leases past the claim: each step waits for a
      // renewal, and meanwhile the scheduler itself keeps looking for due jobs.
      for (let step = 1; step <= 5; step++) {
        const before = await leasedUntil();
        time.set(new Date(Date.parse('2027-03-01T10:00:00Z') + step * 200).toISOString());
        for (const until = Date.now() + 2000; await leasedUntil() === before;) {
          assert.ok(Date.now() < until, `step ${step}: the working scheduler renewed its lease`);
          await new Promise((resolve) => setImmediate(resolve));
        }
      }
      assert.deepEqual(await runDue(ctx.db, schedulerOptions(smtp, time)), [], 'a second worker finds nothing to take');
    } finally {
      await scheduler.stop();
    }
    assert.equal(smtp.attempts, 1, 'the message was offered once');
  });
});
