/**
 * The reply address of a booking (docs/automations.md#inbox): `reply+<token>@<STAYKIT_INBOUND_DOMAIN>`, where the
 * token is the booking's id and an HMAC of it under a key derived from STAYKIT_SECRET_KEY. A guest's reply to any
 * e-mail about the booking comes back to that address, and the token alone says which booking it belongs to —
 * without a table of issued addresses, and without anyone being able to make up an address that Staykit accepts
 * (the SMTP listener refuses every other recipient at RCPT TO).
 *
 * The token is lower-case base32 (RFC 4648, no padding): mail systems may change the case of a local part, and 42
 * characters keep the whole local part (48) under the 64 that RFC 5321 allows.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

const PREFIX = 'reply+';
const ALPHABET = 'abcdefghijklmnopqrstuvwxyz234567';
/** Bytes of the HMAC kept in a token: 80 bits, beyond guessing by anyone who can send mail. */
const MAC_BYTES = 10;
const ID_BYTES = 16;
/** What the key is derived for, so STAYKIT_SECRET_KEY's other uses never share its key. */
const KEY_PURPOSE = 'staykit inbound reply address v1';

export interface ReplyAddresses {
  /** STAYKIT_INBOUND_DOMAIN: the domain whose mail reaches Staykit. */
  readonly domain: string;
  /** The reply address of a booking. */
  forBooking(bookingId: string): string;
  /** The booking an address is the reply address of; undefined for any other address. */
  bookingOf(address: string): string | undefined;
}

function base32(bytes: Buffer): string {
  let bits = 0;
  let value = 0;
  let out = '';
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += ALPHABET[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += ALPHABET[(value << (5 - bits)) & 31];
  return out;
}

function fromBase32(text: string): Buffer | undefined {
  let bits = 0;
  let value = 0;
  const bytes: number[] = [];
  for (const char of text) {
    const digit = ALPHABET.indexOf(char);
    if (digit < 0) return undefined;
    value = ((value << 5) | digit) & 0xffff;
    bits += 5;
    if (bits >= 8) {
      bytes.push((value >>> (bits - 8)) & 255);
      bits -= 8;
    }
  }
  return Buffer.from(bytes);
}

const uuidBytes = (id: string): Buffer => Buffer.from(id.replace(/-/g, ''), 'hex');
const uuidOf = (bytes: Buffer): string => {
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
};

export function replyAddresses(secretKey: string, domain: string): ReplyAddresses {
  const key = createHmac('sha256', secretKey).update(KEY_PURPOSE).digest();
  const mac = (id: Buffer) => createHmac('sha256', key).update(id).digest().subarray(0, MAC_BYTES);
  const lowerDomain = domain.toLowerCase();
  return {
    domain: lowerDomain,
    forBooking(bookingId) {
      const id = uuidBytes(bookingId);
      return `${PREFIX}${base32(Buffer.concat([id, mac(id)]))}@${lowerDomain}`;
    },
    bookingOf(address) {
      const lower = address.trim().toLowerCase();
      const at = lower.lastIndexOf('@');
      if (at < 0 || lower.slice(at + 1) !== lowerDomain || !lower.startsWith(PREFIX)) return undefined;
      const token = fromBase32(lower.slice(PREFIX.length, at));
      if (!token || token.length !== ID_BYTES + MAC_BYTES) return undefined;
      const id = token.subarray(0, ID_BYTES);
      return timingSafeEqual(token.subarray(ID_BYTES), mac(id)) ? uuidOf(id) : undefined;
    },
  };
}

/** The server's reply addresses, when it receives mail (STAYKIT_INBOUND_DOMAIN; the config requires the secret with it). */
export function replyAddressesFor(config: { secretKey: string | undefined; inboundDomain: string | undefined }): ReplyAddresses | undefined {
  return config.inboundDomain !== undefined && config.secretKey !== undefined
    ? replyAddresses(config.secretKey, config.inboundDomain)
    : undefined;
}
