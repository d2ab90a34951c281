/**
 * Which conversation a message belongs to, and the inbox's list of conversations made from messages. A thread is a
 * booking's conversation — every message of the booking, inbound and outbound — or, for mail that matched no
 * booking, the messages from and to one sender address. Pure functions: the requests are in ./queries.ts.
 */

/** A thread's identity, also its path under /inbox (`/inbox/booking/<id>`, `/inbox/sender/<address>`). */
export type ThreadKey = { kind: 'booking'; bookingId: string } | { kind: 'sender'; address: string };

export const threadPath = (key: ThreadKey): string =>
  key.kind === 'booking' ? `/inbox/booking/${key.bookingId}` : `/inbox/sender/${encodeURIComponent(key.address)}`;

/** The fields of a message that place it in a thread and summarise it in the list. */
export interface ListedMessage {
  id: string;
  booking_id: string | null;
  direction: 'inbound' | 'outbound';
  from_address: string | null;
  to_address: string;
  subject: string;
  body: string;
  created_at: string;
}

/** The thread of a message: its booking's, or (no booking) its guest's address — the sender of inbound mail, the recipient of a reply. */
export function threadOf(message: ListedMessage): ThreadKey {
  if (message.booking_id) return { kind: 'booking', bookingId: message.booking_id };
  const address = message.direction === 'inbound' ? message.from_address ?? message.to_address : message.to_address;
  return { kind: 'sender', address };
}

const idOf = (key: ThreadKey) => threadPath(key);

export interface ThreadSummary {
  key: ThreadKey;
  /** The newest message known of the thread: its excerpt and time. */
  latest: ListedMessage;
  /** Inbound messages not read yet. */
  unread: number;
}

/**
 * The threads of `recent` (the newest messages of the organization, newest first) and `unread` (unread inbound
 * messages, newest first), unread threads first, then by their latest message. A thread with unread mail older
 * than the recent page is listed all the same, with its newest unread message as its latest.
 */
export function summarise(recent: readonly ListedMessage[], unread: readonly ListedMessage[]): ThreadSummary[] {
  const threads = new Map<string, ThreadSummary>();
  for (const message of [...recent, ...unread]) {
    const key = threadOf(message);
    const known = threads.get(idOf(key));
    if (!known) threads.set(idOf(key), { key, latest: message, unread: 0 });
    else if (message.created_at > known.latest.created_at) known.latest = message;
  }
  for (const message of unread) threads.get(idOf(threadOf(message)))!.unread += 1;
  return [...threads.values()].sort((a, b) =>
    Number(b.unread > 0) - Number(a.unread > 0) || b.latest.created_at.localeCompare(a.latest.created_at));
}

/** The first line of a message's text, shortened for the list. */
export function excerpt(message: Pick<ListedMessage, 'subject' | 'body'>, length = 120): string {
  const text = (message.body.trim() || message.subject).replace(/\s+/g, ' ');
  return text.length > length ? `${text.slice(0, length - 1)}…` : text;
}
