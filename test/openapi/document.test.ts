import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { forEachBackend } from '../support/databases.js';
import { bearer, createOrganization, startApp } from '../support/app.js';
import { parseCheck } from '../../src/openapi/check-enums.js';
import { connectionLostError } from '../../src/db/pglite-protocol.js';

type Doc = {
  openapi: string;
  paths: Record<string, Record<string, { parameters?: { $ref?: string; name?: string }[]; responses: Record<string, unknown>; requestBody?: unknown; tags?: string[] }>>;
  components: { schemas: Record<string, { properties: Record<string, Record<string, unknown>>; required?: string[] }> };
};

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;
const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

function methodsOf(doc: Doc, path: string): string[] {
  return Object.keys(doc.paths[path] ?? {}).filter((key) => HTTP_METHODS.includes(key)).sort();
}

/** Every `$ref` in the document points at something that exists. */
function unresolvedRefs(doc: unknown): string[] {
  const missing: string[] = [];
  const walk = (node: unknown) => {
    if (Array.isArray(node)) return node.forEach(walk);
    if (!node || typeof node !== 'object') return;
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string') {
        let target: unknown = doc;
        for (const part of value.replace(/^#\//, '').split('/')) target = (target as Record<string, unknown> | undefined)?.[part.replace(/~1/g, '/').replace(/~0/g, '~')];
        if (target === undefined) missing.push(value);
      } else walk(value);
    }
  };
  walk(doc);
  return missing;
}

it('reads CHECK lists as PostgreSQL prints them', () => {
  assert.deepEqual(parseCheck("CHECK ((status = ANY (ARRAY['pending'::text, 'sent'::text, 'error'::text])))"),
    { column: 'status', values: ['pending', 'sent', 'error'] });
  assert.deepEqual(parseCheck("CHECK ((type = ANY (ARRAY['blocked period'::text, 'it''s'::text])))"),
    { column: 'type', values: ['blocked period', "it's"] });
  assert.deepEqual(parseCheck('CHECK (staykit_internal.is_currency(currency))'), { column: 'currency', predicate: 'is_currency' });
  assert.equal(parseCheck('CHECK ((exchange_rate > (0)::double precision))'), null);
});

