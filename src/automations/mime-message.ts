/**
 * What both mailers hand nodemailer: the message's fields, and the transport's DKIM signing when configured. One
 * place, so an `.eml` in the outbox folder is byte for byte what SMTP would carry, signature included.
 */
import { readFileSync } from 'node:fs';
import type { SendMailOptions } from 'nodemailer';
import type DKIM from 'nodemailer/lib/dkim/index.js';
import { ConfigError, type DkimSetting } from '../config.js';
import type { OutgoingMail } from './mailer.js';

export function mimeMessage(mail: OutgoingMail): SendMailOptions {
  return {
    messageId: mail.messageId,
    from: mail.from,
    replyTo: mail.replyTo,
    inReplyTo: mail.inReplyTo,
    references: mail.references,
    to: mail.to,
    subject: mail.subject,
    text: mail.text,
    html: mail.html,
    attachments: mail.attachments.map((file) => ({
      filename: file.filename, contentType: file.contentType, content: file.content, encoding: 'base64',
    })),
  };
}

/**
 * nodemailer's DKIM options for the setting, the key read once when the mailer is made (at start): a missing or
 * unreadable key file stops the server with the setting's name rather than sending unsigned mail.
 */
export function dkimSigning(setting: DkimSetting | undefined): DKIM.Options | undefined {
  if (!setting) return undefined;
  let privateKey: string;
  try {
    privateKey = readFileSync(setting.privateKeyFile, 'utf8');
  } catch (error) {
    throw new ConfigError(`STAYKIT_DKIM_PRIVATE_KEY_FILE: cannot read ${setting.privateKeyFile} (${(error as Error).message})`);
  }
  if (!/-----BEGIN (RSA )?PRIVATE KEY-----/.test(privateKey)) {
    throw new ConfigError(`STAYKIT_DKIM_PRIVATE_KEY_FILE: ${setting.privateKeyFile} holds no PEM private key`);
  }
  return { domainName: setting.domain, keySelector: setting.selector, privateKey };
}
