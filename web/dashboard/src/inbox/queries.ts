/**
 * The inbox's requests. The list never reads every message of the organization: it reads the newest messages a page
 * at a time (MESSAGES_PER_PAGE, `order=created_at.desc` with a range) and the unread inbound ones (up to
 * UNREAD_LIMIT), and makes threads of them (./threads.ts); "Show older conversations" reads one more page. The
 * stays and guests of the listed bookings are read for those bookings only, and only when the member may read them.
 */
import { database, rowsOf, type Selected } from '../api/database';
import type { Can } from '../api/permissions';
import { localized } from '../common/format';
import { summarise, threadOf, threadPath, type ThreadKey, type ThreadSummary } from './threads';

export const MESSAGES_PER_PAGE = 100;
/** More unread threads than this are listed as their newer messages come in (read ones make room). */
export const UNREAD_LIMIT = 500;

const LISTED = 'id,booking_id,contact_id,direction,status,from_address,to_address,subject,body,created_at,read_at';

/** The stay and guest names shown with a booking's thread, each when the member may read it. */
export interface BookingContext {
  reference?: string;
  unit?: string;
  startDate?: string;
  endDate?: string;
  guest?: string;
}

export interface InboxPage {
  threads: ThreadSummary[];
  bookings: Map<string, BookingContext>;
  /** A full page came back: older messages (and so older threads) may exist. */
  more: boolean;
}

/** The threads of the newest `pages` pages of messages, plus every thread with unread mail. */
export async function loadInbox(pages: number, can: Can, locale: string): Promise<InboxPage> {
  const [recent, unread] = await Promise.all([
    database.from('messages').select(LISTED).or(WITH_GUESTS).order('created_at', { ascending: false }).order('id', { ascending: false })
      .range(0, pages * MESSAGES_PER_PAGE - 1).then(rowsOf),
    unreadInbound().limit(UNREAD_LIMIT).then(rowsOf),
  ]);
  const threads = summarise(recent, unread);
  const bookingIds = threads.flatMap((thread) => (thread.key.kind === 'booking' ? [thread.key.bookingId] : []));
  return { threads, bookings: await bookingContexts(bookingIds, can, locale), more: recent.length === pages * MESSAGES_PER_PAGE };
}

/**
 * The conversation with guests: what they sent, and what was sent to them (an e-mail to a booking's guest names the
 * contact). The notifications members get about a booking (no contact) are not part of it.
 */
const WITH_GUESTS = 'direction.eq.inbound,contact_id.not.is.null,booking_id.is.null';

const unreadInbound = () => database.from('messages').select(LISTED)
  .eq('direction', 'inbound').is('read_at', null).order('created_at', { ascending: false });

/** The number of unread inbound messages (the navigation's badge). */
export async function unreadCount(): Promise<number> {
  const result = await database.from('messages').select('id', { count: 'exact' })
    .eq('direction', 'inbound').is('read_at', null).limit(1);
  rowsOf(result);
  return result.count ?? 0;
}

async function bookingContexts(ids: string[], can: Can, locale: string): Promise<Map<string, BookingContext>> {
  const contexts = new Map<string, BookingContext>(ids.map((id) => [id, {}]));
  if (ids.length === 0) return contexts;
  const [bookings, events, guests] = await Promise.all([
    can('bookings') ? database.from('bookings').select('id,reference').in('id', ids).then(rowsOf) : [],
    can('calendar_events') ? database.from('calendar_events').select('booking_id,start_date,end_date,products(name)')
      .in('booking_id', ids).eq('type', 'booking').then(rowsOf) : [],
    // Names only with `contacts` read: without it the list shows the booking's reference and the unit.
    can('contacts') && can('contact_bookings') ? database.from('contact_bookings').select('booking_id,contacts(first_name,last_name)')
      .in('booking_id', ids).then(rowsOf) : [],
  ]);
  for (const booking of bookings) contexts.get(booking.id)!.reference = booking.reference;
  for (const event of events) {
    if (!event.booking_id) continue;
    Object.assign(contexts.get(event.booking_id)!, { unit: localized(event.products?.name, locale), startDate: event.start_date, endDate: event.end_date });
  }
  for (const guest of guests) {
    const context = contexts.get(guest.booking_id)!;
    if (!context.guest && guest.contacts) context.guest = `${guest.contacts.first_name ?? ''} ${guest.contacts.last_name ?? ''}`.trim();
  }
  return contexts;
}

