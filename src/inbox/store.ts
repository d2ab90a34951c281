/**
 * Stores an inbound e-mail (docs/automations.md#inbox), however it came: in one transaction, the `messages` row
 * (inbound, `received`, unread, on its booking and guest, with its Message-ID), its `received` event, and — by the
 * trigger of migration 0242 — the `messages.received` webhook notifications. A mail delivered twice (the same
 * Message-ID) is stored once: the second is a `duplicate`, which the sender is told was received.
 *
 * The sender check: the From is compared with the e-mail addresses of the booking's guests. A reply from one of
 * them is theirs (contact_id); one from any other address — the guest writing from another mailbox, a forwarded
 * mail, a stranger who got hold of the reply address — is still stored, on the booking's first guest, and its
 * `received` event says `"from_guest": false`, so the inbox can say so.
 *
 * Its files are kept in the same transaction (attachment-files.ts: the object written before its row), and the
 * `received` event lists every file, kept (`stored: true`, its `attachment_id`) or not (`stored: false`, `reason`).
 */
import type { Database } from '../db/types.js';
import { keepAttachments, type AttachmentStorage } from './attachment-files.js';
import { storable, type InboundMail } from './inbound-mail.js';
import type { ReplyAddresses } from './reply-address.js';
import { findThread } from './thread.js';

export type StoreOutcome =
  | { kind: 'stored'; messageId: string; organizationId: string; bookingId: string; fromGuest: boolean }
  | { kind: 'duplicate'; organizationId: string; bookingId: string }
  /** No recipient is a reply address and it answers no message Staykit knows: not for Staykit. */
  | { kind: 'unthreaded' };

/** The booking's guest who sent it (by address), else its first guest. */
const GUEST = `
  SELECT c.id, c.email IS NOT NULL AND lower(c.email) = lower($3) AS is_sender
  FROM api.contact_bookings AS cb
  JOIN api.contacts AS c ON c.id = cb.contact_id AND c.organization_id = cb.organization_id
  WHERE cb.booking_id = $1 AND cb.organization_id = $2
  ORDER BY c.email IS NOT NULL AND lower(c.email) = lower($3) DESC, cb.created_at, cb.id
  LIMIT 1`;

const INSERT = `
  INSERT INTO api.messages (organization_id, booking_id, contact_id, in_reply_to_id, channel, direction, status,
                            from_address, to_address, subject, body, rfc_message_id)
  VALUES ($1, $2, $3, $4, 'email', 'inbound', 'received', $5, $6, $7, $8, $9)
  ON CONFLICT (organization_id, rfc_message_id) WHERE direction = 'inbound' AND rfc_message_id IS NOT NULL DO NOTHING
  RETURNING id`;

const RECEIVED = `
  INSERT INTO api.message_events (organization_id, message_id, type, payload) VALUES ($1, $2, 'received', $3)`;

function fromAddress(from: InboundMail['from']): string | null {
  if (!from) return null;
  const name = from.name.replace(/["\\\r\n<>]/g, '').trim();
  return storable(name ? `${name} <${from.address}>` : from.address);
}

export async function storeInboundMail(
  db: Database, addresses: ReplyAddresses, storage: AttachmentStorage, mail: InboundMail,
): Promise<StoreOutcome> {
  return db.transaction(async (tx) => {
    const thread = await findThread(tx, addresses, mail);
    if (!thread) return { kind: 'unthreaded' };
    const sender = mail.from?.address ?? '';
    const guest = (await tx.query<{ id: string; is_sender: boolean }>(GUEST, [thread.bookingId, thread.organizationId, sender])).rows[0];
    const inserted = await tx.query<{ id: string }>(INSERT, [
      thread.organizationId, thread.bookingId, guest?.id ?? null, thread.answeredId ?? null, fromAddress(mail.from),
      storable(thread.address), storable(mail.subject), storable(mail.text), mail.messageId ?? null,
    ]);
    const messageId = inserted.rows[0]?.id;
    if (messageId === undefined) return { kind: 'duplicate', organizationId: thread.organizationId, bookingId: thread.bookingId };
    const fromGuest = guest?.is_sender ?? false;
    const attachments = await keepAttachments(tx, storage, { organizationId: thread.organizationId, messageId }, mail.attachments);
    await tx.query(RECEIVED, [thread.organizationId, messageId, JSON.stringify({ transport: mail.transport, from_guest: fromGuest, attachments })]);
    return { kind: 'stored', messageId, organizationId: thread.organizationId, bookingId: thread.bookingId, fromGuest };
  });
}
