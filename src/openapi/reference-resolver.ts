/**
 * A Swagger UI plugin, run in the reader's browser by the reference page (reference-page.ts): it resolves our
 * OpenAPI 3.1 documents with swagger-client's OpenAPI 3.0 resolver instead of its OpenAPI 3.1 one (ApiDOM), which
 * took ~1.0–1.4 s of the page's arrival (bench/reference-page.ts, "where the arrival goes"). The UI itself still
 * renders the document as 3.1: only the copy handed to the resolver says 3.0, and the served documents are unchanged.
 *
 * The one place the two resolvers differ on our documents: a schema `{ "$ref": …, "description": "own text" }`
 * (a property describing its use of a shared schema) keeps its own description in 3.1, while the 3.0 resolver
 * replaces the whole object by the referenced schema. Written as `{ "description": …, "allOf": [{ "$ref": … }] }`,
 * the 3.0 resolver merges the referenced schema in and lets the object's own keywords win, as 3.1 does.
 * test/browser/reference-resolver.test.ts resolves every tag's document both ways and compares the results.
 *
 * Client-side JavaScript (the browser runs it as written), a function expression taking no arguments that returns
 * the plugin.
 */
export const OPENAPI_30_RESOLVER_PLUGIN = String.raw`function resolveWithOpenApi30() {
  // Only schemas: a Reference Object elsewhere (a parameter, a response) cannot be wrapped in allOf.
  const SCHEMA_REF = /^#\/components\/schemas\//;
  const isOpenApi31 = (spec) => typeof spec?.openapi === 'string' && /^3\.1\./.test(spec.openapi);
  // A copy in which every schema $ref with sibling keywords is { ...siblings, allOf: [{ $ref }] }.
  const refsWithSiblingsAsAllOf = (node) => {
    if (Array.isArray(node)) return node.map(refsWithSiblingsAsAllOf);
    if (!node || typeof node !== 'object') return node;
    const copy = {};
    for (const key of Object.keys(node)) copy[key] = refsWithSiblingsAsAllOf(node[key]);
    if (typeof copy.$ref !== 'string' || !SCHEMA_REF.test(copy.$ref) || Object.keys(copy).length === 1) return copy;
    const { $ref, ...siblings } = copy;
    return { ...siblings, allOf: [{ $ref }] };
  };
  // swagger-client picks its resolver by the document's openapi version.
  const forOpenApi30 = (spec) => ({ ...refsWithSiblingsAsAllOf(spec), openapi: '3.0.3' });
  return {
    afterLoad(system) {
      const { resolve, resolveSubtree } = system.fn;
      // On arrival: the whole document; its version is given back so the resolved document still reads 3.1.
      system.fn.resolve = async (options) => {
        if (!isOpenApi31(options.spec)) return resolve(options);
        const result = await resolve({ ...options, spec: forOpenApi30(options.spec) });
        return result.spec ? { ...result, spec: { ...result.spec, openapi: options.spec.openapi } } : result;
      };
      // On expanding an operation or a schema: that part only (its result holds no version).
      system.fn.resolveSubtree = (spec, path, options) =>
        resolveSubtree(isOpenApi31(spec) ? forOpenApi30(spec) : spec, path, options);
    },
  };
}`;
