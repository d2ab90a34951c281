/**
 * An e-mail that came in, as the inbox stores it, whichever way it came (the SMTP listener, a provider's webhook):
 * read from MIME by mime.ts, from a provider's JSON by postmark.ts, stored by store.ts.
 */
export interface InboundMail {
  transport: 'smtp' | 'webhook';
  /** The addresses it was delivered to: the SMTP envelope's recipients, or the provider's recipients. */
  recipients: string[];
  from: { address: string; name: string } | undefined;
  subject: string;
  /** The text part, or the HTML part made text when it has none. */
  text: string;
  /** Its Message-ID, `<…>`, when it has a well-formed one. */
  messageId: string | undefined;
  /** The Message-IDs it answers: In-Reply-To first, then References from the newest. */
  answers: string[];
  attachments: InboundAttachment[];
}

export interface InboundAttachment {
  filename: string;
  contentType: string;
  size: number;
  /** Shown within the text (an inline image: Content-Disposition inline, or referred to by Content-ID). */
  inline: boolean;
  content: Buffer;
}

/** Longest Message-ID kept (a header line's limit, RFC 5322 §2.1.1). */
const MAX_MESSAGE_ID = 998;

/** The `<…>` Message-IDs in a header's text, in their order. */
export function messageIdsIn(text: string | readonly string[] | undefined): string[] {
  const joined = typeof text === 'string' ? text : (text ?? []).join(' ');
  return [...joined.matchAll(/<[^<>\s]+>/g)].map((match) => match[0]).filter((id) => id.length <= MAX_MESSAGE_ID);
}

/** In-Reply-To, then References newest first, without repeats: the order in which a thread is looked for. */
export function answeredIds(inReplyTo: string | undefined, references: string | readonly string[] | undefined): string[] {
  return [...new Set([...messageIdsIn(inReplyTo), ...messageIdsIn(references).reverse()])];
}

/** Text without the NUL characters PostgreSQL's text cannot hold. */
export function storable(text: string): string {
  return text.replace(/\u0000/g, '');
}
