/**
 * Delivery over SMTP with nodemailer (`SMTP_URL`: `smtp://user:pass@host:587` upgrades with STARTTLS when the
 * server offers it, `smtps://…:465` is TLS from the start). One connection per message. The server's answer
 * decides: 2xx sent, 4xx retried, 5xx failed for good; no answer within the timeout, or a lost connection, retried.
 * SMTP_URL is the operator's setting, not a tenant's, so the outbound address guard does not apply to it.
 */
import type { Transporter } from 'nodemailer';
import type DKIM from 'nodemailer/lib/dkim/index.js';
import { loadNodemailer } from './nodemailer.js';
import { mimeMessage } from './mime-message.js';
import type { Mailer, OutgoingMail, SendOutcome } from './mailer.js';

interface SmtpError extends Error {
  responseCode?: number;
  response?: string;
  code?: string;
}

export function classifySmtpError(error: unknown): SendOutcome {
  const failure = error as SmtpError;
  const code = typeof failure.responseCode === 'number' ? failure.responseCode : undefined;
  const response = failure.response ?? `${failure.code ?? 'ERROR'}: ${failure.message}`;
  if (code !== undefined && code >= 500) return { kind: 'failed', response, code };
  // nodemailer refused the message itself (no valid recipient): no server would take it later either.
  if (code === undefined && (failure.code === 'EENVELOPE' || failure.code === 'EMESSAGE')) return { kind: 'failed', response, code };
  return { kind: 'retry', response, code };
}

/** Host and port only, for logs: the URL may hold a password. */
export function destinationOf(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.host}`;
  } catch {
    return 'SMTP (SMTP_URL)';
  }
}

/** `dkim`: signing options (mime-message.ts), or none. */
export function createSmtpMailer(url: string, timeoutMs: number, dkim?: DKIM.Options): Mailer {
  // Made with the first message: a server whose automations never send one never loads nodemailer.
  let transport: Transporter | undefined;
  const transportNow = async () => {
    transport ??= (await loadNodemailer()).createTransport({
      url,
      connectionTimeout: timeoutMs,
      greetingTimeout: timeoutMs,
      socketTimeout: timeoutMs,
      dkim,
    });
    return transport;
  };
  return {
    destination: destinationOf(url),
    async send(mail: OutgoingMail): Promise<SendOutcome> {
      try {
        const info = await (await transportNow()).sendMail(mimeMessage(mail));
        return { kind: 'sent', response: String(info.response ?? '') };
      } catch (error) {
        return classifySmtpError(error);
      }
    },
    close: () => transport?.close(),
  };
}
