/**
 * `requestSizeLimits(app, { maxUrlBytes, maxEmbeds })`: limits checked before a request reaches a route, in the
 * API's error shape. The request target (path + query string) longer than `maxUrlBytes` → 414 `SK414`, holding a
 * NUL character (`%00`) → 400 `SK707`; a `select` on the resource API embedding more than `maxEmbeds` resources (at
 * any depth, spreads included) → 400 `PGRST100`. Every body is checked as it streams in, before any parser: text
 * must be UTF-8, JSON at most `maxJsonDepth` levels deep (400 `PGRST102`), no NUL anywhere (400 `SK707`;
 * src/limits/body-guard.ts). The other size limits live where they are enforced: body size in
 * Fastify (`bodyLimit` → 413 `SK413`), rows per bulk insert, `select` depth and `or`/`and` depth in the query
 * engine. See docs/limits.md.
 */
import type { FastifyInstance } from 'fastify';
import { parseSelect } from '../query/parse/select.js';
import type { SelectItem } from '../query/parse/types.js';
import { splitQueryString } from '../query/parse/query-string.js';
import { tooManyEmbeds, uriTooLong } from './errors.js';
import { nulCharacter } from '../errors/catalogue.js';
import { BodyGuard, bodyKind, DEFAULT_MAX_JSON_DEPTH } from './body-guard.js';

export interface RequestSizeOptions {
  /** Longest accepted request target in bytes (default 8192). */
  maxUrlBytes?: number;
  /** Most embedded resources in one `select` (default 32). */
  maxEmbeds?: number;
  /** Where `select` is the engine's (default `/v1/`). */
  apiPrefix?: string;
  /** Deepest nesting of arrays and objects in a JSON body (default 64). */
  maxJsonDepth?: number;
}

export const DEFAULT_MAX_URL_BYTES = 8 * 1024;
export const DEFAULT_MAX_EMBEDS = 32;

export function countEmbeds(items: readonly SelectItem[]): number {
  let count = 0;
  for (const item of items) if (item.type === 'embed') count += 1 + countEmbeds(item.select);
  return count;
}

/** The number of embeds of the `select` parameters of a raw query string; unparseable ones count 0 (the engine answers). */
export function embedsInQuery(query: string): number {
  // Every embed and spread has a parenthesis (`name(…)`): a query without one, raw or percent-encoded, embeds
  // nothing, and most requests (`select=*`, plain column lists) skip splitting and parsing it a second time.
  if (!query.includes('(') && !query.includes('%28')) return 0;
  let pairs: [string, string | undefined][];
  try {
    pairs = splitQueryString(query);
  } catch {
    return 0;
  }
  let max = 0;
  for (const [key, value] of pairs) {
    if (key !== 'select' || value === undefined) continue;
    try {
      max = Math.max(max, countEmbeds(parseSelect(value)));
    } catch {
      // The engine reports the parse error with its position.
    }
  }
  return max;
}

export function requestSizeLimits(app: FastifyInstance, options: RequestSizeOptions = {}): void {
  const maxUrlBytes = options.maxUrlBytes ?? DEFAULT_MAX_URL_BYTES;
  const maxEmbeds = options.maxEmbeds ?? DEFAULT_MAX_EMBEDS;
  const apiPrefix = options.apiPrefix ?? '/v1/';

  app.addHook('onRequest', async (request) => {
    const url = request.url;
    const bytes = Buffer.byteLength(url);
    if (bytes > maxUrlBytes) throw uriTooLong(maxUrlBytes, bytes);
    // Percent-encoded NUL in the path or a query value: no text column can hold it (body-guard.ts for bodies).
    if (url.includes('%00')) throw nulCharacter('the request target (path or query string)');
    const q = url.indexOf('?');
    if (q < 0 || !url.startsWith(apiPrefix) || !url.includes('select=')) return;
    const embeds = embedsInQuery(url.slice(q + 1));
    if (embeds > maxEmbeds) throw tooManyEmbeds(maxEmbeds, embeds);
  });

  const maxJsonDepth = options.maxJsonDepth ?? DEFAULT_MAX_JSON_DEPTH;
  app.addHook('preParsing', async (request, _reply, payload) => {
    const hasBody = request.headers['transfer-encoding'] !== undefined || Number(request.headers['content-length'] ?? 0) > 0;
    const kind = bodyKind(request.headers['content-type']);
    if (!hasBody || kind === 'other') return payload;
    const guard = new BodyGuard(kind, maxJsonDepth);
    // A failure of the source stream (an aborted upload) fails the guard, so the body reader sees it.
    payload.on('error', (error) => guard.destroy(error));
    return payload.pipe(guard);
  });
}
