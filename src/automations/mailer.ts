/**
 * How a message leaves: one `Mailer` for the process — SMTP when `SMTP_URL` is set (smtp.ts), else `.eml` files in
 * `DATA_DIR/outbox/` (outbox-folder.ts). Both build the MIME message with nodemailer, so a file in the outbox is
 * byte for byte what SMTP would have carried.
 */
import { join, resolve } from 'node:path';
import type { Config } from '../config.js';
import { createOutboxFolderMailer } from './outbox-folder.js';
import { createSmtpMailer, destinationOf } from './smtp.js';
import { dkimSigning } from './mime-message.js';

export interface OutgoingMail {
  /** The Message-ID, stable per message across retries (message-id.ts), so receivers can deduplicate. */
  messageId: string;
  from: string;
  /** One address, or several separated by commas (the booking's reply address, then the unit's). */
  replyTo: string | undefined;
  /** A reply's threading: the Message-ID it answers, and the thread's Message-IDs, oldest first. */
  inReplyTo?: string;
  references?: string[];
  to: string;
  subject: string;
  text: string;
  /** The HTML alternative; mail programs show it, the text is for those that cannot. */
  html?: string;
  attachments: MailAttachment[];
}

export interface MailAttachment {
  filename: string;
  contentType: string;
  /** Base64. */
  content: string;
}

/**
 * What came of one attempt: `sent` with the server's answer; `retry` for an answer or failure that may pass (4xx,
 * timeout, connection refused or dropped); `failed` for a refusal that will not (5xx).
 */
export type SendOutcome =
  | { kind: 'sent'; response: string }
  | { kind: 'retry'; response: string; code: number | undefined }
  | { kind: 'failed'; response: string; code: number | undefined };

export interface Mailer {
  /** Where mail goes, for the start-up banner and logs (never with credentials). */
  readonly destination: string;
  send(mail: OutgoingMail): Promise<SendOutcome>;
  close(): void;
}

/** The outbox folder of a data folder. */
export function outboxFolder(dataDir: string): string {
  return join(dataDir, 'outbox');
}

export interface MailerOptions {
  /** Longest wait for the connection, the greeting and each answer (ms). Default 30 000. */
  timeoutMs?: number;
}

/** Where this configuration sends e-mail, in words for the start-up banner (no credentials). */
export function describeMailDestination(config: Pick<Config, 'smtpUrl' | 'dataDir'>): string {
  return config.smtpUrl
    ? `e-mail is sent through ${destinationOf(config.smtpUrl)}`
    : `e-mail is not sent (no SMTP_URL): each message is written to ${resolve(outboxFolder(config.dataDir))} as an .eml file`;
}

/** The process's mailer from its configuration; throws ConfigError for a DKIM key it cannot read. */
export function mailerFor(config: Pick<Config, 'smtpUrl' | 'dataDir' | 'dkim'>, options: MailerOptions = {}): Mailer {
  const dkim = dkimSigning(config.dkim);
  return config.smtpUrl
    ? createSmtpMailer(config.smtpUrl, options.timeoutMs ?? 30_000, dkim)
    : createOutboxFolderMailer(outboxFolder(config.dataDir), dkim);
}
