/**
 * The booking flow's real answers match the served document: every route is driven for real (successes, replays
 * and refusals), and each answer's body is validated against the response schema of its operation and status in
 * `GET /v1/openapi.json`. An answer field the document does not name, a missing one, a status it does not list, or
 * a route never driven to success fails the test.
 */
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { forEachBackend } from '../support/databases.js';
import { createKey, createOrganization } from '../support/app.js';
import { client, fixtures, startBookingApp } from '../booking/support.js';
import { BOOKING_FLOW_ROUTES } from '../../src/booking/flow-definitions.js';

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;
type Operation = { responses: Record<string, { $ref?: string; content?: Record<string, { schema: unknown }> }> };
type Document = { paths: Record<string, Record<string, Operation>>; components: { responses: Record<string, { content: Record<string, unknown> }> } };

const pointer = (...parts: string[]) => parts.map((part) => part.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');

forEachBackend('Booking flow: real answers match the served OpenAPI document', (ctx) => {
  let app: FastifyInstance;
  let document: Document;
  let ajv: Ajv2020;
  const validators = new Map<string, ValidateFunction>();
  const succeeded = new Set<string>();
  let api: ReturnType<typeof client>;
  let reader: ReturnType<typeof client>;
  let product: string;
  let adults: string;

  before(async () => {
    app = await startBookingApp(ctx.db);
    const served = await app.inject({ method: 'GET', url: '/v1/openapi.json' });
    assert.equal(served.statusCode, 200);
    document = served.json();
    ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(ajv);
    ajv.addSchema({ ...document, $id: 'doc' } as object);
    const org = await createOrganization(ctx.db, 'Answers');
    api = client(app, org.key);
    reader = client(app, await createKey(ctx.db, org.id, ['bookings:read']));
    const f = fixtures(ctx.db, org.id);
    product = await f.product();
    adults = await f.group('Adults');
    await f.capacity(product, adults, 1, 4);
    await f.configuration(product, { rates: [{ duration: 1, occupancy: 1, rate: 10000 }] });
    await f.tax(product, {});
    await f.service(product, { name: { default: 'Cleaning' }, type: 'fee', pricing: { per: 'stay', amount: 5000 } });
    await f.coupon({ code: 'SAVE10' }, [product]);
  });
  after(() => app.close());

  /** The validator of an operation's answer with `status`, from the served document (a shared response followed). */
  function validatorFor(method: string, url: string, status: number): ValidateFunction {
    const id = `${method} ${url} ${status}`;
    let validate = validators.get(id);
    if (validate) return validate;
    const operation = document.paths[url]?.[method.toLowerCase()];
    assert.ok(operation, `${method} ${url} is in the document`);
    const answer = operation.responses[String(status)];
    assert.ok(answer, `${method} ${url} documents status ${status}`);
    const ref = answer.$ref
      ? `doc#/components/responses/${pointer(answer.$ref.split('/').at(-1)!)}/content/application~1json/schema`
      : `doc#/paths/${pointer(url)}/${method.toLowerCase()}/responses/${status}/content/application~1json/schema`;
    validate = ajv.compile({ $ref: ref });
    validators.set(id, validate);
    return validate;
  }

  /** Asserts the answer has `status` and a body its operation documents. */
  function conforms(method: string, url: string, response: LightMyRequestResponse, status: number): LightMyRequestResponse {
    assert.equal(response.statusCode, status, `${method} ${url}: ${response.body}`);
    const path = url.split('?')[0]!.replace(/^\/v1/, '');
    const validate = validatorFor(method, path, status);
    assert.ok(validate(response.json()), `${method} ${url} ${status} does not match the document: ${ajv.errorsText(validate.errors)}\n${response.body.slice(0, 2000)}`);
    if (status < 300) succeeded.add(`${method} ${path}`);
    return response;
  }
  const post = async (url: string, body: unknown, status: number, headers: Record<string, string> = {}) =>
    conforms('POST', url, await api.post(url, body, headers), status);
  const get = async (url: string, status: number) => conforms('GET', url, await api.get(url), status);
  const stay = (start: string, end: string, extra: Record<string, unknown> = {}) =>
    ({ product_id: product, interval: { start, end }, occupancy: { [adults]: 2 }, ...extra });

  it('availability, search, quote and the cart validation answer as documented, refusals too', async () => {
    await get(`/v1/availability?product_ids=${product}&start=2027-03-01&end=2027-03-20`, 200);
    await get(`/v1/availability?product_ids=${product}&start=2027-03-01&end=2027-03-20&include=days&show_booked_as=booked`, 200);
    await get('/v1/availability?start=2027-02-30', 400);
    await get('/v1/availability?product_ids=00000000-0000-4000-8000-000000000000', 404);
    conforms('GET', '/v1/availability', await app.inject({ method: 'GET', url: '/v1/availability' }), 401);
    await post('/v1/search', {}, 200);
    await post('/v1/search', { interval: { start: '2027-03-10', end: '2027-03-12' }, occupancy: { [adults]: 2 } }, 200);
    await post('/v1/search', { guests: 2 }, 400);
    await post('/v1/quote', stay('2027-03-10', '2027-03-13', { coupon_codes: ['SAVE10'] }), 200);
    await post('/v1/quote', stay('2027-03-10', '2027-03-13', { interval: { start: 'soon', end: '2027-03-13' } }), 400);
    await post('/v1/quote', stay('2027-03-10', '2027-03-13', { product_id: '00000000-0000-4000-8000-000000000000' }), 404);
    await post('/v1/quote', stay('2027-03-10', '2027-03-13', { occupancy: { [adults]: 9 } }), 422);
    await post('/v1/cart-validate', {
      items: [{ id: 'a', ...stay('2027-04-01', '2027-04-03') }, { id: 2, ...stay('2027-04-02', '2027-04-04') }],
    }, 200);
    await post('/v1/cart-validate', { items: [] }, 400);
    conforms('POST', '/v1/book', await reader.post('/v1/book', stay('2027-04-01', '2027-04-03')), 403);
  });

  it('book, cart checkout and create-product answer as documented, a replay and a conflict too', async () => {
    const key = { 'idempotency-key': 'answers-book-1' };
    const booked = await post('/v1/book', stay('2027-05-01', '2027-05-04', { contact: { first_name: 'Ana', email: 'ana@example.com' } }), 201, key);
    const replay = await post('/v1/book', stay('2027-05-01', '2027-05-04', { contact: { first_name: 'Ana', email: 'ana@example.com' } }), 201, key);
    assert.equal(replay.headers['idempotent-replayed'], 'true');
    assert.equal(replay.json().booking_id, booked.json().booking_id);
    await post('/v1/book', stay('2027-05-02', '2027-05-03'), 409);
    await post('/v1/book', stay('2027-05-10', '2027-05-12', { coupon_codes: ['NOPE'] }), 404);
    await post('/v1/cart-checkout', { cart: { items: [{ id: 'x', ...stay('2027-06-01', '2027-06-03') }, { id: 'y', ...stay('2027-06-05', '2027-06-07') }] } }, 201);
    await post('/v1/cart-checkout', { cart: { items: [{ id: 'x', ...stay('2027-06-01', '2027-06-03') }] } }, 409);
    await post('/v1/create-product', { name: 'Beach house', rent_period: 'nightly', timezone: 'Europe/Lisbon', interaction: 'book' }, 201);
    await post('/v1/create-product', { name: 'Beach house', rent_period: 'weekly', timezone: 'Europe/Lisbon' }, 400);
  });

  it("a booking's later life — import, change, cancel — answers as documented", async () => {
    const reservation = { channel: 'airbnb', external_id: 'HM-1', ...stay('2027-07-01', '2027-07-05'), price_lines: [{ name: 'Rent', amount: 40000 }] };
    await post('/v1/import-booking', reservation, 201);
    await post('/v1/import-booking', reservation, 200);
    await post('/v1/import-booking', { ...reservation, external_id: 'HM-2' }, 409);
    await post('/v1/import-booking', { ...reservation, total: 1 }, 400);
    const booked = await post('/v1/book', stay('2027-08-01', '2027-08-04'), 201);
    const bookingId = booked.json().booking_id as string;
    await post('/v1/booking-change', { booking_id: bookingId, dry_run: true, interval: { start: '2027-08-01', end: '2027-08-05' } }, 200);
    await post('/v1/booking-change', { booking_id: bookingId, interval: { start: '2027-08-02', end: '2027-08-05' } }, 200);
    await post('/v1/booking-change', { booking_id: '00000000-0000-4000-8000-000000000000' }, 404);
    await post('/v1/booking-cancel', { booking_id: bookingId, reason: 'Plans changed' }, 200);
    await post('/v1/booking-cancel', { booking_id: bookingId, refund: true }, 400);
  });

  it('every booking-flow route was driven to a success', () => {
    const routes = BOOKING_FLOW_ROUTES.map((route) => `${route.method} ${route.url}`);
    assert.deepEqual(routes.filter((route) => !succeeded.has(route)), []);
  });
});
