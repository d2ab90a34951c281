/**
 * The Message-ID of an outbound e-mail (docs/automations.md#delivery): `<message id@domain>`, the domain of
 * STAYKIT_EMAIL_FROM's address (a Message-ID names the host that made it, RFC 5322 §3.6.4). The same on every attempt,
 * so a receiver deduplicates a message sent twice, and stored as messages.rfc_message_id when it is sent: a guest's
 * reply names it in In-Reply-To, which threads the reply (src/inbox/thread.ts).
 */
import addressparser from 'nodemailer/lib/addressparser';

export function outboundMessageId(messageId: string, emailFrom: string): string {
  const address = addressparser(emailFrom, { flatten: true })[0]?.address ?? '';
  const domain = address.slice(address.lastIndexOf('@') + 1).replace(/[^\w.-]/g, '');
  return `<${messageId}@${address.includes('@') && domain ? domain : 'staykit'}>`;
}
