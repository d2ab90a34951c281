/** The inbox's conversations made from messages (pure: no browser, no database). */
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { excerpt, summarise, threadOf, threadPath, type ListedMessage } from '../../web/dashboard/src/inbox/threads.js';

let next = 0;
const message = (fields: Partial<ListedMessage>): ListedMessage => ({
  id: `m${(next += 1)}`, booking_id: null, direction: 'inbound', from_address: 'guest@example.net', to_address: 'team@stays.example.com',
  subject: 'Hello', body: '', created_at: '2027-01-01T10:00:00Z', ...fields,
});

it('lists unread conversations first, then by their latest message, counting unread messages per conversation', () => {
  const oldUnread = message({ booking_id: 'a', created_at: '2027-01-01T08:00:00Z', body: 'Dog?' });
  const newerUnread = message({ booking_id: 'a', created_at: '2027-01-01T09:00:00Z', body: 'And a cat?' });
  const recentRead = message({ booking_id: 'b', created_at: '2027-01-02T09:00:00Z', body: 'Thanks' });
  const reply = message({ booking_id: 'b', direction: 'outbound', created_at: '2027-01-03T09:00:00Z', to_address: 'b@example.net', body: 'You are welcome' });
  const threads = summarise([reply, recentRead, newerUnread, oldUnread], [newerUnread, oldUnread]);
  assert.deepEqual(threads.map((thread) => [threadPath(thread.key), thread.unread, thread.latest.body]), [
    ['/inbox/booking/a', 2, 'And a cat?'],
    ['/inbox/booking/b', 0, 'You are welcome'],
  ]);
});

it('lists a conversation whose unread mail is older than the page of recent messages', () => {
  const old = message({ booking_id: 'old', created_at: '2026-01-01T08:00:00Z' });
  const threads = summarise([message({ booking_id: 'new' })], [old]);
  assert.deepEqual(threads.map((thread) => threadPath(thread.key)), ['/inbox/booking/old', '/inbox/booking/new']);
});

it('puts mail without a booking in its sender\'s conversation, with the replies sent to that address', () => {
  const inbound = message({ from_address: 'stranger@example.org' });
  const reply = message({ direction: 'outbound', from_address: 'team@stays.example.com', to_address: 'stranger@example.org' });
  assert.deepEqual(threadOf(inbound), { kind: 'sender', address: 'stranger@example.org' });
  assert.deepEqual(threadOf(reply), threadOf(inbound));
  assert.equal(threadPath(threadOf(inbound)), '/inbox/sender/stranger%40example.org');
  assert.equal(summarise([reply, inbound], []).length, 1);
});

it('shortens the text to one line, or shows the subject of a message without text', () => {
  assert.equal(excerpt({ subject: 'S', body: '  Hello\n\nthere  ' }), 'Hello there');
  assert.equal(excerpt({ subject: 'Only a subject', body: '' }), 'Only a subject');
  assert.equal(excerpt({ subject: '', body: 'x'.repeat(200) }, 10), `${'x'.repeat(9)}…`);
});
