/**
 * Checks real answers against the OpenAPI document the server serves: each answer's status must be one the
 * operation documents, its media type one that status documents, and a JSON body must validate against that
 * schema — with every object the document describes field by field closed, so a field the server sends and the
 * document does not name is a mismatch too (clients typed from the document would never see it). Records which
 * operations were answered, so a test can demand that every operation it owns was exercised.
 */
import assert from 'node:assert/strict';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;

type Json = Record<string, unknown>;
export interface ServedDocument {
  paths: Record<string, Record<string, Json>>;
  components: Record<string, Record<string, Json>>;
  tags: { name: string }[];
}

export const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;
export type Method = (typeof HTTP_METHODS)[number];

/**
 * The schema with each object that lists its `properties` and says nothing about others closed
 * (`unevaluatedProperties: false`, which sees the properties of `anyOf`/`oneOf` branches too). A member of an
 * `allOf` is left open: its siblings describe the rest of the same object.
 */
function closeObjects(node: unknown, inAllOf = false): unknown {
  if (Array.isArray(node)) return node.map((item) => closeObjects(item));
  if (!node || typeof node !== 'object') return node;
  const schema = Object.fromEntries(Object.entries(node).map(([key, value]) => [
    key,
    key === 'allOf' && Array.isArray(value) ? value.map((member) => closeObjects(member, true))
      // Examples are data, not schemas.
      : key === 'example' || key === 'examples' || key === 'const' || key === 'enum' || key === 'default' ? value : closeObjects(value),
  ]));
  const open = 'additionalProperties' in schema || 'unevaluatedProperties' in schema || 'patternProperties' in schema;
  if (!inAllOf && !open && schema.properties && typeof schema.properties === 'object' && !('$ref' in schema)) {
    schema.unevaluatedProperties = false;
  }
  return schema;
}

/** `#/components/…` references as references into the document added to Ajv under the id `doc`. */
function intoDocument(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(intoDocument);
  if (!node || typeof node !== 'object') return node;
  return Object.fromEntries(Object.entries(node).map(([key, value]) =>
    [key, key === '$ref' && typeof value === 'string' && value.startsWith('#/') ? `doc${value}` : intoDocument(value)]));
}

function resolve(document: ServedDocument, node: Json): Json {
  const ref = node.$ref;
  if (typeof ref !== 'string') return node;
  const [, kind, name] = ref.split('/').slice(1);
  const target = document.components[kind!]?.[name!];
  assert.ok(target, `${ref} is in the document`);
  return target;
}

export interface AnswerChecker {
  document: ServedDocument;
  /** Asserts that `response` is an answer `method path` (the document's path, e.g. `/payment-link`) documents. */
  check(response: LightMyRequestResponse, method: Method, path: string): LightMyRequestResponse;
  /** `method path` of every operation checked so far, with the statuses seen. */
  answered: Map<string, Set<number>>;
}

export async function answerChecker(app: FastifyInstance): Promise<AnswerChecker> {
  const served = await app.inject({ method: 'GET', url: '/v1/openapi.json' });
  assert.equal(served.statusCode, 200, served.body);
  const document = served.json<ServedDocument>();
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addSchema({ $id: 'doc', components: closeObjects(document.components) } as object);
  const compiled = new Map<string, ValidateFunction>();
  const answered = new Map<string, Set<number>>();

  function check(response: LightMyRequestResponse, method: Method, path: string): LightMyRequestResponse {
    const where = `${method.toUpperCase()} ${path} → ${response.statusCode}`;
    const operation = document.paths[path]?.[method] as { responses?: Record<string, Json> } | undefined;
    assert.ok(operation?.responses, `${method.toUpperCase()} ${path} is in the document`);
    const status = String(response.statusCode);
    const key = [status, `${status[0]}XX`, 'default'].find((candidate) => candidate in operation.responses!);
    assert.ok(key, `${where}: the document lists no such status (${Object.keys(operation.responses).join(', ')}); body ${response.body.slice(0, 300)}`);
    const documented = resolve(document, operation.responses[key]!);
    const content = (documented.content ?? {}) as Record<string, { schema?: Json }>;
    if (response.rawPayload.length > 0) {
      const mediaType = String(response.headers['content-type'] ?? '').split(';')[0]!.trim();
      const media = content[mediaType];
      assert.ok(media, `${where}: the document gives no ${mediaType} body for it (${Object.keys(content).join(', ') || 'none'})`);
      if (/^application\/(.+\+)?json$/.test(mediaType) && media.schema) {
        const pointer = `${method} ${path} ${key} ${mediaType}`;
        let validate = compiled.get(pointer);
        if (!validate) {
          validate = ajv.compile(intoDocument(closeObjects(media.schema)) as object);
          compiled.set(pointer, validate);
        }
        const body: unknown = JSON.parse(response.body);
        assert.ok(validate(body), `${where}: ${ajv.errorsText(validate.errors, { separator: '\n  ' })}\nbody: ${response.body.slice(0, 600)}`);
      }
    } else {
      assert.ok(status === '204' || Object.keys(content).length === 0,
        `${where}: an empty answer where the document gives a body`);
    }
    const seen = answered.get(`${method} ${path}`) ?? answered.set(`${method} ${path}`, new Set()).get(`${method} ${path}`)!;
    seen.add(response.statusCode);
    return response;
  }

  return { document, check, answered };
}
