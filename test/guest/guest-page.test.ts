import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import ICAL from 'ical.js';
import { forEachBackend } from '../support/databases.js';
import { client, NOW, startBookingApp } from '../booking/support.js';
import { fixtures, insert } from '../support/fixtures.js';
import { widgetOrganization, type WidgetOrganization } from '../widget/support.js';

/** STAYKIT_PUBLIC_URL's origin when it is not set, as in these tests. */
const PUBLIC_ORIGIN = 'http://localhost:3000';

forEachBackend('the guest page /g/<secret>', (ctx) => {
  let app: FastifyInstance;
  let org: WidgetOrganization;
  let secret: string;
  let otherSecret: string;
  let bookingId: string;

  const book = async (start: string, end: string, language = 'nl') => {
    const response = await client(app, org.secretKey).post('/v1/book', {
      product_id: org.listed, interval: { start, end }, occupancy: { [org.adults]: 2, [org.children]: 1 },
      form_values: { [org.email]: 'guest@example.com' }, language,
    });
    assert.equal(response.statusCode, 201, response.body);
    const id = response.json<{ booking_id: string }>().booking_id;
    const { rows } = await ctx.db.query<{ secret: string }>('SELECT secret FROM api.bookings WHERE id = $1', [id]);
    return { id, secret: rows[0]!.secret };
  };

  before(async () => {
    app = await startBookingApp(ctx.db);
    org = await widgetOrganization(ctx.db, 'Guest pages');
    // "Guests" sums adults and children: stored with the booking, it must not be counted or listed again.
    const f = fixtures(ctx.db, org.id);
    const everyone = await f.group('Guests');
    await f.dependency(everyone, org.adults);
    await f.dependency(everyone, org.children);
    ({ id: bookingId, secret } = await book('2027-04-05', '2027-04-08'));
    ({ secret: otherSecret } = await book('2027-06-01', '2027-06-04'));
    await insert(ctx.db, 'payments', { organization_id: org.id, booking_id: bookingId, amount: 10000, status: 'paid', paid_at: '2026-03-02T10:00:00Z' });
    // Due at midnight in Amsterdam (the unit's time zone) on 1 April, which is still 31 March in UTC.
    await insert(ctx.db, 'payments', { organization_id: org.id, booking_id: bookingId, amount: 25000, status: 'pending', due_at: '2027-03-31T22:00:00Z' });
    await insert(ctx.db, 'invoices', { organization_id: org.id, booking_id: bookingId, number: 'INV-2027-001', status: 'issued', total: 35000 });
  });
  after(() => app.close());

  it('shows the stay, unit, guests, price lines, payments and invoices in the guest\'s language, privately', async () => {
    const response = await app.inject({ method: 'GET', url: `/g/${secret}` });
    assert.equal(response.statusCode, 200);
    assert.match(String(response.headers['content-type']), /text\/html/);
    assert.equal(response.headers['cache-control'], 'no-store');
    // No Referer to other sites (the secret is in the address); the page's own form names its origin.
    assert.equal(response.headers['referrer-policy'], 'same-origin');
    const html = response.body;
    assert.match(html, /<html lang="nl">/);
    assert.match(html, /Duinhuis/); // the unit's Dutch name
    assert.match(html, /Zeeweg 1, Bergen/); // confirmed booking: the exact address
    assert.match(html, /maandag 5 april 2027/);
    assert.match(html, /donderdag 8 april 2027/);
    assert.match(html, /<h1>Boeking [^<]+<\/h1>/);
    assert.match(html, /<p data-status>Bevestigd<\/p>/);
    assert.match(html, /<dt>Aankomst<\/dt><dd>maandag 5 april 2027/);
    // (groups of the same order are listed in id order)
    assert.match(html, /<dt>Gasten<\/dt><dd>3 \((2 × Adults, 1 × Children|1 × Children, 2 × Adults)\)<\/dd>/);
    assert.doesNotMatch(html, /× Guests/);
    assert.match(html, /Cleaning/);
    assert.match(html, /data-total>€\s?350,00</); // 3 nights × 100 + cleaning 50
    assert.match(html, /data-paid>€\s?100,00</);
    assert.match(html, /Factuur INV-2027-001 \(PDF\)/);
    assert.match(html, /betaald op maandag 2 maart 2026/);
    assert.match(html, /te betalen vóór donderdag 1 april 2027/);
    assert.match(html, /Annulering aanvragen/);
    assert.doesNotMatch(html, />(Guests|Check-in|Payments|Invoices|Request cancellation)</);
    assert.doesNotMatch(html, /guest@example\.com/);
  });

  it('speaks German to a German booking, and English to a language the page does not speak', async () => {
    const german = await book('2027-07-01', '2027-07-04', 'de-AT');
    const page = (await app.inject({ method: 'GET', url: `/g/${german.secret}` })).body;
    assert.match(page, /<h1>Buchung [^<]+<\/h1>/);
    assert.match(page, /<dt>Anreise<\/dt><dd>Donnerstag, 1\. Juli 2027/);
    assert.match(page, /<dt>Abreise<\/dt><dd>Sonntag, 4\. Juli 2027/);
    assert.match(page, /<dt>Gäste<\/dt>/);
    assert.match(page, /<h2>Preis<\/h2>[\s\S]*<th scope="row" colspan="2">Gesamt<\/th>/);
    assert.match(page, /Stornierung anfragen/);

    const french = await book('2027-08-02', '2027-08-05', 'fr');
    const fallback = (await app.inject({ method: 'GET', url: `/g/${french.secret}` })).body;
    assert.match(fallback, /<h1>Booking [^<]+<\/h1>/);
    assert.match(fallback, /<dt>Check-in<\/dt><dd>lundi 2 août 2027/); // dates and money still in the booking's language
    assert.match(fallback, /<dt>Guests<\/dt>/);
    assert.match(fallback, /Request cancellation/);
  });

  it('serves the booking\'s issued invoices as PDF, and no other invoice', async () => {
    const page = await app.inject({ method: 'GET', url: `/g/${secret}` });
    const link = /href="([^"]+\/invoices\/[^"]+\.pdf)"/.exec(page.body)?.[1];
    assert.ok(link, 'the page links the invoice');
    const pdf = await app.inject({ method: 'GET', url: link });
    assert.equal(pdf.statusCode, 200);
    assert.equal(pdf.headers['content-type'], 'application/pdf');
    assert.equal(pdf.rawPayload.subarray(0, 5).toString(), '%PDF-');
    const invoiceId = /invoices\/([^.]+)\.pdf/.exec(link)![1];
    assert.equal((await app.inject({ method: 'GET', url: `/g/${otherSecret}/invoices/${invoiceId}.pdf` })).statusCode, 404);
  });

  it('serves the stay as an all-day .ics event', async () => {
    const response = await app.inject({ method: 'GET', url: `/g/${secret}/calendar.ics` });
    assert.equal(response.statusCode, 200);
    assert.match(String(response.headers['content-type']), /text\/calendar/);
    const event = new ICAL.Component(ICAL.parse(response.body)).getFirstSubcomponent('vevent')!;
    assert.equal(String(event.getFirstPropertyValue('dtstart')), '2027-04-05');
    assert.equal(String(event.getFirstPropertyValue('dtend')), '2027-04-08');
    assert.match(String(event.getFirstPropertyValue('summary')), /Duinhuis/);
  });

  it('answers 404 for unknown or malformed secrets, and shows nothing of another booking', async () => {
    for (const url of ['/g/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA', '/g/short', "/g/x'or'1'='1", `/g/${secret}x/calendar.ics`]) {
      const response = await app.inject({ method: 'GET', url });
      assert.equal(response.statusCode, 404, url);
    }
    const other = await app.inject({ method: 'GET', url: `/g/${otherSecret}` });
    assert.match(other.body, /juni 2027/);
    assert.doesNotMatch(other.body, /april 2027|INV-2027-001/);
  });

  it('is rate limited per client address, guessed links included', async () => {
    const limited = await startBookingApp(ctx.db, () => NOW, { rateLimit: { perMinute: 3, burst: 3 } });
    try {
      const get = (url: string, remoteAddress: string) => limited.inject({ method: 'GET', url, remoteAddress });
      assert.equal((await get(`/g/${secret}`, '198.51.100.1')).statusCode, 200);
      assert.equal((await get('/g/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA', '198.51.100.1')).statusCode, 404);
      assert.equal((await get('/g/BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB', '198.51.100.1')).statusCode, 404);
      const over = await get(`/g/${secret}`, '198.51.100.1');
      assert.equal(over.statusCode, 429);
      assert.ok(Number(over.headers['retry-after']) > 0);
      assert.equal((await get(`/g/${secret}`, '198.51.100.2')).statusCode, 200);
    } finally {
      await limited.close();
    }
  });

  /** The cancellation form as the booking page's browser sends it: from the server's public origin. */
  const requestCancellation = (bookingSecret: string, reason: string, headers: Record<string, string> = { origin: PUBLIC_ORIGIN }) => app.inject({
    method: 'POST', url: `/g/${bookingSecret}/cancellation-request`,
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers }, payload: `reason=${encodeURIComponent(reason)}`,
  });
  const cancellationMessages = async (bookingId: string) => (await ctx.db.query<{ body: string }>(
    `SELECT body FROM api.messages WHERE booking_id = $1 AND direction = 'inbound'`, [bookingId])).rows;

  it('records a cancellation request once, as an inbound message the host reads', async () => {
    const sent = await requestCancellation(otherSecret, 'Plans changed');
    assert.equal(sent.statusCode, 303);
    const page = await app.inject({ method: 'GET', url: sent.headers.location! });
    assert.match(page.body, /annuleringsverzoek is naar je verhuurder gestuurd/);
    assert.doesNotMatch(page.body, /<form/);
    const again = await requestCancellation(otherSecret, 'again');
    assert.equal(again.statusCode, 303);
    const messages = await client(app, org.secretKey).get('/v1/messages?direction=eq.inbound&select=subject,body,booking_id');
    const requests = messages.json<{ subject: string; body: string }[]>();
    assert.equal(requests.length, 1);
    assert.match(requests[0]!.subject, /^Cancellation request /);
    assert.equal(requests[0]!.body, 'Plans changed');
  });

  it('makes one request of many sent at the same moment: one message, and no more webhook events than one request', async () => {
    const single = await book('2027-09-13', '2027-09-16');
    const { id, secret: racing } = await book('2027-09-06', '2027-09-09');
    await fixtures(ctx.db, org.id).webhook();
    const notifications = async () => (await ctx.db.query<{ count: number }>(
      'SELECT count(*)::integer AS count FROM api.webhook_notifications WHERE organization_id = $1', [org.id])).rows[0]!.count;
    let before = await notifications();
    assert.equal((await requestCancellation(single.secret, 'alone')).statusCode, 303);
    const ofOneRequest = (await notifications()) - before;

    // Concurrent requests: on PostgreSQL each runs in its own transaction on its own connection, really at once.
    before = await notifications();
    const answers = await Promise.all(Array.from({ length: 15 }, (_, index) => requestCancellation(racing, `attempt ${index}`)));
    assert.deepEqual(answers.map((answer) => answer.statusCode), Array(15).fill(303));
    assert.equal((await cancellationMessages(id)).length, 1);
    assert.equal((await notifications()) - before, ofOneRequest);
    assert.equal(answers.filter((answer) => answer.headers.location!.endsWith('?requested=1')).length, 1, 'one answer made the request');

    // Open while its message exists: once the host deletes it, the guest may ask again.
    const removed = await app.inject({
      method: 'DELETE', url: `/v1/messages?booking_id=eq.${id}&direction=eq.inbound`, headers: { authorization: `Bearer ${org.secretKey}` },
    });
    assert.equal(removed.statusCode, 204, removed.body);
    assert.match((await app.inject({ method: 'GET', url: `/g/${racing}` })).body, /<form/);
    assert.equal((await requestCancellation(racing, 'asking again')).headers.location, `/g/${racing}?requested=1`);
    assert.deepEqual((await cancellationMessages(id)).map((message) => message.body), ['asking again']);
  });

  it('refuses the form from another origin, or naming none, with 403 SK647; a Referer of its own origin will do', async () => {
    const { id, secret: guarded } = await book('2027-10-04', '2027-10-07');
    const forged: Record<string, string>[] = [{ origin: 'https://evil.example' }, { origin: 'null' }, {}, { referer: 'https://evil.example/g/x' },
      { origin: 'https://evil.example', referer: `${PUBLIC_ORIGIN}/g/${guarded}` }, { origin: 'http://localhost:3000.evil.example' }];
    for (const headers of forged) {
      const refused = await requestCancellation(guarded, 'forged', headers);
      assert.equal(refused.statusCode, 403, JSON.stringify(headers));
      assert.equal(refused.json<{ code: string }>().code, 'SK647');
      assert.match(refused.json<{ message: string }>().message, /own page at http:\/\/localhost:3000/);
    }
    assert.deepEqual(await cancellationMessages(id), []);
    const viaReferer = await requestCancellation(guarded, 'from the page', { referer: `${PUBLIC_ORIGIN}/g/${guarded}` });
    assert.equal(viaReferer.statusCode, 303);
    assert.deepEqual((await cancellationMessages(id)).map((message) => message.body), ['from the page']);
  });
});
