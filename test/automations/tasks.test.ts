/**
 * Tasks that act: a booking creates a task per active product task, due at arrival (15:00) or departure (11:00)
 * in the unit's time zone plus the offset — right across a daylight-saving change —, with the default assignee;
 * the tasks move with the booking, their assignees are e-mailed 24 hours before, and a cancellation removes the
 * open ones (completed ones stay).
 */
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { forEachBackend } from '../support/databases.js';
import { createOrganization } from '../support/app.js';
import { client, startBookingApp } from '../booking/support.js';
import { insert } from '../support/fixtures.js';
import { bookableUnit, clock, parseMime, runDue, schedulerOptions, startSmtpServer, type TestSmtpServer } from './support.js';

forEachBackend('tasks made from product tasks', (ctx) => {
  let app: FastifyInstance;
  let smtp: TestSmtpServer;
  let org: { id: string; key: string };
  let unit: { product: string; adults: string };
  let cleaner: string;
  let host: string;

  before(async () => {
    smtp = await startSmtpServer();
    app = await startBookingApp(ctx.db);
    org = await createOrganization(ctx.db, 'Task Rentals');
    unit = await bookableUnit(ctx.db, org.id);
    host = (await insert<{ id: string }>(ctx.db, 'members', { organization_id: org.id, name: 'Hannah Host', email: 'hannah@example.com' })).id;
    cleaner = (await insert<{ id: string }>(ctx.db, 'members', { organization_id: org.id, name: 'Chloé Cleaner', email: 'chloe@example.com' })).id;
    const template = (await insert<{ id: string }>(ctx.db, 'task_templates', { organization_id: org.id, label: 'Cleaning', schedule: 'departure' })).id;
    await insert(ctx.db, 'task_template_assignees', { organization_id: org.id, task_template_id: template, member_id: cleaner });
    await insert(ctx.db, 'product_tasks', {
      organization_id: org.id, product_id: unit.product, label: 'Welcome pack', schedule: 'arrival', offset_minutes: -60, assignee_id: host,
    });
    await insert(ctx.db, 'product_tasks', {
      organization_id: org.id, product_id: unit.product, task_template_id: template, label: 'Cleaning', schedule: 'departure',
    });
    await insert(ctx.db, 'product_tasks', { organization_id: org.id, product_id: unit.product, label: 'Retired', active: false });
    await insert(ctx.db, 'webhooks', { organization_id: org.id, endpoint: 'https://hooks.example.com/x', events: '{calendar_event_tasks.created}' });
  });
  after(async () => {
    await app.close();
    await smtp.close();
  });

  const iso = (value: string | null) => (value === null ? null : new Date(value).toISOString());
  const api = () => client(app, org.key);
  const patch = (url: string, body: unknown) =>
    app.inject({ method: 'PATCH', url, headers: { authorization: `Bearer ${org.key}` }, payload: body as object });
  const tasks = async (eventId: string) =>
    (await ctx.db.query<{ id: string; label: string; due_at: string; assignee_id: string | null; notification_sent_at: string | null; completed_at: string | null }>(
      'SELECT id, label, due_at, assignee_id, notification_sent_at, completed_at FROM api.calendar_event_tasks WHERE calendar_event_id = $1 ORDER BY label',
      [eventId])).rows;
  const eventOf = async (bookingId: string) =>
    (await ctx.db.query<{ id: string }>('SELECT id FROM api.calendar_events WHERE booking_id = $1', [bookingId])).rows[0]!.id;

  it('creates, moves, notifies and removes the tasks of a booking', async () => {
    // Europe/Amsterdam moves to summer time on Sunday 2027-03-28: arrival is in CET (UTC+1), departure in CEST (UTC+2).
    const booked = await api().post('/v1/book', {
      product_id: unit.product, interval: { start: '2027-03-27', end: '2027-03-29' }, occupancy: { [unit.adults]: 2 },
    });
    assert.equal(booked.statusCode, 201, booked.body);
    const bookingId = (booked.json() as { booking_id: string }).booking_id;
    const event = await eventOf(bookingId);
    assert.deepEqual((await tasks(event)).map((t) => [t.label, iso(t.due_at), t.assignee_id]), [
      ['Cleaning', '2027-03-29T09:00:00.000Z', cleaner],
      ['Welcome pack', '2027-03-27T13:00:00.000Z', host],
    ]);
    const created = await ctx.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM api.webhook_notifications WHERE organization_id = $1 AND event_type = 'calendar_event_tasks.created'`, [org.id]);
    assert.equal(created.rows[0]!.n, 2);

    // Moved a week later (both in summer time now): the tasks follow.
    const moved = await api().post('/v1/booking-change', { booking_id: bookingId, interval: { start: '2027-04-03', end: '2027-04-05' } });
    assert.equal(moved.statusCode, 200, moved.body);
    assert.deepEqual((await tasks(event)).map((t) => [t.label, iso(t.due_at)]), [
      ['Cleaning', '2027-04-05T09:00:00.000Z'],
      ['Welcome pack', '2027-04-03T12:00:00.000Z'],
    ]);

    // 24 hours before the welcome pack is due, its assignee is e-mailed; nothing for the cleaning yet.
    const time = clock('2027-04-02T11:59:59Z');
    assert.deepEqual(await runDue(ctx.db, schedulerOptions(smtp, time)), []);
    time.set('2027-04-02T12:00:00Z');
    assert.deepEqual((await runDue(ctx.db, schedulerOptions(smtp, time))).map((r) => r.outcome), ['queued', 'sent']);
    const mail = parseMime(smtp.received.at(-1)!);
    assert.equal(mail.headers.to, 'hannah@example.com');
    assert.match(mail.headers.subject ?? '', /^Task due .*Welcome pack \(Dune House\)$/);
    const welcome = (await tasks(event)).find((t) => t.label === 'Welcome pack')!;
    assert.equal(iso(welcome.notification_sent_at), '2027-04-02T12:00:00.000Z');

    // The welcome pack is done; then the guest cancels: the open cleaning goes, the completed task stays.
    const done = await patch(`/v1/calendar_event_tasks?id=eq.${welcome.id}`, { completed_at: '2027-04-03T11:00:00Z' });
    assert.equal(done.statusCode, 204, done.body);
    const cancelled = await patch(`/v1/calendar_events?id=eq.${event}`, { status: 'CANCELLED' });
    assert.equal(cancelled.statusCode, 204, cancelled.body);
    assert.deepEqual((await tasks(event)).map((t) => t.label), ['Welcome pack']);
    // And nobody is told about the cleaning that no longer exists.
    time.set('2027-04-04T09:00:00Z');
    assert.deepEqual(await runDue(ctx.db, schedulerOptions(smtp, time)), []);
  });
});
