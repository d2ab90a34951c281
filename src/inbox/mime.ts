/**
 * A raw e-mail (RFC 5322 / MIME, as the SMTP listener receives it) read with mailparser: sender, subject, the text
 * (mailparser makes it from the HTML part when there is no text part), the threading headers and the attachments.
 */
import { simpleParser, type AddressObject } from 'mailparser';
import { answeredIds, messageIdsIn, type InboundMail } from './inbound-mail.js';

function firstAddress(field: AddressObject | AddressObject[] | undefined): { address: string; name: string } | undefined {
  const objects = Array.isArray(field) ? field : field ? [field] : [];
  const first = objects.flatMap((object) => object.value).find((entry) => entry.address);
  return first ? { address: first.address!, name: first.name ?? '' } : undefined;
}

export async function parseMime(raw: Buffer, recipients: string[]): Promise<InboundMail> {
  const parsed = await simpleParser(raw, { skipImageLinks: true, skipTextToHtml: true });
  return {
    transport: 'smtp',
    recipients,
    from: firstAddress(parsed.from),
    subject: parsed.subject ?? '',
    text: parsed.text ?? '',
    messageId: messageIdsIn(parsed.messageId)[0],
    answers: answeredIds(parsed.inReplyTo, parsed.references),
    attachments: parsed.attachments.map((file) => ({
      filename: file.filename ?? 'attachment',
      contentType: file.contentType,
      size: file.size,
      inline: file.contentDisposition === 'inline' || file.related === true,
      content: file.content,
    })),
  };
}
