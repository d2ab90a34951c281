/**
 * A real SMTP server for the tests (the smtp-server package) whose answer a test chooses per message, a small
 * reader of the MIME messages it receives, and the fixtures of a unit that can be booked through /book.
 */
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import type { Database } from '../../src/db/types.js';
import { silentLogger } from '../../src/observability/worker-logger.js';
import { createSmtpMailer } from '../../src/automations/smtp.js';
import { runDueJobs, type SchedulerOptions } from '../../src/automations/scheduler.js';
import type { JobReport } from '../../src/automations/runtime.js';
import { fixtures } from '../support/fixtures.js';

/** What the server does with the next message: accept it, answer with a code, or never answer. */
/** 'hold': accepted, but answered only when `release()` is called (a slow server); 'hang': never answered. */
export type Answer = 'accept' | 'hold' | 'hang' | { code: number; message: string };

export interface TestSmtpServer {
  url: string;
  /** Messages accepted (answered 250), raw. */
  received: string[];
  /** Messages whose DATA arrived, whatever the answer. */
  attempts: number;
  /** Answers for the next messages, in order; then 'accept'. */
  answers: Answer[];
  /** Resolves when the next message's DATA has arrived (before it is answered). */
  nextData(): Promise<void>;
  /** Answers the messages held ('hold') with 250, keeping them as received. */
  release(): void;
  close(): Promise<void>;
}

export async function startSmtpServer(): Promise<TestSmtpServer> {
  let dataWaiters: (() => void)[] = [];
  let held: (() => void)[] = [];
  const state: TestSmtpServer = {
    url: '',
    received: [],
    attempts: 0,
    answers: [],
    nextData: () => new Promise<void>((resolve) => dataWaiters.push(resolve)),
    release: () => {
      const waiting = held;
      held = [];
      for (const answer of waiting) answer();
    },
    close: async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    closeTimeout: 100,
    onData(stream, _session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        state.attempts += 1;
        const waiters = dataWaiters;
        dataWaiters = [];
        for (const resolve of waiters) resolve();
        const answer = state.answers.shift() ?? 'accept';
        if (answer === 'hang') return;
        if (answer === 'hold') {
          held.push(() => {
            state.received.push(Buffer.concat(chunks).toString('utf8'));
            callback();
          });
          return;
        }
        if (answer === 'accept') {
          state.received.push(Buffer.concat(chunks).toString('utf8'));
          callback();
          return;
        }
        const error = Object.assign(new Error(answer.message), { responseCode: answer.code });
        callback(error);
      });
    },
  });
  server.listen(0, '127.0.0.1');
  await once(server.server, 'listening');
  state.url = `smtp://127.0.0.1:${(server.server.address() as AddressInfo).port}`;
  return state;
}

// ---------------------------------------------------------------------------------------------------------------
// Reading what arrived.

function decodeWords(value: string): string {
  return value
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?([^?]+)\?([BbQq])\?([^?]*)\?=/g, (_all, _charset: string, encoding: string, text: string) =>
      encoding.toUpperCase() === 'B'
        ? Buffer.from(text, 'base64').toString('utf8')
        : decodeQuotedPrintable(text.replace(/_/g, ' ')));
}

function decodeQuotedPrintable(text: string): string {
  const bytes: number[] = [];
  const source = text.replace(/=\r?\n/g, '');
  for (let i = 0; i < source.length; i += 1) {
    if (source[i] === '=' && /^[0-9A-Fa-f]{2}$/.test(source.slice(i + 1, i + 3))) {
      bytes.push(parseInt(source.slice(i + 1, i + 3), 16));
      i += 2;
    } else bytes.push(...Buffer.from(source[i]!, 'utf8'));
  }
  return Buffer.from(bytes).toString('utf8');
}

export interface MimePart {
  headers: Record<string, string>;
  /** Decoded text (or, for base64 parts, the decoded bytes as UTF-8). */
  body: string;
  parts: MimePart[];
}

export function parseMime(raw: string): MimePart {
  const split = raw.indexOf('\r\n\r\n') >= 0 ? raw.indexOf('\r\n\r\n') : raw.indexOf('\n\n');
  const head = raw.slice(0, split).replace(/\r?\n[ \t]+/g, ' ');
  const rest = raw.slice(split).replace(/^\r?\n\r?\n/, '');
  const headers: Record<string, string> = {};
  for (const line of head.split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).toLowerCase()] = decodeWords(line.slice(colon + 1).trim());
  }
  const type = headers['content-type'] ?? 'text/plain';
  const boundary = /boundary="?([^";]+)"?/.exec(type)?.[1];
  if (type.startsWith('multipart/') && boundary) {
    const sections = rest.split(`--${boundary}`).slice(1, -1).map((section) => section.replace(/^\r?\n/, ''));
    return { headers, body: '', parts: sections.map(parseMime) };
  }
  const encoding = (headers['content-transfer-encoding'] ?? '7bit').toLowerCase();
  const body = encoding === 'base64'
    ? Buffer.from(rest.replace(/\s+/g, ''), 'base64').toString('utf8')
    : encoding === 'quoted-printable' ? decodeQuotedPrintable(rest) : rest;
  return { headers, body: body.replace(/\r\n/g, '\n'), parts: [] };
}

/** The text part of a message (itself, or its first text/plain part at any depth: beside HTML it is in an alternative). */
export function textOf(mail: MimePart): string {
  if (mail.parts.length === 0) return mail.body;
  const plain = mail.parts.find((part) => part.parts.length === 0 && (part.headers['content-type'] ?? '').startsWith('text/plain'));
  return plain?.body ?? mail.parts.map(textOf).find((text) => text !== '') ?? '';
}

// ---------------------------------------------------------------------------------------------------------------
// Running the scheduler.

export interface Clock {
  now: () => Date;
  set(iso: string): void;
}

export function clock(iso: string): Clock {
  let current = new Date(iso);
  return { now: () => current, set: (next) => (current = new Date(next)) };
}

/** The scheduler's options for a test: its SMTP server, a short timeout, the given clock. */
export function schedulerOptions(smtp: TestSmtpServer, time: Clock, extra: Partial<SchedulerOptions> = {}): SchedulerOptions {
  return {
    mailer: createSmtpMailer(smtp.url, 1000),
    emailFrom: 'bookings@staykit.test',
    publicUrl: 'https://stay.example.com',
    now: time.now,
    retrySchedule: [60, 300],
    logger: silentLogger,
    ...extra,
  };
}

/** Works every job due at the clock's time. */
export async function runDue(db: Database, options: SchedulerOptions): Promise<JobReport[]> {
  return runDueJobs(db, options);
}

/** A unit in Europe/Amsterdam, booked instantly, open all of 2027, and its adults group. */
export async function bookableUnit(db: Database, organizationId: string, fields: Record<string, unknown> = {}): Promise<{ product: string; adults: string }> {
  const f = fixtures(db, organizationId);
  const adults = await f.group('Adults');
  const product = await f.product({ name: { default: 'Dune House', nl: 'Duinhuis' }, ...fields });
  await f.configuration(product, { rates: [{ duration: 1, occupancy: 0, rate: 10000 }] });
  return { product, adults };
}