forEachBackend('OpenAPI document', (ctx) => {
  let app: FastifyInstance;
  let doc: Doc;
  before(async () => {
    app = await startApp(ctx.db);
    const response = await app.inject({ method: 'GET', url: '/v1/openapi.json' });
    assert.equal(response.statusCode, 200);
    doc = response.json() as Doc;
  });
  after(() => app.close());

  it('passes a real OpenAPI 3.1 validator, and every $ref resolves', async () => {
    assert.equal(doc.openapi, '3.1.0');
    const validator = new Validator();
    const result = await validator.validate(structuredClone(doc) as unknown as Record<string, unknown>);
    assert.equal(result.valid, true, JSON.stringify(result.errors, null, 2)?.slice(0, 4000));
    assert.equal(validator.version, '3.1');
    assert.deepEqual(unresolvedRefs(doc), []);
  });

  it('every component schema compiles as JSON Schema 2020-12', () => {
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(ajv);
    ajv.addSchema({ $id: 'doc', components: doc.components } as object);
    for (const name of Object.keys(doc.components.schemas)) {
      assert.doesNotThrow(() => ajv.getSchema(`doc#/components/schemas/${name.replace(/~/g, '~0').replace(/\//g, '~1')}`), name);
    }
  });

  it('is served at GET /v1/ and GET /v1 too, without a key, and /v1/<resource> still reaches the engine', async () => {
    for (const url of ['/v1/', '/v1']) {
      const response = await app.inject({ method: 'GET', url });
      assert.equal(response.statusCode, 200, url);
      assert.match(String(response.headers['content-type']), /^application\/openapi\+json/);
      assert.deepEqual(response.json(), doc);
    }
    const engine = await app.inject({ method: 'GET', url: '/v1/bookings' });
    assert.equal(engine.statusCode, 401);
    assert.equal(engine.json().code, 'SK401');
  });

  it('offers exactly the methods the spec table gives (bookings: no POST; products: GET and PATCH; logs read-only)', () => {
    assert.deepEqual(methodsOf(doc, '/bookings'), ['delete', 'get', 'patch']);
    assert.deepEqual(methodsOf(doc, '/products'), ['get', 'patch']);
    assert.deepEqual(methodsOf(doc, '/webhook_notifications'), ['get']);
    assert.deepEqual(methodsOf(doc, '/booking_updates'), ['get']);
    assert.deepEqual(methodsOf(doc, '/coupons'), ['delete', 'get', 'patch', 'post']);
    assert.deepEqual(methodsOf(doc, '/book'), ['post']);
    assert.deepEqual(methodsOf(doc, '/availability'), ['get']);
  });

  it('agrees with the running engine: a documented method is not 405, an undocumented one is', async () => {
    const org = await createOrganization(ctx.db, 'openapi methods');
    for (const [path, item] of Object.entries(doc.paths)) {
      // Outside /v1 (a server of their own: health, the dashboard's) or not the engine's.
      if ('servers' in item || ['/availability', '/search', '/quote', '/book', '/cart-validate', '/cart-checkout', '/create-product', '/openapi.json'].includes(path)) continue;
      for (const method of ['get', 'post', 'patch', 'delete']) {
        const url = `/v1${path}${method === 'patch' || method === 'delete' ? '?id=eq.00000000-0000-0000-0000-000000000000' : ''}`;
        const response = await app.inject({
          method: method.toUpperCase() as 'GET', url, headers: { ...bearer(org.key), 'content-type': 'application/json', prefer: 'tx=rollback' },
          ...(method === 'post' || method === 'patch' ? { payload: '{}' } : {}),
        });
        assert.equal(response.statusCode === 405, !(method in item), `${method.toUpperCase()} ${path}: ${response.statusCode}`);
      }
    }
  });

  it("describes columns with the spec's descriptions, types, nullability, enums and server-owned fields", () => {
    const bookings = doc.components.schemas.bookings!;
    assert.match(String(bookings.properties.confirmed_at!.description), /^When the booking was confirmed/);
    assert.deepEqual(bookings.properties.confirmed_at!.type, ['string', 'null']);
    assert.equal(bookings.properties.confirmed_at!.format, 'date-time');
    assert.deepEqual(bookings.properties.method!.enum, ['request', 'book']);
    assert.equal(bookings.properties.reference!.readOnly, true);
    assert.equal(bookings.properties.organization_id!.readOnly, true);
    assert.equal(bookings.properties.silent!.readOnly, undefined);
    assert.equal(bookings.properties.exchange_rate!.type, 'number');

    const events = doc.components.schemas.calendar_events!;
    assert.deepEqual(events.properties.status!.enum, ['CANCELLED', 'TENTATIVE', 'CONFIRMED']);
    assert.deepEqual(events.properties.type!.enum, ['booking', 'blocked period', 'note']);
    assert.equal(events.properties.start_date!.format, 'date');

    const products = doc.components.schemas.products!;
    assert.equal(products.properties.name!.$ref, '#/components/schemas/MultiLanguageString');
    assert.match(String(products.properties.confirm_after_initial_payment!.description), /^Auto-confirm after the initial payment; applies only when/);
    assert.deepEqual(products.properties.rent_period!.enum, ['daily', 'nightly']);

    // Lists whose values a catalogue holds: the webhook events (and `*`), a member's notifications.
    const subscribable = (doc.components.schemas.webhooks!.properties.events!.items as { enum: string[] }).enum;
    assert.ok(['contacts.created', 'booking.created', 'booking.cancellation_requested', '*'].every((name) => subscribable.includes(name)), subscribable.join());
    assert.deepEqual((doc.components.schemas.members!.properties.notify!.items as { enum: string[] }).enum,
      ['booking.created', 'booking.requested', 'booking.cancelled', 'booking.cancellation_requested', 'messages.received']);

    const create = doc.components.schemas['coupons.create']!;
    assert.equal(create.properties.organization_id, undefined, 'the tenant column is never in a request body');
    assert.equal(create.properties.created_at, undefined);
    assert.ok(create.required?.includes('code'), JSON.stringify(create.required));
    assert.equal(doc.components.schemas['bookings.create'], undefined);
    assert.ok(doc.components.schemas['bookings.update']!.properties.silent);
    assert.equal(doc.components.schemas['bookings.update']!.properties.reference, undefined);
  });

  it('lists the PostgREST query parameters and error responses', () => {
    const list = doc.paths['/bookings']!.get!;
    const names = list.parameters!.map((p) => p.name ?? p.$ref!.split('/').pop());
    for (const name of ['select', 'order', 'limit', 'offset', 'or', 'Range', 'preferRead', 'Accept', 'bookings.id', 'bookings.reference', 'bookings.confirmed_at']) {
      assert.ok(names.includes(name), `${name} in ${names.join(',')}`);
    }
    const parameters = (doc.components as unknown as { parameters: Record<string, { name: string; in: string; description: string }> }).parameters;
    assert.equal(parameters['bookings.reference']!.name, 'reference');
    assert.equal(parameters['bookings.reference']!.in, 'query');
    assert.match(parameters['calendar_events.status']!.description, /`CANCELLED`, `TENTATIVE`, `CONFIRMED`/);
    const patchNames = doc.paths['/bookings']!.patch!.parameters!.map((p) => p.$ref!.split('/').pop());
    assert.ok(patchNames.includes('bookings.id') && !patchNames.includes('limit'), patchNames.join(','));
    const post = doc.paths['/coupons']!.post!;
    const postNames = post.parameters!.map((p) => p.$ref!.split('/').pop());
    assert.deepEqual(postNames, ['select', 'columns', 'on_conflict', 'preferWrite']);
    for (const status of ['200', '206', '400', '401', '403', '406', '416']) assert.ok(status in list.responses, status);
    for (const status of ['201', '400', '401', '403', '409']) assert.ok(status in post.responses, status);
    const responses = (doc.components as unknown as { responses: Record<string, unknown> }).responses;
    for (const name of ['BadRequest', 'Unauthorized', 'Forbidden', 'NotFound', 'UriTooLong', 'NotAcceptable', 'Conflict', 'RangeNotSatisfiable']) {
      assert.ok(responses[name], name);
    }
    assert.deepEqual(doc.components.schemas.Error!.required, ['code', 'message', 'details', 'hint']);
  });

  it('real responses validate against the documented schemas', async () => {
    const org = await createOrganization(ctx.db, 'openapi shapes');
    const created = await app.inject({
      method: 'POST', url: '/v1/coupons',
      headers: { ...bearer(org.key), 'content-type': 'application/json', prefer: 'return=representation' },
      payload: { code: 'SUMMER10', definition: { type: 'percentage', value: 10 }, scope: 'global' },
    });
    assert.equal(created.statusCode, 201, created.body);
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(ajv);
    ajv.addSchema({ $id: 'doc', components: doc.components } as object);
    const validate = (ref: string, value: unknown) => {
      const check = ajv.getSchema(`doc#/components/${ref}`)!;
      assert.equal(check(value), true, `${ref}: ${JSON.stringify(check.errors)}`);
    };
    for (const row of created.json() as unknown[]) validate('schemas/coupons', row);
    const error = await app.inject({ method: 'GET', url: '/v1/coupons?code=zz.1', headers: bearer(org.key) });
    assert.equal(error.statusCode, 400);
    validate('schemas/Error', error.json());
    const unauthorized = await app.inject({ method: 'GET', url: '/v1/coupons' });
    validate('schemas/Error', unauthorized.json());
  });

  it('documents the booking flow, health and the bearer scheme', () => {
    const doc2 = doc as unknown as { components: { securitySchemes: Record<string, { type: string; scheme: string }> }; security: unknown[] };
    assert.deepEqual(doc2.components.securitySchemes.bearerAuth, { ...doc2.components.securitySchemes.bearerAuth, type: 'http', scheme: 'bearer' });
    assert.deepEqual(doc2.security, [{ bearerAuth: [] }]);
    const book = doc.paths['/book']!.post!;
    assert.ok(book.requestBody);
    assert.ok('201' in book.responses && '409' in book.responses && '422' in book.responses);
    assert.deepEqual(methodsOf(doc, '/health'), ['get']);
    assert.deepEqual(methodsOf(doc, '/ready'), ['get']);
  });

  it('answers each tag as a complete document of its own (?tag=), together covering every operation once per tag', async () => {
    const operationTags = Object.entries(doc.paths).flatMap(([path]) => methodsOf(doc, path).flatMap((method) => doc.paths[path]![method]!.tags ?? []));
    const tags = [...new Set([...(doc as unknown as { tags: { name: string }[] }).tags.map((tag) => tag.name), ...operationTags])];
    const covered = new Map<string, string[]>();
    const validator = new Validator();
    for (const tag of tags) {
      const response = await app.inject({ method: 'GET', url: `/v1/openapi.json?tag=${encodeURIComponent(tag)}` });
      assert.equal(response.statusCode, 200, tag);
      assert.match(String(response.headers['content-type']), /^application\/openapi\+json/);
      const tagged = response.json() as Doc & { tags: { name: string }[] };
      assert.deepEqual(tagged.tags.map((entry) => entry.name), [tag]);
      const result = await validator.validate(structuredClone(tagged) as unknown as Record<string, unknown>);
      assert.equal(result.valid, true, `${tag}: ${JSON.stringify(result.errors, null, 2)?.slice(0, 2000)}`);
      assert.deepEqual(unresolvedRefs(tagged), [], tag);
      assert.ok(response.body.length < JSON.stringify(doc).length / 4, `${tag}: ${response.body.length} bytes`);
      for (const path of Object.keys(tagged.paths)) for (const method of methodsOf(tagged, path)) {
        covered.set(`${method} ${path}`, [...(covered.get(`${method} ${path}`) ?? []), tag]);
      }
    }
    for (const path of Object.keys(doc.paths)) for (const method of methodsOf(doc, path)) {
      assert.deepEqual(covered.get(`${method} ${path}`), doc.paths[path]![method]!.tags, `${method} ${path}`);
    }
    assert.deepEqual(methodsOf((await app.inject({ url: '/v1/openapi.json?tag=bookings' })).json() as Doc, '/bookings'), ['delete', 'get', 'patch']);
  });

  it('answers an unknown tag with 404 SK404 naming the tags there are', async () => {
    for (const query of ['tag=nope', 'tag=bookings&tag=nope']) {
      const response = await app.inject({ method: 'GET', url: `/v1/openapi.json?${query}` });
      assert.equal(response.statusCode, 404, query);
      assert.equal(response.json().code, 'SK404');
      assert.match(response.json().message, /^No OpenAPI tag .*; the tags are .*"bookings"/);
    }
  });
});

