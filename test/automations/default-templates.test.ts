/**
 * Guest communication works out of the box (issue: default messages): an organization Staykit creates has e-mail
 * templates from the start — request received, confirmed, cancelled, changed, a payment's reminder and receipt,
 * before arrival, during the stay, after departure — in English, Dutch and German, each one passing the check every saved template passes; a booking
 * made in German sends the German confirmation with the stay attached.
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
import { formatMoney, SAMPLE_RECORD } from '../../src/automations/variables.js';
import { loadBookingRecord } from '../../src/automations/context.js';
import { fixtures } from '../support/fixtures.js';
import { FolderStore } from '../../src/media/folder-store.js';
import type { CoverPhoto } from '../../src/media/cover.js';
import { createOrganization } from '../../src/cli/commands/org.js';
import { forEachBackend } from '../support/databases.js';
import { client, startBookingApp } from '../booking/support.js';
import { bookableUnit, clock, parseMime, runDue, schedulerOptions, startSmtpServer, textOf, type TestSmtpServer } from './support.js';

const GREETINGS = { en: 'Dear Lena,', nl: 'Beste Lena,', de: 'Guten Tag Lena,' } as const;

forEachBackend('default e-mail templates', (ctx) => {
  let app: FastifyInstance;
  let smtp: TestSmtpServer;
  let org: { organization_id: string; api_key: string };
  let templates: { id: string; trigger: string; status: string; subject: Record<string, string> }[];
  let mediaFolder: string;

  before(async () => {
    mediaFolder = await mkdtemp(join(tmpdir(), 'staykit-mail-media-'));
    app = await startBookingApp(ctx.db, undefined, { mediaStore: new FolderStore(mediaFolder) });
    smtp = await startSmtpServer();
    org = await createOrganization(ctx.db, 'Alpenblick Ferienwohnungen');
  });
  after(async () => {
    await app.close();
    await smtp.close();
    await rm(mediaFolder, { recursive: true, force: true });
  });

  const api = (method: 'GET' | 'POST', url: string, payload?: object) => app.inject({
    method, url, payload, headers: { authorization: `Bearer ${org.api_key}`, prefer: 'return=representation' },
  });

  it('a new organization has one template per moment of a stay, each in English, Dutch and German', async () => {
    const answer = await api('GET', '/v1/email_templates?select=id,trigger,moment,status,subject,body,include_ical_data&order=created_at');
    templates = answer.json();
    assert.equal(templates.length, DEFAULT_TEMPLATES.length);
    assert.deepEqual(templates.map((template) => `${template.trigger} ${template.status}`).sort(), [
      'cancelled CANCELLED', 'confirmed CONFIRMED', 'created TENTATIVE', 'moment CONFIRMED', 'moment CONFIRMED', 'moment CONFIRMED',
      'payment_due CONFIRMED', 'payment_received CONFIRMED', 'updated CONFIRMED',
    ]);
    for (const template of templates) assert.deepEqual(Object.keys(template.subject).sort(), ['de', 'default', 'nl']);
  });

  it('each passes the check a saved template passes (every language renders against a full booking)', async () => {
    for (const template of DEFAULT_TEMPLATES) {
      const row: Record<string, unknown> = { ...template, type: 'manual', trigger: 'manual' };
      delete row.purpose;
      const saved = await api('POST', '/v1/email_templates', row);
      assert.equal(saved.statusCode, 201, `${template.purpose}: ${saved.body}`);
    }
  });

  it("renders in the guest's language with nothing left unrendered", async () => {
    const unit = await bookableUnit(ctx.db, org.organization_id, { name: { default: 'Mountain View', nl: 'Bergzicht', de: 'Bergblick' } });
    for (const [language, start, end] of [['en', '2027-04-05', '2027-04-08'], ['nl', '2027-04-12', '2027-04-15'], ['de', '2027-04-19', '2027-04-22']] as const) {
      const booked = await client(app, org.api_key).post('/v1/book', {
        product_id: unit.product, interval: { start, end },
        occupancy: { [unit.adults]: 2 }, language, silent: true, contact: { first_name: 'Lena', email: `lena.${language}@example.com` },
      });
      assert.equal(booked.statusCode, 201, booked.body);
      const bookingId = booked.json<{ booking_id: string }>().booking_id;
      for (const template of templates) {
        const preview = await api('POST', '/v1/template-preview', { booking_id: bookingId, email_template_id: template.id });
        assert.equal(preview.statusCode, 200, preview.body);
        const { subject, body } = preview.json<{ subject: string; body: string }>();
        assert.ok(body.startsWith(GREETINGS[language]), `${template.trigger} in ${language}: ${body.slice(0, 40)}`);
        assert.doesNotMatch(`${subject}\n${body}`, /\{\{|\{%|undefined/);
        assert.match(subject, language === 'en' ? /Mountain View|booking/ : language === 'nl' ? /Bergzicht|boeking/ : /Bergblick|Buchung/);
      }
    }
  });

  it('every one composes in every language to HTML that MJML validates strictly, with nothing unrendered', async () => {
    const cover: CoverPhoto = {
      media_id: '00000000-0000-4000-8000-0000000000c0', url: '/media/0123456789abcdef0123456789abcdef/1600.jpeg', width: 1600, height: 1067,
      dominant_color: '#88aacc', alt: { default: 'The house', nl: 'Het huis', de: 'Das Haus' },
      variants: [400, 800, 1600].map((width) => ({ width, height: Math.round(width * 0.667), format: 'jpeg' as const, url: `/media/0123456789abcdef0123456789abcdef/${width}.jpeg` })),
    };
    for (const template of DEFAULT_TEMPLATES) {
      for (const language of ['en', 'nl', 'de']) {
        // A payment e-mail is about its job's payment: the sample's paid one for a receipt, its pending one for a reminder.
        const payment = SAMPLE_RECORD.payments.find((candidate) => (candidate.status === 'paid') === (template.trigger === 'payment_received'))!;
        const record = {
          ...SAMPLE_RECORD, contact: { ...SAMPLE_RECORD.contact!, first_name: 'Lena', language }, cover,
          payment_id: template.trigger.startsWith('payment_') ? payment.id : null,
        };
        const stored = {
          email_subject: template.subject, email_body: template.body, message_subject: null, message_body: null,
          include_booking_details: template.include_booking_details, include_booking_link: template.include_booking_link,
          include_ical_data: template.include_ical_data, include_product_image: template.include_product_image, attachments: [], status: template.status,
        };
        const message = await composeMessage(stored, record, 'https://stay.example.com/', new Date('2027-03-01T10:00:00Z'));
        const where = `${template.purpose} (${language})`;
        assert.doesNotMatch(message.html, /\{\{|\{%|undefined/, where);
        assert.match(message.html, new RegExp(`<html lang="${language}"`), where);
        assert.ok(message.html.includes(GREETINGS[language as keyof typeof GREETINGS]), where);
        assert.equal(message.html.includes('src="https://stay.example.com/media/0123456789abcdef0123456789abcdef/800.jpeg"'), template.include_product_image, `${where}: the photo`);
        assert.equal(/href="https:\/\/stay\.example\.com\/g\//.test(message.html), template.include_booking_link, `${where}: the button`);
        if (template.trigger.startsWith('payment_')) {
          assert.ok(`${message.subject}\n${message.body}`.includes(formatMoney(payment.amount, 'EUR', language)), `${where}: the amount`);
        }
      }
    }
  });

  it('every one renders in every language against a real booking with an extra and a coupon: the lines shown, nothing unrendered', async () => {
    const unit = await bookableUnit(ctx.db, org.organization_id, { name: { default: 'Pine Lodge', nl: 'Dennenhuis', de: 'Kiefernhaus' } });
    const f = fixtures(ctx.db, org.organization_id);
    const breakfast = await f.service(unit.product, {
      name: { default: 'Breakfast', nl: 'Ontbijt', de: 'Frühstück' }, type: 'checkbox', pricing: { per: 'guest_night', amount: 1500 },
    });
    await f.coupon({ code: 'SPRING', definition: { type: 'fixed', value: 2500 } }, [unit.product]);
    const booked = await client(app, org.api_key).post('/v1/book', {
      product_id: unit.product, interval: { start: '2027-05-10', end: '2027-05-13' }, occupancy: { [unit.adults]: 2 },
      form_values: { [breakfast]: true }, coupon_codes: ['SPRING'],
      contact: { first_name: 'Lena', last_name: 'Huber', email: 'lena.extras@example.com' },
    });
    assert.equal(booked.statusCode, 201, booked.body);
    const found = await loadBookingRecord(ctx.db, org.organization_id, booked.json<{ booking_id: string }>().booking_id);
    assert.ok(found);
    const names = found.line_items.map((line) => line.name.default);
    assert.ok(names.includes('Breakfast') && found.line_items.some((line) => line.amount < 0), `an extra and a discount: ${JSON.stringify(found.line_items)}`);
    for (const template of DEFAULT_TEMPLATES) {
      for (const language of ['en', 'nl', 'de'] as const) {
        const record = {
          ...found, contact: { ...found.contact!, language },
          payment_id: template.trigger.startsWith('payment_') ? found.payments[0]?.id ?? null : null,
        };
        const stored = {
          email_subject: template.subject, email_body: template.body, message_subject: null, message_body: null,
          include_booking_details: template.include_booking_details, include_booking_link: template.include_booking_link,
          include_ical_data: template.include_ical_data, include_product_image: template.include_product_image, attachments: [], status: template.status,
        };
        const message = await composeMessage(stored, record, 'https://stay.example.com/', new Date('2027-03-01T10:00:00Z'));
        const where = `${template.purpose} (${language})`;
        for (const text of [message.subject, message.body, message.html]) assert.doesNotMatch(text, /\{\{|\{%|undefined|NaN|\[object/, where);
        assert.ok(message.body.includes(GREETINGS[language]), where);
        if (template.include_booking_details) {
          // The booking details list every line in the guest's language: the extra and the coupon's discount among them.
          assert.ok(message.html.includes({ en: 'Breakfast', nl: 'Ontbijt', de: 'Frühstück' }[language]), `${where}: the extra`);
          assert.ok(message.html.includes(formatMoney(-2500, 'EUR', language)) || message.html.includes(formatMoney(2500, 'EUR', language)), `${where}: the discount`);
        }
      }
    }
  });

  it('a booking made in German sends the German confirmation, with the stay attached for the calendar', async () => {
    const unit = await bookableUnit(ctx.db, org.organization_id, { name: { default: 'Lake House', de: 'Seehaus' } });
    const photo = await sharp({ create: { width: 1200, height: 800, channels: 3, background: '#3b82f6' } }).jpeg().toBuffer();
    const uploaded = await app.inject({ method: 'POST', url: '/v1/media', headers: { authorization: `Bearer ${org.api_key}`, 'content-type': 'image/jpeg' }, payload: photo });
    assert.equal(uploaded.statusCode, 201, uploaded.body);
    const media = uploaded.json<{ id: string; hash: string }>();
    const images = await app.inject({
      method: 'PATCH', url: `/v1/products?id=eq.${unit.product}`, headers: { authorization: `Bearer ${org.api_key}` },
      payload: { images: [{ media_id: media.id, alt: { default: 'The lake house', de: 'Das Seehaus' } }] },
    });
    assert.equal(images.statusCode, 204, images.body);
    const booked = await client(app, org.api_key).post('/v1/book', {
      product_id: unit.product, interval: { start: '2027-05-03', end: '2027-05-07' }, occupancy: { [unit.adults]: 2 },
      language: 'de', contact: { first_name: 'Lena', last_name: 'Huber', email: 'lena.huber@example.com' },
    });
    assert.equal(booked.statusCode, 201, booked.body);
    await runDue(ctx.db, schedulerOptions(smtp, clock('2027-03-01T10:05:00Z')));
    const mail = smtp.received.find((message) => /^To: .*lena\.huber@example\.com/im.test(message));
    assert.ok(mail, 'the confirmation was sent');
    const parsed = parseMime(mail);
    assert.match(parsed.headers.subject ?? '', /Ihr Aufenthalt in Seehaus ist bestätigt/);
    const text = textOf(parsed);
    assert.match(text, /^Guten Tag Lena,\n\nIhre Buchung ist bestätigt: Seehaus, vom /);
    assert.match(text, /Mit freundlichen Grüßen\nAlpenblick Ferienwohnungen/);
    assert.match(mail, /Content-Type: text\/calendar/i);
    const html = parsed.parts.flatMap((part) => [part, ...part.parts]).find((part) => (part.headers['content-type'] ?? '').startsWith('text/html'));
    assert.ok(html, 'an HTML alternative');
    assert.match(html.body, /Ihre Buchung ist bestätigt: Seehaus/);
    const img = /<img[^>]*>/.exec(html.body)?.[0] ?? '';
    assert.ok(img.includes(`src="https://stay.example.com/media/${media.hash}/800.jpeg"`) && img.includes('alt="Das Seehaus"'), `the cover photo, its German alt text: ${img}`);
    assert.match(html.body, /Ihre Buchung ansehen/);
  });
});