/** The newest messages of a thread kept on its page: a long conversation shows its latest part. */
export const CONVERSATION_LIMIT = 200;

const CONVERSATION = 'id,booking_id,contact_id,direction,status,from_address,to_address,subject,body,created_at,sent_at,read_at,in_reply_to_id';
export type ConversationMessage = Selected<'messages', typeof CONVERSATION>;

/** Filters a messages request down to one thread's messages. */
function inThread<Query extends { eq: (column: 'booking_id', value: string) => Query; is: (column: 'booking_id', value: null) => Query; or: (filters: string) => Query }>(query: Query, key: ThreadKey): Query {
  if (key.kind === 'booking') return query.eq('booking_id', key.bookingId).or(WITH_GUESTS);
  const address = `"${key.address.replace(/["\\]/g, '')}"`;
  return query.is('booking_id', null).or(`from_address.eq.${address},to_address.eq.${address}`);
}

/** A thread's messages, oldest first. */
export async function loadConversation(key: ThreadKey): Promise<ConversationMessage[]> {
  const newest = rowsOf(await inThread(database.from('messages').select(CONVERSATION), key)
    .order('created_at', { ascending: false }).order('id', { ascending: false }).limit(CONVERSATION_LIMIT));
  // A sender's thread is asked for by either address; keep the messages that are theirs (not ones they sent to another guest's address).
  return newest.filter((message) => threadPath(threadOf(message)) === threadPath(key)).reverse();
}

const ATTACHMENT = 'id,message_id,filename,bytes,inline';
export type MessageAttachment = Selected<'message_attachments', typeof ATTACHMENT>;

/**
 * The kept files of the conversation's messages, by message (docs/automations.md#inbox); each is downloaded from
 * `attachmentUrl` with the session's cookie. Listing them needs `message_attachments` read.
 */
export async function loadAttachments(messageIds: string[]): Promise<Map<string, MessageAttachment[]>> {
  const byMessage = new Map<string, MessageAttachment[]>();
  if (messageIds.length === 0) return byMessage;
  const rows = rowsOf(await database.from('message_attachments').select(ATTACHMENT).in('message_id', messageIds)
    .order('created_at').order('id'));
  for (const row of rows) byMessage.set(row.message_id, [...(byMessage.get(row.message_id) ?? []), row]);
  return byMessage;
}

/** Where a kept file is downloaded (GET with the session cookie; the server answers it as a download). */
export const attachmentUrl = (attachment: Pick<MessageAttachment, 'id'>): string => `/v1/message-attachments/${attachment.id}`;

/** Marks the thread's unread inbound messages read (needs `messages` write). */
export async function markRead(key: ThreadKey, at: Date): Promise<void> {
  rowsOf(await inThread(database.from('messages').update({ read_at: at.toISOString() }), key)
    .eq('direction', 'inbound').is('read_at', null));
}

/** Makes the thread unread again: its newest inbound message is no longer read. */
export async function markUnread(message: ConversationMessage): Promise<void> {
  rowsOf(await database.from('messages').update({ read_at: null }).eq('id', message.id));
}

/**
 * Queues the answer to `answered` (the guest's newest message): to its sender, in its booking and thread — the mail
 * goes out with `In-Reply-To` and the subject `Re: …` of the guest's (the server fills a blank subject).
 */
export async function sendReply(answered: ConversationMessage & { from_address: string }, body: string): Promise<void> {
  rowsOf(await database.from('messages').insert({
    booking_id: answered.booking_id,
    contact_id: answered.contact_id,
    to_address: answered.from_address,
    subject: '',
    body,
    in_reply_to_id: answered.id,
  }));
}