forEachBackend('OpenAPI document built on first request', (ctx) => {
  it('is not built at start; a build the database failed is made again by the next request', async () => {
    // The real database, whose catalogue reads fail while `failing` is set, as during a lost connection.
    let failing = false;
    const reads: string[] = [];
    const db: typeof ctx.db = {
      ...ctx.db,
      query: (text, values, options) => {
        reads.push(text);
        return failing ? Promise.reject(connectionLostError('test')) : ctx.db.query(text, values, options);
      },
    };
    const app = await startApp(db);
    try {
      const atStart = reads.length;
      failing = true;
      const failed = await app.inject({ method: 'GET', url: '/v1/openapi.json' });
      assert.equal(failed.statusCode, 503, failed.body);
      assert.ok(reads.length > atStart, 'the first request reads the catalogue');
      failing = false;
      const built = await app.inject({ method: 'GET', url: '/v1/openapi.json' });
      assert.equal(built.statusCode, 200);
      assert.equal((built.json() as Doc).openapi.slice(0, 3), '3.1');
      const afterBuild = reads.length;
      assert.equal((await app.inject({ method: 'GET', url: '/v1/openapi.json?tag=bookings' })).statusCode, 200);
      assert.equal(reads.length, afterBuild, 'built once, then kept');
    } finally {
      await app.close();
    }
  });
});
