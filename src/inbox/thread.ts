/**
 * Which booking an inbound e-mail belongs to (docs/automations.md#inbox), and which message it answers:
 * 1. a recipient that is a booking's reply address (reply-address.ts) names the booking — the signature makes it
 *    Staykit's own, so nothing else is needed;
 * 2. failing that, its In-Reply-To / References: a Message-ID of a message Staykit sent or received, on a booking
 *    (including `<message id@staykit>`, the Message-ID of e-mails sent before migration 0242, which were not stored).
 * Mail that neither names is no reply to Staykit, and is refused.
 * Read as the database owner: the mail has no key, and the booking it names is its organization.
 */
import type { Queryable } from '../db/types.js';
import { UUID } from '../common/patterns.js';
import type { InboundMail } from './inbound-mail.js';
import type { ReplyAddresses } from './reply-address.js';

export interface Thread {
  organizationId: string;
  bookingId: string;
  /** The address it was delivered to: the reply address that named the booking, else its first recipient. */
  address: string;
  /** The message the mail answers, when it names one of this booking's. */
  answeredId: string | undefined;
}

const BOOKING = `SELECT organization_id FROM api.bookings WHERE id = $1`;

/** The first of `ids` that is a stored message's Message-ID (of the booking, when one is given), in their order. */
const ANSWERED = `
  SELECT m.id, m.organization_id, m.booking_id, m.direction, m.from_address, m.to_address
  FROM unnest($1::text[]) WITH ORDINALITY AS wanted (rfc_message_id, position)
  JOIN LATERAL (
    SELECT x.id, x.organization_id, x.booking_id, x.direction, x.from_address, x.to_address FROM api.messages AS x
    WHERE x.rfc_message_id = wanted.rfc_message_id
    UNION ALL
    SELECT x.id, x.organization_id, x.booking_id, x.direction, x.from_address, x.to_address FROM api.messages AS x
    WHERE x.id = (substring(wanted.rfc_message_id FROM '^<([0-9a-f-]{36})@staykit>$'))::uuid AND x.rfc_message_id IS NULL
  ) AS m ON true
  WHERE m.booking_id IS NOT NULL AND ($2::uuid IS NULL OR m.booking_id = $2 AND m.organization_id = $3)
  ORDER BY wanted.position
  LIMIT 1`;

interface AnsweredRow {
  id: string;
  organization_id: string;
  booking_id: string;
  direction: 'inbound' | 'outbound';
  from_address: string | null;
  to_address: string;
}

/** Message-IDs worth looking up: a legacy one must hold a uuid, or the cast would fail. */
function lookupIds(ids: readonly string[]): string[] {
  return ids.filter((id) => !/@staykit>$/.test(id) || UUID.test(id.slice(1, -'@staykit>'.length)));
}

export async function findThread(db: Queryable, addresses: ReplyAddresses, mail: InboundMail): Promise<Thread | undefined> {
  const ids = lookupIds(mail.answers);
  for (const recipient of mail.recipients) {
    const bookingId = addresses.bookingOf(recipient);
    if (bookingId === undefined) continue;
    const booking = (await db.query<{ organization_id: string }>(BOOKING, [bookingId])).rows[0];
    if (!booking) continue;
    const answered = ids.length === 0 ? undefined
      : (await db.query<AnsweredRow>(ANSWERED, [ids, bookingId, booking.organization_id])).rows[0];
    return { organizationId: booking.organization_id, bookingId, address: recipient.toLowerCase(), answeredId: answered?.id };
  }
  if (ids.length === 0) return undefined;
  const answered = (await db.query<AnsweredRow>(ANSWERED, [ids, null, null])).rows[0];
  if (!answered) return undefined;
  // Without a recipient (a provider that gives none), the address the answered e-mail came from or went to.
  const address = mail.recipients[0] ?? (answered.direction === 'outbound' ? answered.from_address : answered.to_address) ?? 'unknown';
  return { organizationId: answered.organization_id, bookingId: answered.booking_id, address, answeredId: answered.id };
}
