import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { forEachBackend } from '../support/databases.js';
import { createKey } from '../support/app.js';
import { NOW, startBookingApp } from '../booking/support.js';
import { ALLOWED_ORIGIN, publishableKeyFor, widgetOrganization, type WidgetOrganization } from './support.js';

const stay = (product: string, occupancy: Record<string, number>, start = '2027-04-05', end = '2027-04-08') => ({
  product_id: product, interval: { start, end }, occupancy,
});

forEachBackend('publishable keys', (ctx) => {
  let app: FastifyInstance;
  let org: WidgetOrganization;
  let pk: string;
  let otherOrgPk: string;

  const call = (key: string, options: InjectOptions) =>
    app.inject({ ...options, headers: { authorization: `Bearer ${key}`, ...(options.headers ?? {}) } });
  const secret = (options: InjectOptions) => call(org.secretKey, options);

  before(async () => {
    app = await startBookingApp(ctx.db);
    org = await widgetOrganization(ctx.db, 'Seaside Rentals');
    pk = await publishableKeyFor(app, org.secretKey, org.widget);
    const other = await widgetOrganization(ctx.db, 'Mountain Rentals');
    otherOrgPk = await publishableKeyFor(app, other.secretKey, other.widget);
  });
  after(() => app.close());

  it('reads the public catalogue of its widget: listed units only, public fields only', async () => {
    const response = await call(pk, { method: 'GET', url: '/v1/widget' });
    assert.equal(response.statusCode, 200, response.body);
    const catalogue = response.json<{ widget: { id: string }; products: Record<string, unknown>[]; services: { id: string }[]; capacity_groups: { id: string }[] }>();
    assert.equal(catalogue.widget.id, org.widget);
    assert.deepEqual(catalogue.products.map((p) => p.id), [org.listed]);
    assert.deepEqual(catalogue.products[0]!.name, { default: 'Dune House', nl: 'Duinhuis' });
    for (const hidden of ['exact_address', 'ical_export_secret', 'ical_export_secret_no_details', 'organization_id']) {
      assert.ok(!(hidden in catalogue.products[0]!), `${hidden} must not be in the catalogue`);
    }
    assert.doesNotMatch(response.body, /Zeeweg|Owner Cottage|Forest Lodge/);
    assert.deepEqual(catalogue.services.map((s) => s.id).sort(), [org.cleaning, org.email, org.breakfast, org.linen].sort());
    assert.deepEqual(catalogue.capacity_groups.map((g) => g.id).sort(), [org.adults, org.children].sort());
  });

  it('uses availability, search and quote for its listed unit only', async () => {
    const availability = await call(pk, { method: 'GET', url: `/v1/availability?product_ids=${org.listed}&start=2027-04-01&end=2027-04-30` });
    assert.equal(availability.statusCode, 200, availability.body);
    const all = await call(pk, { method: 'GET', url: '/v1/availability?start=2027-04-01&end=2027-04-30' });
    assert.deepEqual(all.json<{ product_id: string }[]>().map((p) => p.product_id), [org.listed]);
    const search = await call(pk, { method: 'POST', url: '/v1/search', payload: { interval: { start: '2027-04-05', end: '2027-04-08' } } });
    assert.equal(search.statusCode, 200, search.body);
    assert.deepEqual(search.json<{ productId: string }[]>().map((p) => p.productId), [org.listed]);
    const quote = await call(pk, { method: 'POST', url: '/v1/quote', payload: { ...stay(org.listed, { [org.adults]: 2 }), form_values: { [org.email]: 'a@example.com' }, contact: { first_name: 'Ana' } } });
    assert.equal(quote.statusCode, 200, quote.body);
    assert.equal(quote.json<{ total: number }>().total, 3 * 10000 + 5000);
  });

  it("answers 403 SK721 for another widget's unit, an unlisted unit and another organization's unit", async () => {
    for (const product of [org.otherListed, org.unlisted, org.otherListed.toUpperCase()]) {
      for (const request of [
        { method: 'GET', url: `/v1/availability?product_ids=${product}` },
        { method: 'GET', url: `/v1/availability?product_id=${org.listed}&product_id=${product}` },
        { method: 'POST', url: '/v1/quote', payload: stay(product, { [org.adults]: 2 }) },
        { method: 'POST', url: '/v1/book', payload: stay(product, { [org.adults]: 2 }) },
        { method: 'POST', url: '/v1/cart-validate', payload: { items: [{ id: 'a', ...stay(product, { [org.adults]: 2 }) }] } },
        { method: 'POST', url: '/v1/cart-checkout', payload: { cart: { items: [{ id: 'a', ...stay(product, { [org.adults]: 2 }) }] } } },
      ] as InjectOptions[]) {
        const response = await call(pk, request);
        assert.equal(response.statusCode, 403, `${request.method} ${request.url}: ${response.body}`);
        assert.equal(response.json<{ code: string }>().code, 'SK721');
      }
    }
    const foreign = await call(otherOrgPk, { method: 'POST', url: '/v1/quote', payload: stay(org.listed, { [org.adults]: 2 }) });
    assert.equal(foreign.statusCode, 403);
  });

  it('gets 403 SK720 on every resource, in every method, and on every operation outside the booking flow', async () => {
    const { rows } = await ctx.db.query<{ name: string }>(
      `SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
       WHERE n.nspname = 'api' AND c.relkind IN ('r', 'v', 'p') ORDER BY 1`);
    assert.ok(rows.length > 40);
    for (const { name } of rows) {
      for (const method of ['GET', 'POST', 'PATCH', 'DELETE'] as const) {
        const response = await call(pk, { method, url: `/v1/${name}?id=eq.${org.listed}`, payload: method === 'GET' || method === 'DELETE' ? undefined : {} });
        assert.equal(response.statusCode, 403, `${method} /v1/${name}: ${response.statusCode} ${response.body}`);
        assert.equal(response.json<{ code: string }>().code, 'SK720');
      }
    }
    for (const request of [
      { method: 'POST', url: '/v1/create-product', payload: { name: { default: 'X' }, rent_period: 'nightly', timezone: 'UTC' } },
      { method: 'POST', url: '/v1/webhook-test', payload: {} },
      { method: 'GET', url: '/v1/publishable-keys' },
      { method: 'POST', url: '/v1/publishable-keys', payload: { widget_id: org.widget } },
      { method: 'POST', url: '/v1/rpc/anything', payload: {} },
      { method: 'GET', url: `/v1/availability?product_ids=${org.listed}&perform_sync=true` },
    ] as InjectOptions[]) {
      const response = await call(pk, request);
      assert.equal(response.statusCode, 403, `${request.method} ${request.url}: ${response.body}`);
    }
  });

  it('books its listed unit; the booking is attributed to the widget and counted, and nothing of it is readable with the key', async () => {
    const booked = await call(pk, {
      method: 'POST', url: '/v1/book',
      payload: { ...stay(org.listed, { [org.adults]: 2 }), form_values: { [org.email]: 'guest@example.com' }, contact: { first_name: 'Ana' } },
    });
    assert.equal(booked.statusCode, 201, booked.body);
    const { booking_id: bookingId, guest_url: guestUrl } = booked.json<{ booking_id: string; guest_url: string }>();
    assert.match(guestUrl, /^http:\/\/localhost(:\d+)?\/g\/[0-9A-Za-z]{32}$/);
    const bookings = await secret({ method: 'GET', url: `/v1/bookings?id=eq.${bookingId}&select=widget_id,site_id` });
    assert.deepEqual(bookings.json(), [{ widget_id: org.widget, site_id: null }]);
    const read = await call(pk, { method: 'GET', url: `/v1/bookings?id=eq.${bookingId}` });
    assert.equal(read.statusCode, 403);
    const contacts = await call(pk, { method: 'GET', url: '/v1/contacts' });
    assert.equal(contacts.statusCode, 403);
    const analytics = await secret({ method: 'GET', url: `/v1/widget_analytics?widget_id=eq.${org.widget}&select=event,product_id,booking_id&order=created_at` });
    const events = analytics.json<{ event: string; product_id: string | null; booking_id: string | null }[]>();
    assert.ok(events.some((e) => e.event === 'view'), JSON.stringify(events));
    assert.ok(events.some((e) => e.event === 'quote' && e.product_id === org.listed), JSON.stringify(events));
    assert.deepEqual(events.filter((e) => e.event === 'booking'), [{ event: 'booking', product_id: org.listed, booking_id: bookingId }]);
  });

  it('attributes its bookings to its own widget whatever the body names', async () => {
    const booked = await call(pk, {
      method: 'POST', url: '/v1/book',
      payload: { ...stay(org.listed, { [org.adults]: 1 }, '2027-07-05', '2027-07-08'), form_values: { [org.email]: 'c@example.com' }, contact: { first_name: 'Ana' }, widget_id: org.otherWidget },
    });
    assert.equal(booked.statusCode, 201, booked.body);
    const id = booked.json<{ booking_id: string }>().booking_id;
    const row = await secret({ method: 'GET', url: `/v1/bookings?id=eq.${id}&select=widget_id` });
    assert.deepEqual(row.json(), [{ widget_id: org.widget }]);
  });

  it('cannot book silently: "silent": true is 403 SK646 on /book and /cart-checkout and books nothing; a secret key still can', async () => {
    const count = async () => (await ctx.db.query<{ n: number }>('SELECT count(*)::integer AS n FROM api.bookings WHERE organization_id = $1', [org.id])).rows[0]!.n;
    const before = await count();
    const item = { ...stay(org.listed, { [org.adults]: 1 }, '2027-11-01', '2027-11-04'), form_values: { [org.email]: 'quiet@example.com' }, contact: { first_name: 'Ana' } };
    for (const request of [
      { url: '/v1/book', payload: { ...item, silent: true } },
      { url: '/v1/cart-checkout', payload: { cart: { items: [{ id: 'a', ...item }] }, silent: true } },
      { url: '/v1/cart-validate', payload: { items: [{ id: 'a', ...item }], silent: true } },
      { url: '/v1/quote', payload: { ...item, silent: true } },
    ]) {
      const refused = await call(pk, { method: 'POST', ...request, headers: { origin: ALLOWED_ORIGIN } });
      assert.equal(refused.statusCode, 403, `${request.url}: ${refused.body}`);
      assert.equal(refused.json<{ code: string }>().code, 'SK646');
      assert.match(refused.json<{ message: string }>().message, /cannot make a silent booking/);
    }
    assert.equal(await count(), before);

    const loud = await call(pk, { method: 'POST', url: '/v1/book', payload: { ...item, silent: false } });
    assert.equal(loud.statusCode, 201, loud.body);
    const quietly = await secret({ method: 'POST', url: '/v1/book', payload: { ...item, interval: { start: '2027-11-10', end: '2027-11-13' }, silent: true } });
    assert.equal(quietly.statusCode, 201, quietly.body);
    const { rows } = await ctx.db.query<{ id: string; silent: boolean }>(
      'SELECT id, silent FROM api.bookings WHERE id = ANY ($1::uuid[]) ORDER BY silent',
      [[loud.json<{ booking_id: string }>().booking_id, quietly.json<{ booking_id: string }>().booking_id]]);
    assert.deepEqual(rows.map((row) => row.silent), [false, true]);

    // The database holds the line too: no statement of a publishable key's transaction makes a booking silent.
    await assert.rejects(ctx.db.transaction(async (tx) => {
      await tx.query("SELECT set_config('staykit.organization_id', $1, true), set_config('staykit.key_id', $2, true)", [org.id, pk]);
      await tx.query('UPDATE api.bookings SET silent = true WHERE id = $1', [rows[0]!.id]);
    }), (error: { code?: string }) => error.code === 'SK646');
  });

  it("books only with the guest's name and e-mail address: 422 SK648 saying what is missing; a secret key needs neither", async () => {
    const item = stay(org.listed, { [org.adults]: 1 }, '2027-12-06', '2027-12-09');
    // (This unit's booking form asks for the e-mail itself; pages.test.ts shows a unit without one.)
    for (const [payload, missing] of [
      [{ ...item, contact: {}, form_values: { [org.email]: 'ana@example.com' } }, 'missing: a name'],
      [{ ...item, form_values: { [org.email]: 'ana@example.com' } }, 'missing: a name'],
    ] as const) {
      const { contact, ...fields } = payload as typeof payload & { contact?: object };
      const cart = { cart: { items: [{ id: 'a', ...fields }] }, ...(contact ? { contact } : {}) };
      for (const request of [{ url: '/v1/book', payload }, { url: '/v1/cart-checkout', payload: cart }]) {
        const refused = await call(pk, { method: 'POST', ...request });
        assert.equal(refused.statusCode, 422, `${request.url}: ${refused.body}`);
        const body = refused.json<{ code: string; details: string }>();
        assert.equal(body.code, request.url === '/v1/book' ? 'SK648' : 'SK630', refused.body);
        assert.match(refused.body, new RegExp(missing));
      }
    }
    const reachable = await call(pk, { method: 'POST', url: '/v1/book', payload: { ...item, contact: { last_name: 'Berg' }, form_values: { [org.email]: 'ana@example.com' } } });
    assert.equal(reachable.statusCode, 201, reachable.body);
    const byStaff = await secret({ method: 'POST', url: '/v1/book', payload: { ...item, interval: { start: '2027-12-13', end: '2027-12-16' }, form_values: { [org.email]: 'x@example.com' } } });
    assert.equal(byStaff.statusCode, 201, byStaff.body);
  });

  it('gives the guest link to the booking request only, not to a replay of its Idempotency-Key', async () => {
    const request = {
      method: 'POST', url: '/v1/book', headers: { 'idempotency-key': 'widget-replay-1' },
      payload: { ...stay(org.listed, { [org.adults]: 1 }, '2027-06-07', '2027-06-10'), form_values: { [org.email]: 'b@example.com' }, contact: { first_name: 'Ana' } },
    } as const;
    const first = await call(pk, request);
    assert.equal(first.statusCode, 201, first.body);
    assert.ok(first.json<{ guest_url?: string }>().guest_url);
    const replay = await call(pk, request);
    assert.equal(replay.statusCode, 201);
    assert.equal(replay.headers['idempotent-replayed'], 'true');
    assert.equal(replay.json<{ booking_id: string }>().booking_id, first.json<{ booking_id: string }>().booking_id);
    assert.equal(replay.json<{ guest_url?: string }>().guest_url, undefined);
  });

  it('answers CORS only for the widget\'s allowed origins, and refuses other pages with 403 SK722 they may read', async () => {
    const preflight = (origin: string) => app.inject({
      method: 'OPTIONS', url: '/v1/quote',
      headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization,content-type' },
    });
    const allowed = await preflight(ALLOWED_ORIGIN);
    assert.equal(allowed.statusCode, 204);
    assert.equal(allowed.headers['access-control-allow-origin'], ALLOWED_ORIGIN);
    assert.match(String(allowed.headers['access-control-allow-headers']), /authorization/);
    const refused = await preflight('https://evil.example');
    assert.equal(refused.headers['access-control-allow-origin'], undefined);

    const quote = (origin: string, key = pk) => call(key, {
      method: 'POST', url: '/v1/quote', headers: { origin },
      payload: { ...stay(org.listed, { [org.adults]: 2 }, '2027-05-03', '2027-05-06'), form_values: { [org.email]: 'a@example.com' }, contact: { first_name: 'Ana' } },
    });
    const ok = await quote(ALLOWED_ORIGIN);
    assert.equal(ok.statusCode, 200);
    assert.equal(ok.headers['access-control-allow-origin'], ALLOWED_ORIGIN);
    assert.match(String(ok.headers.vary), /origin/i);
    // The other widget's page is an allowed origin somewhere, but not for this key: it reads the refusal, no quote.
    for (const origin of ['https://evil.example', 'https://lodge.example']) {
      const response = await quote(origin);
      assert.equal(response.statusCode, 403);
      assert.deepEqual(Object.keys(response.json<object>()).sort(), ['code', 'details', 'hint', 'message']);
      assert.equal(response.json<{ code: string }>().code, 'SK722');
      assert.equal(response.headers['access-control-allow-origin'], origin);
      assert.match(String(response.headers.vary), /origin/i);
    }
    // Secret keys never get CORS headers: they do not belong in a browser.
    const withSecret = await quote(ALLOWED_ORIGIN, org.secretKey);
    assert.equal(withSecret.statusCode, 200);
    assert.equal(withSecret.headers['access-control-allow-origin'], undefined);
  });

  it('manages keys with a secret key of the widgets scope: list, revoke (401 afterwards), 404 for another organization\'s widget', async () => {
    const readOnly = await createKey(ctx.db, org.id, ['bookings:read']);
    const refused = await call(readOnly, { method: 'POST', url: '/v1/publishable-keys', payload: { widget_id: org.widget } });
    assert.equal(refused.statusCode, 403);
    const bad = await secret({ method: 'POST', url: '/v1/publishable-keys', payload: { widget_id: org.widget, site_id: org.widget } });
    assert.equal(bad.statusCode, 400);
    assert.equal(bad.json<{ code: string }>().code, 'SK725');
    const foreignWidget = await call(otherOrgPk, { method: 'GET', url: '/v1/widget' });
    const other = foreignWidget.json<{ widget: { id: string } }>().widget.id;
    const missing = await secret({ method: 'POST', url: '/v1/publishable-keys', payload: { widget_id: other } });
    assert.equal(missing.statusCode, 404);

    const key = await publishableKeyFor(app, org.secretKey, org.widget);
    const listed = await secret({ method: 'GET', url: '/v1/publishable-keys' });
    assert.ok(listed.json<{ key: string }[]>().some((k) => k.key === key));
    const revoked = await secret({ method: 'DELETE', url: `/v1/publishable-keys/${key}` });
    assert.equal(revoked.statusCode, 200);
    const after = await app.inject({ method: 'GET', url: '/v1/widget', headers: { authorization: `Bearer ${key}` } });
    // The key may be cached for up to 2 s; a fresh app sees the revocation at once.
    const fresh = await startBookingApp(ctx.db);
    try {
      const response = await fresh.inject({ method: 'GET', url: '/v1/widget', headers: { authorization: `Bearer ${key}` } });
      assert.equal(response.statusCode, 401);
      assert.equal(response.json<{ code: string }>().code, 'SK401');
      // The widget's page may read the refusal (so it can say the form is no longer active), and nothing else.
      const fromPage = await fresh.inject({ method: 'GET', url: '/v1/widget', headers: { authorization: `Bearer ${key}`, origin: ALLOWED_ORIGIN } });
      assert.equal(fromPage.statusCode, 401);
      assert.equal(fromPage.headers['access-control-allow-origin'], ALLOWED_ORIGIN);
      assert.match(String(fromPage.headers.vary), /origin/i);
      assert.deepEqual(Object.keys(fromPage.json<object>()).sort(), ['code', 'details', 'hint', 'message']);
      assert.equal(fromPage.json<{ code: string }>().code, 'SK401');
      assert.equal(fromPage.headers['access-control-expose-headers'], undefined, 'a refusal exposes no other header');
    } finally {
      await fresh.close();
    }
    assert.ok([200, 401].includes(after.statusCode));
    const made = await app.inject({ method: 'GET', url: '/v1/widget', headers: { authorization: 'Bearer pk_madeUpmadeUpmadeUpmadeUpmadeUp12' } });
    assert.equal(made.statusCode, 401);
  });

  it('is rate limited per client address', async () => {
    const limited = await startBookingApp(ctx.db, () => NOW, { rateLimit: { perMinute: 3, burst: 3 } });
    try {
      const widget = (remoteAddress: string) =>
        limited.inject({ method: 'GET', url: '/v1/widget', remoteAddress, headers: { authorization: `Bearer ${pk}` } });
      for (let i = 0; i < 3; i++) assert.equal((await widget('203.0.113.7')).statusCode, 200);
      const over = await widget('203.0.113.7');
      assert.equal(over.statusCode, 429);
      assert.equal(over.json<{ code: string }>().code, 'SK429');
      assert.equal((await widget('203.0.113.8')).statusCode, 200);
    } finally {
      await limited.close();
    }
  });
});
