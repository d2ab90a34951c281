/**
 * Postmark's inbound JSON (https://postmarkapp.com/developer/webhooks/inbound-webhook) as an inbound mail: the
 * recipients (OriginalRecipient, To, Cc, Bcc), the sender, the text (the HTML made text when there is no text), the
 * threading headers and the attachments. Other providers (Mailgun, SendGrid) post other shapes; a relay in front
 * of the SMTP listener serves them all (docs/automations.md#inbox).
 */
import { convert } from 'html-to-text';
import type { PostmarkInboundEmail } from './bodies.js';
import { answeredIds, messageIdsIn, type InboundMail } from './inbound-mail.js';

/** Deepest HTML nesting made text (as mailparser limits it for the SMTP listener). */
const MAX_HTML_DEPTH = 100;

function header(email: PostmarkInboundEmail, name: string): string | undefined {
  return email.Headers?.find((entry) => entry.Name.toLowerCase() === name.toLowerCase())?.Value;
}

/** `Name <address>` or a bare address, as Postmark's `From` gives it when FromFull is absent. */
function sender(email: PostmarkInboundEmail): InboundMail['from'] {
  if (email.FromFull) return { address: email.FromFull.Email, name: email.FromFull.Name ?? '' };
  const match = /^\s*"?([^"<]*?)"?\s*<([^<>\s]+)>\s*$/.exec(email.From ?? '');
  if (match) return { address: match[2]!, name: match[1]! };
  return email.From ? { address: email.From.trim(), name: '' } : undefined;
}

export function postmarkMail(email: PostmarkInboundEmail): InboundMail {
  const recipients = [email.OriginalRecipient, ...[email.ToFull, email.CcFull, email.BccFull].flatMap((list) => (list ?? []).map((entry) => entry.Email))]
    .filter((address): address is string => typeof address === 'string' && address !== '');
  const text = email.TextBody || (email.HtmlBody ? convert(email.HtmlBody, { limits: { maxDepth: MAX_HTML_DEPTH } }) : '');
  return {
    transport: 'webhook',
    recipients: [...new Set(recipients)],
    from: sender(email),
    subject: email.Subject ?? '',
    text,
    messageId: messageIdsIn(header(email, 'Message-ID'))[0],
    answers: answeredIds(header(email, 'In-Reply-To'), header(email, 'References')),
    attachments: (email.Attachments ?? []).map((file) => {
      const content = Buffer.from(file.Content ?? '', 'base64');
      return { filename: file.Name, contentType: file.ContentType, size: file.ContentLength ?? content.length, inline: Boolean(file.ContentID), content };
    }),
  };
}
