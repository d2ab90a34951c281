/**
 * A worker killed in the middle of sending loses nothing and sends nothing twice (PostgreSQL: `staykit worker` is
 * its own process). The booking commits with its e-mail job; a `staykit worker` process claims it and is killed
 * (SIGKILL) while the SMTP server holds the message without answering; once the lease has expired, another worker
 * sends it — and the server has accepted it exactly once.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import type { FastifyInstance } from 'fastify';
import { BACKENDS, createTestDatabase, type TestDatabase } from '../support/databases.js';
import { createOrganization } from '../support/app.js';
import { client, startBookingApp } from '../booking/support.js';
import { insert } from '../support/fixtures.js';
import { bookableUnit, clock, parseMime, runDue, schedulerOptions, startSmtpServer, type TestSmtpServer } from './support.js';

describe('a worker killed mid-send', { skip: BACKENDS.includes('postgres') ? false : 'PostgreSQL is not available' }, () => {
  let testDb: TestDatabase;
  let app: FastifyInstance;
  let smtp: TestSmtpServer;
  let child: ChildProcess | undefined;

  before(async () => {
    testDb = await createTestDatabase('postgres');
    smtp = await startSmtpServer();
    app = await startBookingApp(testDb.db);
  });
  after(async () => {
    if (child && child.exitCode === null) child.kill('SIGKILL');
    await app?.close();
    await smtp?.close();
    await testDb?.drop();
  });

  it('leaves the message to the next worker, which sends it once', async () => {
    const org = await createOrganization(testDb.db, 'Crash Rentals');
    const unit = await bookableUnit(testDb.db, org.id);
    await insert(testDb.db, 'email_templates', {
      organization_id: org.id, trigger: 'created', status: 'CONFIRMED',
      subject: { default: 'Welcome, {{ guest.first_name }}' }, body: { default: 'See you on {{ stay.start }}.' },
    });
    const booked = await client(app, org.key).post('/v1/book', {
      product_id: unit.product, interval: { start: '2027-07-01', end: '2027-07-04' }, occupancy: { [unit.adults]: 2 },
      contact: { first_name: 'Grace', email: 'grace@example.com' },
    });
    assert.equal(booked.statusCode, 201, booked.body);
    const bookingId = (booked.json() as { booking_id: string }).booking_id;

    // The worker process renders the message and starts sending; the server takes the data and does not answer.
    smtp.answers.push('hang');
    const dataArrived = smtp.nextData();
    child = spawn(process.execPath, ['bin/staykit.js', 'worker'], {
      env: { ...process.env, DATABASE_URL: testDb.url, SMTP_URL: smtp.url, LOG_LEVEL: 'warn', STAYKIT_WORKER_POLL_INTERVAL: '1' },
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    await dataArrived;
    child.kill('SIGKILL');
    await once(child, 'exit');

    const messages = async () => (await testDb.db.query<{ id: string; status: string }>(
      'SELECT id, status FROM api.messages WHERE booking_id = $1', [bookingId])).rows;
    assert.deepEqual((await messages()).map((m) => m.status), ['queued'], 'rendered once, not sent');
    assert.equal(smtp.received.length, 0);

    // Within the lease (a minute, no longer renewed by the dead worker) nobody takes it; after it, the next worker
    // sends it, once.
    const time = clock(new Date(Date.now() + 30_000).toISOString());
    assert.deepEqual(await runDue(testDb.db, schedulerOptions(smtp, time)), []);
    time.set(new Date(Date.now() + 61_000).toISOString());
    assert.deepEqual((await runDue(testDb.db, schedulerOptions(smtp, time))).map((r) => r.outcome), ['sent']);
    assert.deepEqual(await runDue(testDb.db, schedulerOptions(smtp, time)), []);

    assert.equal(smtp.received.length, 1);
    assert.equal(parseMime(smtp.received[0]!).headers.subject, 'Welcome, Grace');
    const [message] = await messages();
    assert.equal(message!.status, 'sent');
    const events = (await testDb.db.query<{ type: string }>(
      'SELECT type FROM api.message_events WHERE message_id = $1 ORDER BY created_at', [message!.id])).rows;
    assert.deepEqual(events.map((e) => e.type), ['queued', 'sent']);
  });
});
