/**
 * Delivery without SMTP (the embedded default): each message is written as an `.eml` file under
 * `DATA_DIR/outbox/` — open it with any mail program — and counts as sent. The file appears complete or not at
 * all (written aside, then renamed).
 */
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Transporter } from 'nodemailer';
import type DKIM from 'nodemailer/lib/dkim/index.js';
import { loadNodemailer } from './nodemailer.js';
import { mimeMessage } from './mime-message.js';
import type { Mailer, OutgoingMail, SendOutcome } from './mailer.js';

/** `dkim`: signing options (mime-message.ts), or none. */
export function createOutboxFolderMailer(folder: string, dkim?: DKIM.Options): Mailer {
  // Made with the first message: a server whose automations never send one never loads nodemailer.
  let transport: Transporter | undefined;
  return {
    destination: folder,
    async send(mail: OutgoingMail): Promise<SendOutcome> {
      transport ??= (await loadNodemailer()).createTransport({ streamTransport: true, buffer: true, newline: 'windows', dkim });
      const info = await transport.sendMail(mimeMessage(mail));
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
