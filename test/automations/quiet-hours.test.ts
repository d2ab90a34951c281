/**
 * Scheduled messages behave like a careful human (issue: guest communication, item 4): an e-mail due some days after
 * a booking was made or confirmed, without a time of its own, is not sent in the night of the unit's time zone; it
 * goes out at 09:00 that morning. Right after the booking (offset 0), and at a time the template names, as before.
 */
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { forEachBackend } from '../support/databases.js';

forEachBackend('quiet hours of scheduled e-mails', (ctx) => {
  const dueAt = async (moment: object, sendTime: string | null, bookedAt: string): Promise<string> => {
    const { rows } = await ctx.db.query<{ at: Date }>(
      `SELECT staykit_internal.automation_moment_at($1::jsonb, $2::time, NULL, NULL, NULL, $3::timestamptz, 'Europe/Amsterdam') AS at`,
      [JSON.stringify(moment), sendTime, bookedAt]);
    return new Date(rows[0]!.at).toISOString();
  };

  it('three days after a booking made at 02:30 in Amsterdam is 09:00 that morning, not 02:30', async () => {
    assert.equal(await dueAt({ type: 'request', offset: 3 }, null, '2027-03-01T01:30:00Z'), '2027-03-04T08:00:00.000Z');
  });

  it('one made at 22:30 is sent at 09:00 the next morning', async () => {
    assert.equal(await dueAt({ type: 'request', offset: 3 }, null, '2027-03-01T21:30:00Z'), '2027-03-05T08:00:00.000Z');
  });

  it('in the daytime, in summer time, and with offset 0 or a time of its own, the moment is as it was', async () => {
    assert.equal(await dueAt({ type: 'request', offset: 3 }, null, '2027-03-01T12:00:00Z'), '2027-03-04T12:00:00.000Z');
    assert.equal(await dueAt({ type: 'request', offset: 2 }, null, '2027-07-01T03:00:00Z'), '2027-07-03T07:00:00.000Z');
    assert.equal(await dueAt({ type: 'request', offset: 0 }, null, '2027-03-01T01:30:00Z'), '2027-03-01T01:30:00.000Z');
    assert.equal(await dueAt({ type: 'request', offset: 3 }, '07:00', '2027-03-01T01:30:00Z'), '2027-03-04T06:00:00.000Z');
  });
});
