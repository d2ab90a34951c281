/**
 * The inbound SMTP listener (STAYKIT_INBOUND_SMTP_PORT, docs/automations.md#inbox): where guests' replies arrive
 * when Staykit is the mail server of STAYKIT_INBOUND_DOMAIN (its MX, or behind a relay that forwards that domain).
 *
 * No AUTH and no relay: only mail for Staykit's own reply addresses is taken. A recipient is accepted at RCPT TO
 * only when it is a booking's signed reply address (550 otherwise), so spam to made-up addresses is refused before
 * its data is sent, while a guest's reply — to the address Staykit gave them — always passes. The size limit is
 * announced (SIZE) and enforced (552). A mail is answered 250 once it is stored (or was already: a resent copy),
 * 550 when no booking is left for it, and 451 when the database could not store it, so the sender keeps and retries
 * it: a legitimate mail is never answered as received before it is stored. No STARTTLS: the listener is meant
 * behind the domain's MX or on a private network (docs/deployment.md#inbound-e-mail).
 */
import type { AddressInfo } from 'node:net';
import { SMTPServer, type SMTPServerDataStream, type SMTPServerSession } from 'smtp-server';
import type { Database } from '../db/types.js';
import type { WorkerLogger } from '../observability/worker-logger.js';
import { parseMime } from './mime.js';
import type { MediaStore } from '../media/store.js';
import type { ReplyAddresses } from './reply-address.js';
import { storeInboundMail, type StoreOutcome } from './store.js';

export interface InboundSmtpOptions {
  db: Database;
  addresses: ReplyAddresses;
  /** Where the mail's files are kept (the media store). */
  store: MediaStore;
  port: number;
  host: string;
  maxBytes: number;
  logger: WorkerLogger;
}

export interface InboundSmtpListener {
  /** Where it listens, `smtp://host:port`. */
  readonly url: string;
  close(): Promise<void>;
}

const refusal = (code: number, message: string): Error => Object.assign(new Error(message), { responseCode: code });

/** The message's bytes, at most `maxBytes` of them (smtp-server counts the rest and says so in sizeExceeded). */
async function readData(stream: SMTPServerDataStream, maxBytes: number): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size <= maxBytes) chunks.push(chunk);
  }
  return stream.sizeExceeded || size > maxBytes ? undefined : Buffer.concat(chunks);
}

export async function startInboundSmtp(options: InboundSmtpOptions): Promise<InboundSmtpListener> {
  const { db, addresses, maxBytes, logger } = options;
  const storage = { store: options.store, maxBytes };

  async function receive(stream: SMTPServerDataStream, session: SMTPServerSession): Promise<void> {
    const raw = await readData(stream, maxBytes);
    if (raw === undefined) throw refusal(552, `Message exceeds the fixed maximum message size of ${maxBytes} bytes`);
    const recipients = session.envelope.rcptTo.map((recipient) => recipient.address);
    let outcome: StoreOutcome;
    try {
      outcome = await storeInboundMail(db, addresses, storage, await parseMime(raw, recipients));
    } catch (error) {
      logger.error({ err: error }, 'inbound e-mail not stored; the sender was asked to retry');
      throw refusal(451, 'Temporary failure: the message could not be stored, please retry');
    }
    if (outcome.kind === 'unthreaded') throw refusal(550, 'No booking of this server has this reply address');
    logger.info({ outcome: outcome.kind, booking_id: outcome.bookingId, organization_id: outcome.organizationId }, 'inbound e-mail received');
  }

  const server = new SMTPServer({
    name: addresses.domain,
    banner: 'Staykit inbound mail',
    authOptional: true,
    disabledCommands: ['AUTH', 'STARTTLS'],
    size: maxBytes,
    logger: false,
    closeTimeout: 1000,
    onRcptTo(address, _session, callback) {
      callback(addresses.bookingOf(address.address) === undefined ? refusal(550, `No such recipient here: ${address.address}`) : undefined);
    },
    onData(stream, session, callback) {
      receive(stream, session).then(() => callback(), (error: Error) => callback(error));
    },
  });
  server.on('error', (error) => logger.warn({ err: error }, 'inbound SMTP connection failed'));
  await new Promise<void>((resolve, reject) => {
    server.server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.server.off('error', reject);
      resolve();
    });
  });
  const address = server.server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `smtp://${host}:${address.port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
