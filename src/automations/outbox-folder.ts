/**
 * Delivery without SMTP (the embedded default): each message is written as an `.eml` file under
 * `DATA_DIR/outbox/` — open it with any mail program — and counts as sent. The file appears complete or not at
 * all (written aside, then renamed).
 */
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Transporter } from 'nodemailer';
import { loadNodemailer } from './nodemailer.js';
import type { Mailer, OutgoingMail, SendOutcome } from './mailer.js';

export function createOutboxFolderMailer(folder: string): Mailer {
  // Made with the first message: a server whose automations never send one never loads nodemailer.
  let transport: Transporter | undefined;
  return {
    destination: folder,
    async send(mail: OutgoingMail): Promise<SendOutcome> {
      transport ??= (await loadNodemailer()).createTransport({ streamTransport: true, buffer: true, newline: 'windows' });
      const info = await transport.sendMail({
        messageId: mail.messageId,
        from: mail.from,
        replyTo: mail.replyTo,
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
        html: mail.html,
        attachments: mail.attachments.map((file) => ({
          filename: file.filename, contentType: file.contentType, content: file.content, encoding: 'base64',
        })),
      });
      const name = `${mail.messageId.replace(/[<>]/g, '').replace(/[^\w.@-]/g, '_')}.eml`;
      await mkdir(folder, { recursive: true, mode: 0o700 });
      const path = join(folder, name);
      await writeFile(`${path}.tmp`, info.message as Buffer, { mode: 0o600 });
      await rename(`${path}.tmp`, path);
      return { kind: 'sent', response: `written to ${path}` };
    },
    close: () => transport?.close(),
  };
}
