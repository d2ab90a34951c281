/**
 * `staykit serve` on the embedded database runs the scheduler itself and, without SMTP_URL, writes each message as
 * an .eml file under DATA_DIR/outbox/ — and says so when it starts.
 */
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServerProcess, type ServerProcess } from '../support/server-process.js';
import { parseMime, textOf } from './support.js';

let dataDir: string;
let server: ServerProcess | undefined;

before(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'staykit-outbox-'));
});
after(async () => {
  await server?.stop();
  await rm(dataDir, { recursive: true, force: true });
});

/** The .eml of one message: named by its Message-ID (the demo's own e-mails, task reminders, land beside it). */
async function waitForFile(folder: string, messageId: string, deadlineMs: number): Promise<string> {
  const until = Date.now() + deadlineMs;
  for (;;) {
    const files = await readdir(folder).catch(() => [] as string[]);
    const eml = files.find((name) => name.startsWith(`${messageId}@`) && name.endsWith('.eml'));
    if (eml) return join(folder, eml);
    if (Date.now() > until) throw new Error(`no .eml file of message ${messageId} in ${folder} after ${deadlineMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

it('writes a message POSTed to /v1/messages to DATA_DIR/outbox/ and marks it sent', async () => {
  server = await startServerProcess({ DATABASE_URL: '', DATA_DIR: dataDir, STAYKIT_WORKER: 'embedded', STAYKIT_EMAIL_FROM: 'hello@stay.test' });
  const outbox = join(dataDir, 'outbox');
  assert.match(server.output(), new RegExp(`each message is written to ${outbox.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} as an \\.eml file`));
  const key = /Demo organization API key: (sk_\S+)/.exec(server.output())?.[1];
  assert.ok(key);
  const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json', prefer: 'return=representation' };
  const created = await fetch(`${server.url}/v1/messages`, {
    method: 'POST', headers, body: JSON.stringify({ to_address: 'Jörg Müller <joerg@example.com>', subject: 'Grüße aus Zandvoort', body: 'Tschüss!' }),
  });
  assert.equal(created.status, 201, await created.clone().text());
  const [message] = (await created.json()) as { id: string }[];

  const file = await waitForFile(outbox, message!.id, 20_000);
  const mail = parseMime(await readFile(file, 'utf8'));
  assert.equal(mail.headers.subject, 'Grüße aus Zandvoort');
  assert.equal(mail.headers.to, 'Jörg Müller <joerg@example.com>');
  assert.match(mail.headers.from ?? '', /<hello@stay\.test>$/);
  assert.equal(mail.headers['message-id'], `<${message!.id}@stay.test>`);
  assert.equal(textOf(mail).trim(), 'Tschüss!');

  let status = '';
  for (const until = Date.now() + 5000; status !== 'sent' && Date.now() < until;) {
    const read = await fetch(`${server.url}/v1/messages?id=eq.${message!.id}&select=status,sent_at`, { headers });
    status = ((await read.json()) as { status: string }[])[0]!.status;
  }
  assert.equal(status, 'sent');
});
