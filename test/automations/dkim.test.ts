/**
 * DKIM signing (STAYKIT_DKIM_*): with a key configured, a message sent through a real SMTP server and one written to
 * the outbox folder both carry a signature that a DKIM verifier (mailauth, given the public key as the domain's DNS
 * record) passes; a changed body fails it; without the setting nothing is signed; half a setting or an unreadable
 * key stops the server at start with the variable's name.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { dkimVerify } from 'mailauth/lib/dkim/verify.js';
import { ConfigError, loadConfig } from '../../src/config.js';
import { mailerFor, outboxFolder, type OutgoingMail } from '../../src/automations/mailer.js';
import { startSmtpServer, type TestSmtpServer } from './support.js';

const DOMAIN = 'rentals.example';
const SELECTOR = 'staykit2026';
const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
/** The TXT record the domain publishes at `<selector>._domainkey.<domain>`. */
const DNS_RECORD = `v=DKIM1; k=rsa; p=${publicKey.export({ type: 'spki', format: 'der' }).toString('base64')}`;
const resolver = async (name: string, type: string): Promise<string[][]> => {
  if (type === 'TXT' && name === `${SELECTOR}._domainkey.${DOMAIN}`) return [[DNS_RECORD]];
  throw Object.assign(new Error(`no ${type} record for ${name}`), { code: 'ENOTFOUND' });
};

const mail = (id: string): OutgoingMail => ({
  messageId: `<${id}@staykit>`, from: `Dune Rentals <bookings@${DOMAIN}>`, replyTo: undefined, to: 'guest@example.com',
  subject: 'Your stay in Bergen', text: 'We look forward to welcoming you.', html: '<p>We look forward to welcoming you.</p>',
  attachments: [{ filename: 'stay.ics', contentType: 'text/calendar', content: Buffer.from('BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n').toString('base64') }],
});

describe('DKIM signing of outgoing mail', () => {
  let folder: string;
  let keyFile: string;
  let smtp: TestSmtpServer;
  const settings = () => ({
    DATA_DIR: folder, STAYKIT_DKIM_DOMAIN: DOMAIN, STAYKIT_DKIM_SELECTOR: SELECTOR, STAYKIT_DKIM_PRIVATE_KEY_FILE: keyFile,
  });

  before(async () => {
    folder = await mkdtemp(join(tmpdir(), 'staykit-dkim-'));
    keyFile = join(folder, 'dkim.pem');
    await writeFile(keyFile, privateKey.export({ type: 'pkcs8', format: 'pem' }));
    smtp = await startSmtpServer();
  });
  after(() => smtp.close());

  it('signs mail sent over SMTP so that a verifier passes it, and fails it once the body is changed', async () => {
    const mailer = mailerFor(loadConfig({ ...settings(), SMTP_URL: smtp.url }));
    try {
      assert.equal((await mailer.send(mail('smtp-1'))).kind, 'sent');
    } finally {
      mailer.close();
    }
    const [raw] = smtp.received;
    assert.ok(raw, 'the server received the message');
    assert.match(raw, /^DKIM-Signature: .*d=rentals\.example/m);
    const { results } = await dkimVerify(Buffer.from(raw), { resolver });
    assert.deepEqual(results.map((result) => [result.status.result, result.signingDomain, result.selector]), [['pass', DOMAIN, SELECTOR]]);

    const tampered = raw.replace('We look forward to welcoming you.', 'Please pay to this other account.');
    assert.notEqual(tampered, raw);
    const { results: after } = await dkimVerify(Buffer.from(tampered), { resolver });
    // mailauth says "neutral: body hash did not verify" for a changed body, "fail" for a changed signed header.
    assert.deepEqual([after[0]?.status.result, after[0]?.status.comment], ['neutral', 'body hash did not verify'], 'a changed body breaks the signature');
    const otherSender = raw.replace(`bookings@${DOMAIN}`, `refunds@${DOMAIN}`);
    const { results: resent } = await dkimVerify(Buffer.from(otherSender), { resolver });
    assert.equal(resent[0]?.status.result, 'fail', 'a changed From breaks it');
  });

  it('signs the .eml written to the outbox folder the same way', async () => {
    const mailer = mailerFor(loadConfig(settings()));
    assert.equal((await mailer.send(mail('outbox-1'))).kind, 'sent');
    mailer.close();
    const [file] = (await readdir(outboxFolder(folder))).filter((name) => name.endsWith('.eml'));
    const { results } = await dkimVerify(await readFile(join(outboxFolder(folder), file!)), { resolver });
    assert.equal(results[0]?.status.result, 'pass', results[0]?.info);
  });

  it('signs nothing without the setting', async () => {
    const before_ = smtp.received.length;
    const mailer = mailerFor(loadConfig({ DATA_DIR: folder, SMTP_URL: smtp.url }));
    assert.equal((await mailer.send(mail('plain-1'))).kind, 'sent');
    mailer.close();
    assert.doesNotMatch(smtp.received[before_]!, /^DKIM-Signature:/m);
  });

  it('stops at start on half a setting or a key it cannot read, naming the variable', async () => {
    assert.throws(() => loadConfig({ STAYKIT_DKIM_DOMAIN: DOMAIN }), (error: unknown) =>
      error instanceof ConfigError && /STAYKIT_DKIM_SELECTOR, STAYKIT_DKIM_PRIVATE_KEY_FILE/.test(error.message));
    assert.throws(() => mailerFor(loadConfig({ ...settings(), STAYKIT_DKIM_PRIVATE_KEY_FILE: join(folder, 'missing.pem') })), (error: unknown) =>
      error instanceof ConfigError && /STAYKIT_DKIM_PRIVATE_KEY_FILE: cannot read/.test(error.message));
    const notAKey = join(folder, 'not-a-key.pem');
    await writeFile(notAKey, 'hello');
    assert.throws(() => mailerFor(loadConfig({ ...settings(), STAYKIT_DKIM_PRIVATE_KEY_FILE: notAKey })), (error: unknown) =>
      error instanceof ConfigError && /holds no PEM private key/.test(error.message));
  });
});
