/**
 * The reference page resolves our OpenAPI 3.1 documents with swagger-client's OpenAPI 3.0 resolver
 * (src/openapi/reference-resolver.ts) because it is faster; this proves the reader sees the same: every tag's
 * document, resolved in Debian's chromium by the page's own Swagger UI (the plugin installed) and by a Swagger UI
 * without it (OpenAPI 3.1, ApiDOM), gives the same descriptions, types, enums, required lists, examples — the same
 * tree, but for the resolvers' own marker keys. Compared: the whole document (as resolved on arrival), each operation
 * and each schema (as resolved when expanded). Skipped with a message when /usr/bin/chromium is absent.
 */
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import { browserMissing } from '../support/browser-required.js';
import type { FastifyInstance } from 'fastify';
import { chromium, type Browser } from 'playwright-core';
import { CHROMIUM, CHROMIUM_ARGS, openReferencePage } from '../../bench/reference-page.js';
import { openApiTags } from '../../src/openapi/tag-document.js';
import { createTestDatabase, type TestDatabase } from '../support/databases.js';
import { startApp } from '../support/app.js';

const missing = browserMissing(CHROMIUM, 'browser test');

type OpenApiDocument = {
  paths?: Record<string, Record<string, unknown>>;
  components?: { schemas?: Record<string, { properties?: Record<string, { $ref?: string; description?: string }> }> };
};

let testDb: TestDatabase;
let app: FastifyInstance;
let browser: Browser;
let base: string;

before(async () => {
  if (missing) return;
  testDb = await createTestDatabase('pglite');
  app = await startApp(testDb.db);
  base = await app.listen({ port: 0, host: '127.0.0.1' });
  browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
});

after(async () => {
  await browser?.close();
  await app?.close();
  await testDb?.drop();
});

/** A property that says how it uses a shared schema: `{ $ref, description }` (the case the two resolvers treat apart). */
function ownDescriptions(document: OpenApiDocument): { schema: string; property: string; description: string }[] {
  return Object.entries(document.components?.schemas ?? {}).flatMap(([schema, { properties }]) =>
    Object.entries(properties ?? {})
      .filter(([, property]) => property.$ref !== undefined && property.description !== undefined)
      .map(([property, { description }]) => ({ schema, property, description: description! })));
}

it('every tag resolves the same through the page\'s OpenAPI 3.0 resolver as through Swagger UI\'s OpenAPI 3.1 one', { skip: missing && `${CHROMIUM} not found` }, async () => {
  const whole = await (await fetch(`${base}/v1/openapi.json`)).json() as Record<string, unknown>;
  const documents: Record<string, OpenApiDocument> = {};
  for (const tag of openApiTags(whole)) documents[tag] = await (await fetch(`${base}/v1/openapi.json?tag=${encodeURIComponent(tag)}`)).json() as OpenApiDocument;
  const owned = Object.fromEntries(Object.entries(documents).map(([tag, document]) => [tag, ownDescriptions(document)]));
  assert.ok(Object.values(owned).some((properties) => properties.length > 0), 'some property has its own description next to a $ref');

  const page = await browser.newPage();
  page.setDefaultTimeout(120_000);
  await openReferencePage(page, base);
  const compared = await page.evaluate(async ({ documents, owned }) => {
    interface Resolver {
      resolve(options: { spec: unknown }): Promise<{ spec: unknown; errors: unknown[] }>;
      resolveSubtree(spec: unknown, path: string[], options: object): Promise<{ spec: unknown; errors: unknown[] }>;
    }
    type SwaggerUi = (options: object) => { fn: Resolver };
    const swaggerUi = (window as unknown as { SwaggerUIBundle: SwaggerUi & { presets: { apis: unknown } } }).SwaggerUIBundle;
    const page = (window as unknown as { ui: { fn: Resolver } }).ui.fn;
    // No dom_id: a Swagger UI that renders nothing, as the page was before the plugin (OpenAPI 3.1 resolver).
    const openApi31 = swaggerUi({ presets: [swaggerUi.presets.apis] }).fn;
    // Where a $ref was resolved from, operationId before normalization, and "already normalized" flags: each resolver
    // writes its own, and the page shows none of them.
    const MARKERS = new Set(['$$ref', '__originalOperationId', 'x-normalized', '$$normalized']);
    const METHODS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);
    const differences: string[] = [];
    const pending: [unknown, unknown, string][] = [];
    let resolved = 0;
    let throughOpenApi30 = 0;
    for (const [tag, document] of Object.entries(documents)) {
      const parts = [
        ...Object.entries(document.paths ?? {}).flatMap(([path, item]) => Object.keys(item).filter((key) => METHODS.has(key)).map((key) => ['paths', path, key])),
        ...Object.keys(document.components?.schemas ?? {}).map((name) => ['components', 'schemas', name]),
      ];
      const [expected, actual] = [await openApi31.resolve({ spec: structuredClone(document) }), await page.resolve({ spec: structuredClone(document) })];
      pending.push([expected.spec, actual.spec, tag]);
      pending.push([expected.errors, actual.errors, `${tag} errors`]);
      // swagger-client's OpenAPI 3.0 normalizer marks what it normalized so; ApiDOM's (3.1) writes x-normalized.
      const marks = actual.spec as Record<string, unknown>;
      if (marks.$$normalized === true && marks['x-normalized'] === undefined) throughOpenApi30++;
      const schemas = (actual.spec as OpenApiDocument).components?.schemas ?? {};
      for (const { schema, property, description } of owned[tag] ?? []) {
        const shown = schemas[schema]?.properties?.[property]?.description;
        if (shown !== description) differences.push(`${tag} ${schema}.${property}: own description ${JSON.stringify(description)}, shown ${JSON.stringify(shown)}`);
      }
      for (const part of parts) {
        const [expected, actual] = [await openApi31.resolveSubtree(structuredClone(document), part, {}), await page.resolveSubtree(structuredClone(document), part, {})];
        pending.push([expected.spec, actual.spec, `${tag} ${part.join('/')}`]);
        pending.push([expected.errors, actual.errors, `${tag} ${part.join('/')} errors`]);
      }
      // A loop, not a recursive function: tsx names functions through a helper that the page does not have.
      for (let next = pending.pop(); next; next = pending.pop()) {
        const [expected, actual, where] = next;
        if (expected && actual && typeof expected === 'object' && typeof actual === 'object' && Array.isArray(expected) === Array.isArray(actual)) {
          // An array's elements only: Swagger UI reads the resolved document into Immutable lists, which keep no other
          // property (the 3.0 normalizer sets `security` on a path item's `servers` array, taking it for an operation).
          const keys = Array.isArray(expected) ? Array.from({ length: Math.max(expected.length, (actual as unknown[]).length) }, (_, index) => String(index))
            : [...new Set([...Object.keys(expected), ...Object.keys(actual)])];
          for (const key of keys) {
            if (!MARKERS.has(key)) pending.push([(expected as Record<string, unknown>)[key], (actual as Record<string, unknown>)[key], `${where}/${key}`]);
          }
        } else if (expected !== actual) {
          differences.push(`${where}: 3.1 ${JSON.stringify(expected)?.slice(0, 200)}, 3.0 ${JSON.stringify(actual)?.slice(0, 200)}`);
        }
      }
      resolved++;
    }
    return { differences, resolved, throughOpenApi30 };
  }, { documents, owned });
  assert.equal(compared.resolved, Object.keys(documents).length);
  assert.equal(compared.throughOpenApi30, compared.resolved, 'the page resolves through the OpenAPI 3.0 resolver');
  assert.deepEqual(compared.differences, []);
  await page.close();
});
