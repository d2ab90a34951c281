/**
 * The organization's logo and colour in its e-mails (migration 0235, docs/automations.md#html-e-mails): a logo
 * uploaded as media and named by settings.logo_media_id, and settings.brand_color, appear in the HTML of the e-mail a
 * booking sends — which still passes MJML's strict validation — with text readable on the colour; a colour that is
 * not #rrggbb is a 400 when saved, another organization's media a 404; the logo cannot be deleted while it is the
 * logo, and a replaced logo is deleted. Without them the e-mail looks as before.
 */
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { composeMessage } from '../../src/automations/compose.js';
import { DEFAULT_TEMPLATES } from '../../src/automations/default-templates.js';
import { SAMPLE_RECORD } from '../../src/automations/variables.js';
import { DARK_TEXT, LIGHT_TEXT, textColorOn } from '../../src/common/brand-color.js';
import { FolderStore } from '../../src/media/folder-store.js';
import { createOrganization } from '../../src/cli/commands/org.js';
import { forEachBackend } from '../support/databases.js';
import { client, startBookingApp } from '../booking/support.js';
import { bookableUnit, clock, parseMime, runDue, schedulerOptions, startSmtpServer, type MimePart, type TestSmtpServer } from './support.js';

const htmlOf = (mail: MimePart): string =>
  mail.parts.flatMap((part) => [part, ...part.parts]).find((part) => (part.headers['content-type'] ?? '').startsWith('text/html'))?.body ?? '';

it('text on a brand colour is the one of white and dark that contrasts more', () => {
  assert.equal(textColorOn('#1d4ed8'), LIGHT_TEXT);
  assert.equal(textColorOn('#0f766e'), LIGHT_TEXT);
  assert.equal(textColorOn('#fde047'), DARK_TEXT);
  assert.equal(textColorOn('#ffffff'), DARK_TEXT);
});

