/**
 * Change feed cursors (docs/webhooks.md#change-feed): opaque to clients, a position in the feed's (xid, seq) order
 * encoded as base64url of `<xid>.<seq>`. The start of the feed is (0, 0).
 */
export interface FeedPosition {
  /** The writing transaction's xid8, as decimal text (it may exceed 2^53). */
  xid: string;
  seq: string;
}

export const FEED_START: FeedPosition = { xid: '0', seq: '0' };

const POSITION = /^(\d{1,20})\.(\d{1,19})$/;

export function encodeCursor(position: FeedPosition): string {
  return Buffer.from(`${position.xid}.${position.seq}`, 'utf8').toString('base64url');
}

/** The position of a cursor, or undefined when it is not one this server handed out. */
export function decodeCursor(cursor: string): FeedPosition | undefined {
  if (!/^[A-Za-z0-9_-]{1,60}$/.test(cursor)) return undefined;
  const match = POSITION.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  if (!match) return undefined;
  return { xid: match[1]!, seq: match[2]! };
}
