import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { forEachBackend } from '../support/databases.js';
import { startBookingApp } from '../booking/support.js';
import { insert } from '../support/fixtures.js';
import { ALLOWED_ORIGIN, publishableKeyFor, widgetOrganization, type WidgetOrganization } from './support.js';

forEachBackend('widget pages and site keys', (ctx) => {
  let app: FastifyInstance;
  let org: WidgetOrganization;

  before(async () => {
    app = await startBookingApp(ctx.db);
    org = await widgetOrganization(ctx.db, 'Pages');
  });
  after(() => app.close());

  it('/w/<widget_id> holds the widget with its key, in the browser\'s language, framable only by allowed origins', async () => {
    const missing = await app.inject({ method: 'GET', url: `/w/${org.widget}` });
    assert.equal(missing.statusCode, 404, 'no publishable key yet');
    const key = await publishableKeyFor(app, org.secretKey, org.widget);
    const page = await app.inject({ method: 'GET', url: `/w/${org.widget}`, headers: { 'accept-language': 'nl-NL,nl;q=0.9,en;q=0.5' } });
    assert.equal(page.statusCode, 200);
    assert.match(page.body, new RegExp(`<staykit-widget key="${key}" api="/" lang="nl-NL">`));
    assert.match(page.body, /<script src="\/widget\.js"><\/script>/);
    assert.match(String(page.headers['content-security-policy']), new RegExp(`frame-ancestors 'self' ${ALLOWED_ORIGIN.replace(/\./g, '\\.')};`));
    const english = await app.inject({ method: 'GET', url: `/w/${org.widget}`, headers: { 'accept-language': '"><script>' } });
    assert.doesNotMatch(english.body, /lang="">|<script>alert/);
    for (const url of ['/w/not-a-uuid', '/w/00000000-0000-4000-8000-000000000000']) {
      assert.equal((await app.inject({ method: 'GET', url })).statusCode, 404, url);
    }
  });

  it('/widget.js is the built widget, for any page', { skip: !existsSync('web/widget/dist/widget.js') && 'run npm run build:web' }, async () => {
    const script = await app.inject({ method: 'GET', url: '/widget.js' });
    assert.equal(script.statusCode, 200);
    assert.match(String(script.headers['content-type']), /^text\/javascript/);
    assert.equal(script.headers['access-control-allow-origin'], '*');
    assert.match(script.body, /staykit-widget/);
  });

  it('a site key sees the site\'s listed units and attributes its bookings to the site', async () => {
    const site = await insert<{ id: string }>(ctx.db, 'sites', { organization_id: org.id, name: 'Seaside', allowed_origins: '{https://seaside.example}' });
    await insert(ctx.db, 'site_listings', { organization_id: org.id, site_id: site.id, product_id: org.otherListed });
    const created = await app.inject({
      method: 'POST', url: '/v1/publishable-keys', headers: { authorization: `Bearer ${org.secretKey}` }, payload: { site_id: site.id },
    });
    assert.equal(created.statusCode, 201, created.body);
    const key = created.json<{ key: string }>().key;
    const auth = { authorization: `Bearer ${key}`, origin: 'https://seaside.example' };
    const catalogue = await app.inject({ method: 'GET', url: '/v1/widget', headers: auth });
    assert.deepEqual(catalogue.json<{ site: { id: string }; products: { id: string }[] }>().products.map((p) => p.id), [org.otherListed]);
    const listed = await app.inject({ method: 'POST', url: '/v1/quote', headers: auth, payload: { product_id: org.listed, interval: { start: '2027-04-05', end: '2027-04-08' }, occupancy: {} } });
    assert.equal(listed.statusCode, 403);
    // The public must say who books: a name and an e-mail address (422 SK648 naming what is missing).
    const anonymous = await app.inject({
      method: 'POST', url: '/v1/book', headers: auth,
      payload: { product_id: org.otherListed, interval: { start: '2027-04-05', end: '2027-04-08' }, occupancy: { [org.adults]: 1 }, contact: { first_name: 'Ana' } },
    });
    assert.equal(anonymous.statusCode, 422, anonymous.body);
    assert.deepEqual([anonymous.json().code, anonymous.json().details], ['SK648', 'missing: an e-mail address']);
    const booked = await app.inject({
      method: 'POST', url: '/v1/book', headers: auth,
      payload: { product_id: org.otherListed, interval: { start: '2027-04-05', end: '2027-04-08' }, occupancy: { [org.adults]: 1 },
        contact: { first_name: 'Ana', email: 'ana@example.com' } },
    });
    assert.equal(booked.statusCode, 201, booked.body);
    assert.equal(booked.headers['access-control-allow-origin'], 'https://seaside.example');
    const { booking_id: id, guest_url: guestUrl } = booked.json<{ booking_id: string; guest_url: string }>();
    const row = await app.inject({ method: 'GET', url: `/v1/bookings?id=eq.${id}&select=site_id,widget_id,secret`, headers: { authorization: `Bearer ${org.secretKey}` } });
    const [booking] = row.json<{ site_id: string; widget_id: string | null; secret: string }[]>();
    assert.equal(booking!.site_id, site.id);
    assert.equal(booking!.widget_id, null);
    assert.equal(new URL(guestUrl).pathname, `/g/${booking!.secret}`);
  });
});