it('composes with the logo and colour into HTML that MJML validates strictly, and as before without them', async () => {
  const confirmation = DEFAULT_TEMPLATES.find((template) => template.trigger === 'confirmed')!;
  const stored = {
    email_subject: confirmation.subject, email_body: confirmation.body, message_subject: null, message_body: null,
    include_booking_details: true, include_booking_link: true, include_ical_data: false, include_product_image: false, attachments: [], status: 'CONFIRMED',
  };
  const logo = {
    media_id: '00000000-0000-4000-8000-0000000000a1', url: '/media/abcdefabcdefabcdefabcdefabcdefab/800.jpeg', width: 800, height: 200,
    variants: [400, 800].map((width) => ({ width, height: width / 4, format: 'jpeg' as const, url: `/media/abcdefabcdefabcdefabcdefabcdefab/${width}.jpeg` })),
  };
  const now = new Date('2027-03-01T10:00:00Z');
  const branded = await composeMessage(stored, { ...SAMPLE_RECORD, organization: { ...SAMPLE_RECORD.organization, brand_color: '#0F766E' }, logo },
    'https://stay.example.com/', now);
  // 64 pixels high → 256 wide, capped at 240; the 800-pixel copy serves it on high-density screens.
  assert.match(branded.html, /<img[^>]*alt="Seaside Rentals"[^>]*src="https:\/\/stay\.example\.com\/media\/abcdefabcdefabcdefabcdefabcdefab\/800\.jpeg"[^>]*width="240"/);
  assert.match(branded.html, /background:#0f766e/, 'the header bar in the colour');
  assert.ok((branded.html.match(/#0f766e/g) ?? []).length >= 2, 'the bar and the button');
  assert.match(branded.html, /color:#ffffff[^"]*"[^>]*>\s*Seaside Rentals/, 'the name in white on the dark teal');

  const plain = await composeMessage(stored, SAMPLE_RECORD, 'https://stay.example.com/', now);
  assert.doesNotMatch(plain.html, /\/media\//);
  assert.match(plain.html, /#1d4ed8/, 'the default accent');
  assert.doesNotMatch(plain.html, /#0f766e/);
});

forEachBackend('brand settings', (ctx) => {
  let app: FastifyInstance;
  let smtp: TestSmtpServer;
  let org: { organization_id: string; api_key: string };
  let mediaFolder: string;

  before(async () => {
    mediaFolder = await mkdtemp(join(tmpdir(), 'staykit-brand-media-'));
    app = await startBookingApp(ctx.db, undefined, { mediaStore: new FolderStore(mediaFolder) });
    smtp = await startSmtpServer();
    org = await createOrganization(ctx.db, 'Dune Cottages');
  });
  after(async () => {
    await app.close();
    await smtp.close();
    await rm(mediaFolder, { recursive: true, force: true });
  });

  const headers = () => ({ authorization: `Bearer ${org.api_key}` });
  const setSettings = (settings: object) => app.inject({
    method: 'PATCH', url: `/v1/organizations?id=eq.${org.organization_id}`, headers: headers(), payload: { settings },
  });
  const uploadLogo = async (background: string): Promise<{ id: string; hash: string }> => {
    const png = await sharp({ create: { width: 600, height: 150, channels: 4, background } }).png().toBuffer();
    const uploaded = await app.inject({ method: 'POST', url: '/v1/media', headers: { ...headers(), 'content-type': 'image/png' }, payload: png });
    assert.equal(uploaded.statusCode, 201, uploaded.body);
    return uploaded.json();
  };

  it('refuses a colour that is not #rrggbb with 400 and a logo that is not one of its media with 404', async () => {
    for (const color of ['red', '#12345', '#1234567', 'rgb(0,0,0)', 12]) {
      const answer = await setSettings({ brand_color: color });
      assert.equal(answer.statusCode, 400, `${JSON.stringify(color)}: ${answer.body}`);
      assert.match(answer.body, /organizations_brand_color/);
    }
    const missing = await setSettings({ logo_media_id: '00000000-0000-4000-8000-00000000dead' });
    assert.equal(missing.statusCode, 404, missing.body);
    assert.equal(missing.json<{ code: string }>().code, 'SK766');
    assert.equal((await setSettings({ logo_media_id: 'logo.png' })).statusCode, 400);
  });

  it("a booking's e-mail shows the logo and the colour", async () => {
    const logo = await uploadLogo('#0f766e');
    const saved = await setSettings({ brand_color: '#FDE047', logo_media_id: logo.id });
    assert.equal(saved.statusCode, 204, saved.body);
    const unit = await bookableUnit(ctx.db, org.organization_id, { name: { default: 'Dune House' } });
    const booked = await client(app, org.api_key).post('/v1/book', {
      product_id: unit.product, interval: { start: '2027-06-07', end: '2027-06-10' }, occupancy: { [unit.adults]: 2 },
      contact: { first_name: 'Ada', email: 'ada@example.com' },
    });
    assert.equal(booked.statusCode, 201, booked.body);
    await runDue(ctx.db, schedulerOptions(smtp, clock('2027-03-01T10:05:00Z')));
    const mail = smtp.received.find((message) => /^To: .*ada@example\.com/im.test(message));
    assert.ok(mail, 'the confirmation was sent (its HTML passed strict validation)');
    const html = htmlOf(parseMime(mail));
    assert.match(html, new RegExp(`<img[^>]*src="https://stay\\.example\\.com/media/${logo.hash}/\\d+\\.jpeg"`), 'the logo, absolute');
    assert.match(html, /background:#fde047/, 'the bar in the colour');
    assert.match(html, /color:#111827[^"]*"[^>]*>\s*Dune Cottages/, 'dark text on the light yellow');
  });

  it('keeps the logo while it is the logo, and deletes a replaced one', async () => {
    const first = JSON.parse((await app.inject({ method: 'GET', url: `/v1/organizations?id=eq.${org.organization_id}&select=settings`, headers: headers() })).body)[0].settings.logo_media_id as string;
    const refused = await app.inject({ method: 'DELETE', url: `/v1/media?id=eq.${first}`, headers: headers() });
    assert.equal(refused.statusCode, 409, refused.body);
    assert.equal(refused.json<{ code: string }>().code, 'SK764');
    const second = await uploadLogo('#1d4ed8');
    assert.equal((await setSettings({ brand_color: '#fde047', logo_media_id: second.id })).statusCode, 204);
    const left = await app.inject({ method: 'GET', url: '/v1/media?select=id', headers: headers() });
    assert.deepEqual(left.json<{ id: string }[]>().map((row) => row.id), [second.id], 'the first logo is gone');
    assert.equal((await setSettings({})).statusCode, 204);
    assert.deepEqual((await app.inject({ method: 'GET', url: '/v1/media?select=id', headers: headers() })).json(), [], 'a removed logo is gone');
  });
});
