/**
 * One tag's share of the OpenAPI document: the same document with only that tag's operations and the components
 * they reach (transitively), so a client or the reference page can load one resource (~10–40 KB) instead of the
 * whole API (~800 KB, which Swagger UI takes many seconds to render). Each is a complete OpenAPI document on its own:
 * every `$ref` resolves and no component is unused. Pure: works on the built document (document.ts).
 */
import type { JsonSchema } from './json-schema.js';

type OpenApiDocument = Record<string, unknown>;
type PathItems = Record<string, Record<string, unknown>>;
type Components = Record<string, Record<string, unknown>>;

const HTTP_METHODS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);

function tagsOf(operation: unknown): string[] {
  const tags = (operation as { tags?: unknown } | undefined)?.tags;
  return Array.isArray(tags) ? tags.filter((tag): tag is string => typeof tag === 'string') : [];
}

function operationsOf(item: Record<string, unknown>): [string, unknown][] {
  return Object.entries(item).filter(([key]) => HTTP_METHODS.has(key));
}

/** The path items (of `paths` or `webhooks`) with only the operations tagged `tag`; items left empty are dropped. */
function itemsForTag(items: PathItems | undefined, tag: string): PathItems {
  const kept: PathItems = {};
  for (const [path, item] of Object.entries(items ?? {})) {
    const operations = operationsOf(item).filter(([, operation]) => tagsOf(operation).includes(tag));
    if (operations.length === 0) continue;
    const shared = Object.entries(item).filter(([key]) => !HTTP_METHODS.has(key));
    kept[path] = Object.fromEntries([...shared, ...operations]);
  }
  return kept;
}

/** The document's tags in order: those it declares, then any an operation uses without declaring it. */
export function openApiTags(document: OpenApiDocument): string[] {
  const declared = ((document.tags ?? []) as { name: string }[]).map((tag) => tag.name);
  const used = [document.paths, document.webhooks].flatMap((items) =>
    Object.values((items ?? {}) as PathItems).flatMap((item) => operationsOf(item).flatMap(([, operation]) => tagsOf(operation))),
  );
  return [...new Set([...declared, ...used])];
}

/** `#/components/<type>/<name>` → [type, name] (JSON-pointer escapes undone); undefined for any other reference. */
function componentOf(ref: string): [string, string] | undefined {
  const match = /^#\/components\/([^/]+)\/([^/]+)/.exec(ref);
  if (!match) return undefined;
  return [match[1]!, match[2]!.replace(/~1/g, '/').replace(/~0/g, '~')];
}

/**
 * The security schemes named (not `$ref`erred to) by the document's and the kept operations' `security`
 * requirements (`[{bearerAuth: []}]`).
 */
function namedSchemes(document: OpenApiDocument, itemSets: PathItems[]): Set<string> {
  const requirements = [document.security, ...itemSets.flatMap((items) => Object.values(items).flatMap((item) =>
    operationsOf(item).map(([, operation]) => (operation as { security?: unknown }).security)))];
  return new Set(requirements.flatMap((security) => (Array.isArray(security) ? security.flatMap((requirement) => Object.keys(requirement as object)) : [])));
}

/** The components that `roots` reach through `$ref`s, followed through the components themselves, and the security schemes `schemes`. */
function reachableComponents(roots: unknown[], components: Components, schemes: Set<string>): Components {
  const reached = new Map<string, Set<string>>([['securitySchemes', schemes]]);
  const pending: unknown[] = [...roots];
  const visit = (node: unknown) => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (!node || typeof node !== 'object') return;
    for (const [key, value] of Object.entries(node)) {
      if (key !== '$ref' || typeof value !== 'string') {
        visit(value);
        continue;
      }
      const target = componentOf(value);
      if (!target) continue;
      const [type, name] = target;
      const names = reached.get(type) ?? reached.set(type, new Set()).get(type)!;
      if (names.has(name)) continue;
      names.add(name);
      pending.push(components[type]?.[name]);
    }
  };
  while (pending.length > 0) visit(pending.pop());
  const kept: Components = {};
  // The original order, so that the same tag always gives the same bytes.
  for (const [type, entries] of Object.entries(components)) {
    const names = reached.get(type);
    const selected = Object.entries(entries).filter(([name]) => names?.has(name));
    if (selected.length > 0) kept[type] = Object.fromEntries(selected);
  }
  return kept;
}

/**
 * The document for one tag (one of `openApiTags(document)`): its operations, its tag entry, and the components they
 * use. Undefined for a tag the document does not have.
 */
export function documentForTag(document: OpenApiDocument, tag: string): OpenApiDocument | undefined {
  if (!openApiTags(document).includes(tag)) return undefined;
  const paths = itemsForTag(document.paths as PathItems | undefined, tag);
  const webhooks = itemsForTag(document.webhooks as PathItems | undefined, tag);
  const declared = ((document.tags ?? []) as JsonSchema[]).find((entry) => entry.name === tag);
  const components = reachableComponents([paths, webhooks], (document.components ?? {}) as Components, namedSchemes(document, [paths, webhooks]));
  const tagged: OpenApiDocument = { ...document, tags: [declared ?? { name: tag }], paths, webhooks, components };
  if (Object.keys(webhooks).length === 0) delete tagged.webhooks;
  return tagged;
}
