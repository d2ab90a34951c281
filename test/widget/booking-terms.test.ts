/**
 * Booking terms and the cancellation policy through the real app (migration 0225, docs/widget.md): the widget's
 * public catalogue shows the unit's cancellation policy and the organization's booking terms and nothing more of its
 * settings; while terms are set, a publishable key's /book and /cart-checkout need "accept_terms": true (422 SK649
 * otherwise, nothing booked), and the acceptance is recorded on the booking (terms_accepted_at), readable with
 * bookings:read and written by nobody; a secret key need not accept; the database holds the line on its own.
 */
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { forEachBackend } from '../support/databases.js';
import { createKey } from '../support/app.js';
import { startBookingApp } from '../booking/support.js';
import { publishableKeyFor, widgetOrganization, type WidgetOrganization } from './support.js';
import { refundBands, type CancellationRule } from '../../src/common/cancellation-policy.js';

const TERMS = { default: 'Pets are not allowed. Quiet after 22:00.', nl: 'Geen huisdieren. Stilte na 22:00.', de: 'Keine Haustiere. Ruhe ab 22:00.' };
const POLICY = [{ days_before_arrival: 30, refund_percentage: 100 }, { days_before_arrival: 14, refund_percentage: 50 }];

forEachBackend('booking terms and the cancellation policy', (ctx) => {
  let app: FastifyInstance;
  let org: WidgetOrganization;
  let pk: string;

  const call = (key: string, options: InjectOptions) =>
    app.inject({ ...options, headers: { authorization: `Bearer ${key}`, ...(options.headers ?? {}) } });
  const secret = (options: InjectOptions) => call(org.secretKey, options);
  const bookingCount = async () =>
    (await ctx.db.query<{ n: number }>('SELECT count(*)::integer AS n FROM api.bookings WHERE organization_id = $1', [org.id])).rows[0]!.n;
  /** A stay of the listed unit a guest may book (the unit's form asks for the e-mail itself). */
  const stay = (start: string, end: string, email = 'guest@example.com') => ({
    product_id: org.listed, interval: { start, end }, occupancy: { [org.adults]: 2 }, form_values: { [org.email]: email },
    contact: { first_name: 'Ana', last_name: 'Berg' },
  });
  const setTerms = async (terms: unknown) => {
    const response = await secret({ method: 'PATCH', url: `/v1/organizations?id=eq.${org.id}`, payload: { settings: { ...otherSettings, booking_terms: terms } } });
    assert.equal(response.statusCode < 300, true, response.body);
  };
  /** Settings the catalogue must never show. */
  const otherSettings = {
    exchange_rates: { EUR: { USD: 1.1 } },
    invoices: { seller: { legal_name: 'Seaside Holding B.V.', vat_id: 'NL999999999B01' }, payment_instructions: 'IBAN NL91 ABNA 0417 1643 00' },
  };

  before(async () => {
    app = await startBookingApp(ctx.db);
    org = await widgetOrganization(ctx.db, 'Seaside Rentals');
    pk = await publishableKeyFor(app, org.secretKey, org.widget);
    await ctx.db.query('UPDATE api.products SET cancellation_policy = $1 WHERE id = $2', [JSON.stringify(POLICY), org.listed]);
  });
  after(() => app.close());

  it('the catalogue shows the unit\'s cancellation policy and the booking terms (null without), and nothing more of the settings', async () => {
    const without = await call(pk, { method: 'GET', url: '/v1/widget' });
    assert.equal(without.statusCode, 200, without.body);
    assert.equal(without.json<{ booking_terms: unknown }>().booking_terms, null);

    await setTerms(TERMS);
    const response = await call(pk, { method: 'GET', url: '/v1/widget' });
    assert.equal(response.statusCode, 200, response.body);
    const catalogue = response.json<Record<string, unknown> & { products: Record<string, unknown>[] }>();
    assert.deepEqual(Object.keys(catalogue).sort(), ['attributes', 'booking_terms', 'capacity_groups', 'products', 'services', 'site', 'widget']);
    assert.deepEqual(catalogue.booking_terms, TERMS);
    assert.deepEqual(catalogue.products[0]!.cancellation_policy, POLICY);
    assert.deepEqual(Object.keys(catalogue.products[0]!).sort(), [
      'approximate_address', 'approximate_coordinates', 'attribute_option_ids', 'cancellation_policy', 'capacities', 'confirmation_message',
      'cta', 'currency', 'description', 'id', 'images', 'interaction', 'latest_arrival_time', 'name', 'rent_period', 'service_ids', 'timezone',
    ]);
    assert.doesNotMatch(response.body, /Seaside Holding|NL999999999B01|IBAN|exchange_rates|1\.1/);

    // Plain text is shown as it is.
    await setTerms('Check-in from 15:00.');
    assert.equal((await call(pk, { method: 'GET', url: '/v1/widget' })).json<{ booking_terms: unknown }>().booking_terms, 'Check-in from 15:00.');
    // The publishable key still reads no organization (nor any other resource) as such.
    assert.equal((await call(pk, { method: 'GET', url: '/v1/organizations' })).statusCode, 403);
  });

  it('booking terms are text or a MultiLanguageString with a default, not blank: anything else is refused when written', async () => {
    for (const bad of [5, '   ', { nl: 'Geen huisdieren' }, { default: ' ' }, { default: 'ok', nl: 3 }, ['terms'], 'x'.repeat(20_001)]) {
      const response = await secret({ method: 'PATCH', url: `/v1/organizations?id=eq.${org.id}`, payload: { settings: { booking_terms: bad } } });
      assert.equal(response.statusCode, 400, `${JSON.stringify(bad).slice(0, 40)}: ${response.body}`);
      assert.equal(response.json<{ code: string }>().code, '23514');
      assert.match(response.body, /organizations_booking_terms/);
    }
  });

  it('while terms are set, a publishable key\'s /book and /cart-checkout without accept_terms are 422 SK649 and book nothing', async () => {
    await setTerms(TERMS);
    const before = await bookingCount();
    const item = stay('2027-05-03', '2027-05-06');
    const { contact, ...fields } = item;
    for (const request of [
      { url: '/v1/book', payload: item },
      { url: '/v1/book', payload: { ...item, accept_terms: false } },
      { url: '/v1/cart-checkout', payload: { cart: { items: [{ id: 'a', ...fields }] }, contact } },
      { url: '/v1/cart-checkout', payload: { cart: { items: [{ id: 'a', ...fields }] }, contact, accept_terms: false } },
    ]) {
      const refused = await call(pk, { method: 'POST', ...request });
      assert.equal(refused.statusCode, 422, `${request.url}: ${refused.body}`);
      const body = refused.json<{ code: string; message: string; hint: string }>();
      assert.equal(body.code, 'SK649', refused.body);
      assert.match(body.message, /must accept the booking terms/);
      assert.match(body.hint, /accept_terms/);
    }
    assert.equal(await bookingCount(), before);
    // A value that is not a boolean is a malformed request, not an acceptance.
    const malformed = await call(pk, { method: 'POST', url: '/v1/book', payload: { ...item, accept_terms: 'yes' } });
    assert.equal(malformed.statusCode, 400, malformed.body);
    assert.deepEqual([malformed.json<{ code: string }>().code, malformed.json<{ message: string }>().message], ['SK601', 'accept_terms must be a boolean']);
    // Validating a cart says it per item, as the checkout would refuse; with the acceptance the item is valid.
    const validation = await call(pk, { method: 'POST', url: '/v1/cart-validate', payload: { items: [{ id: 'a', ...fields }], contact } });
    assert.equal(validation.statusCode, 200, validation.body);
    assert.equal(validation.json<{ valid: boolean; errors: { code: string }[] }[]>()[0]!.errors[0]!.code, 'SK649');
    const accepted = await call(pk, { method: 'POST', url: '/v1/cart-validate', payload: { items: [{ id: 'a', ...fields }], contact, accept_terms: true } });
    assert.deepEqual(accepted.json<{ valid: boolean }[]>().map((row) => row.valid), [true]);
    // A quote is not a booking: it needs no acceptance.
    assert.equal((await call(pk, { method: 'POST', url: '/v1/quote', payload: item })).statusCode, 200);
    assert.equal(await bookingCount(), before);
  });

  it('with accept_terms: true the publishable key books, and the booking records when the guest accepted', async () => {
    await setTerms(TERMS);
    const booked = await call(pk, { method: 'POST', url: '/v1/book', payload: { ...stay('2027-05-10', '2027-05-13'), accept_terms: true } });
    assert.equal(booked.statusCode, 201, booked.body);
    const { fields, contact } = (() => { const { contact: c, ...rest } = stay('2027-05-17', '2027-05-20'); return { fields: rest, contact: c }; })();
    const cart = await call(pk, { method: 'POST', url: '/v1/cart-checkout', payload: { cart: { items: [{ id: 'a', ...fields }] }, contact, accept_terms: true } });
    assert.equal(cart.statusCode, 201, cart.body);
    const ids = [booked.json<{ booking_id: string }>().booking_id, cart.json<{ items: { booking_id: string }[] }>().items[0]!.booking_id];

    // A key that may only read bookings sees the acceptance.
    const reader = await createKey(ctx.db, org.id, ['bookings:read']);
    const rows = await call(reader, { method: 'GET', url: `/v1/bookings?id=in.(${ids.join(',')})&select=id,terms_accepted_at,created_at` });
    assert.equal(rows.statusCode, 200, rows.body);
    const read = rows.json<{ id: string; terms_accepted_at: string | null; created_at: string }[]>();
    assert.equal(read.length, 2);
    for (const row of read) {
      assert.ok(row.terms_accepted_at, `booking ${row.id} records the acceptance`);
      assert.equal(Date.parse(row.terms_accepted_at), Date.parse(row.created_at), 'accepted when the booking was made');
    }
    // Nobody changes it through the API: the column is not writable (ignored, or 400 when the client asks to be told).
    const strict = await secret({ method: 'PATCH', url: `/v1/bookings?id=eq.${ids[0]}`, headers: { prefer: 'handling=strict' }, payload: { terms_accepted_at: null } });
    assert.equal(strict.statusCode, 400, strict.body);
    const ignored = await secret({ method: 'PATCH', url: `/v1/bookings?id=eq.${ids[0]}`, payload: { terms_accepted_at: null } });
    assert.ok(ignored.statusCode < 300, ignored.body);
    const { rows: [stored] } = await ctx.db.query<{ terms_accepted_at: Date | null }>('SELECT terms_accepted_at FROM api.bookings WHERE id = $1', [ids[0]]);
    assert.ok(stored!.terms_accepted_at);
  });

  it('a secret key\'s server need not send accept_terms (nothing recorded); when it does, the acceptance is recorded', async () => {
    await setTerms(TERMS);
    const plain = await secret({ method: 'POST', url: '/v1/book', payload: stay('2027-06-07', '2027-06-10') });
    assert.equal(plain.statusCode, 201, plain.body);
    const accepted = await secret({ method: 'POST', url: '/v1/book', payload: { ...stay('2027-06-14', '2027-06-17'), accept_terms: true } });
    assert.equal(accepted.statusCode, 201, accepted.body);
    const rows = await secret({
      method: 'GET',
      url: `/v1/bookings?id=in.(${plain.json<{ booking_id: string }>().booking_id},${accepted.json<{ booking_id: string }>().booking_id})&select=id,terms_accepted_at`,
    });
    const byId = new Map(rows.json<{ id: string; terms_accepted_at: string | null }[]>().map((row) => [row.id, row.terms_accepted_at]));
    assert.equal(byId.get(plain.json<{ booking_id: string }>().booking_id), null);
    assert.ok(byId.get(accepted.json<{ booking_id: string }>().booking_id));
  });

  it('without booking terms a publishable key books without accept_terms, and nothing is recorded', async () => {
    await setTerms(null);
    const booked = await call(pk, { method: 'POST', url: '/v1/book', payload: stay('2027-07-05', '2027-07-08') });
    assert.equal(booked.statusCode, 201, booked.body);
    const { rows: [row] } = await ctx.db.query<{ terms_accepted_at: Date | null }>(
      'SELECT terms_accepted_at FROM api.bookings WHERE id = $1', [booked.json<{ booking_id: string }>().booking_id]);
    assert.equal(row!.terms_accepted_at, null);
  });

  it('the policy\'s words follow the database\'s refunds: each band says what a cancellation that many days before arrival gets back', async () => {
    const rule = (days: number, percentage: number): CancellationRule => ({ days_before_arrival: days, refund_percentage: percentage });
    const policies = [[], POLICY, [rule(0, 100)], [rule(30, 0), rule(7, 50)], [rule(60, 100), rule(30, 100), rule(7, 0), rule(3, 0)], [rule(1, 80), rule(10, 80)]];
    for (const policy of policies) {
      const bands = refundBands(policy);
      for (let days = -3; days <= 70; days++) {
        const said = bands === 'everything' ? 100 : bands.find((band) => days >= band.days)?.percentage ?? 0;
        const { rows: [refunded] } = await ctx.db.query<{ percentage: number }>(
          'SELECT staykit_internal.policy_refund_percentage($1::jsonb, $2) AS percentage', [JSON.stringify(policy), days]);
        assert.equal(said, refunded!.percentage, `${JSON.stringify(policy)}, cancelled ${days} days before arrival`);
      }
    }
  });

  it('the database refuses a publishable key\'s booking without the acceptance whatever the statement (SK649)', async () => {
    await setTerms(TERMS);
    let inserted: { accepted: boolean } | undefined;
    const inKeyTransaction = (accepted: boolean) => ctx.db.transaction(async (tx) => {
      await tx.query("SELECT set_config('staykit.organization_id', $1, true), set_config('staykit.key_id', $2, true)", [org.id, pk]);
      if (accepted) await tx.query("SELECT set_config('staykit.booking_terms_accepted', 'true', true)");
      // Raw: the trigger's answer to a plain INSERT in a publishable key's transaction, compared with now() in the statement.
      const { rows } = await tx.query<{ accepted: boolean }>(
        'INSERT INTO api.bookings (organization_id) VALUES ($1) RETURNING terms_accepted_at = now() AS accepted', [org.id]);
      inserted = rows[0];
      throw new Error('rolled back: nothing of this test stays');
    });
    await assert.rejects(inKeyTransaction(false), (error: { code?: string }) => error.code === 'SK649');
    assert.equal(inserted, undefined);
    await assert.rejects(inKeyTransaction(true), /rolled back/);
    assert.deepEqual(inserted, { accepted: true });
  });
});
