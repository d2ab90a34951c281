/** Parse stage entry point: EngineRequest (method, path, raw query, headers, raw body) → ParsedRequest. */
import { invalidPreferences } from '../../errors/catalogue.js';
import { ApiError } from '../../errors/api-error.js';
import { parseJsonBody } from './body.js';
import { csvToJson } from './csv.js';
import { explainRequested } from './explain.js';
import { negotiateAccept, parseContentType, parsePrefer, parseRangeHeader } from './headers.js';
import { checkPatterns } from './patterns.js';
import { parseQueryString } from './query-string.js';
import type { Action, ParsedRequest, Payload } from './types.js';

export interface EngineRequest {
  method: string;
  /** A resource name, or `rpc/<function>`. */
  path: string;
  /** Raw query string without `?`. */
  query: string;
  /** Lower-case header names. */
  headers: Record<string, string | undefined>;
  body: string | undefined;
}

export interface ParseLimits {
  maxEmbedDepth?: number;
  maxLogicDepth?: number;
  /**
   * Leave "all object keys must match" of a bulk insert to a later parse: a write hook may complete the rows first
   * (src/query/serve.ts).
   */
  deferKeyCheck?: boolean;
  /** Longest like/ilike/match/imatch pattern or fts query (default 1000 characters). */
  maxPatternLength?: number;
  /** The time zones `Prefer: timezone=` may name (the schema cache's `pg_timezone_names`). */
  timezones?: ReadonlySet<string>;
}

function actionFor(method: string, isRpc: boolean): Action | undefined {
  if (method === 'OPTIONS') return { type: 'options' };
  if (isRpc) {
    if (method === 'GET' || method === 'HEAD' || method === 'POST') return { type: 'rpc', method };
    return undefined;
  }
  switch (method) {
    case 'GET':
      return { type: 'read', headersOnly: false };
    case 'HEAD':
      return { type: 'read', headersOnly: true };
    case 'POST':
      return { type: 'insert' };
    case 'PATCH':
      return { type: 'update' };
    case 'DELETE':
      return { type: 'delete' };
    default:
      return undefined;
  }
}

export class UnsupportedMethod extends Error {
  constructor(
    readonly method: string,
    readonly target: string,
    readonly isRpc: boolean,
  ) {
    super(`Unsupported HTTP method: ${method}`);
  }
}

export function parseRequest(request: EngineRequest, limits: ParseLimits = {}): ParsedRequest {
  const method = request.method.toUpperCase();
  const path = request.path.replace(/^\/+|\/+$/g, '');
  const isRpc = path.startsWith('rpc/');
  const target = isRpc ? path.slice(4) : path;
  const action = actionFor(method, isRpc);
  if (!action) throw new UnsupportedMethod(method, target, isRpc);
  const headers = request.headers;
  const preferences = parsePrefer(headers['prefer'], limits.timezones);
  if (preferences.handling === 'strict' && preferences.invalid.length > 0) {
    throw invalidPreferences(preferences.invalid);
  }
  const query = parseQueryString(request.query, { isRpc, ...limits });
  checkPatterns(query, limits.maxPatternLength);
  if (action.type === 'options') {
    return { action, target, isRpc, query, preferences, accept: 'json', range: undefined, payload: undefined, csvBody: undefined };
  }
  const explain = explainRequested(headers['accept']);
  const accept = negotiateAccept(explain ? explain.for : headers['accept'], action.type === 'read' || action.type === 'rpc');
  const range = method === 'GET' || method === 'HEAD' ? parseRangeHeader(headers['range']) : undefined;
  let payload: Payload | undefined;
  let csvBody: string | undefined;
  const hasBody = action.type === 'insert' || action.type === 'update' || (action.type === 'rpc' && method === 'POST');
  if (hasBody) {
    const bodyType = parseContentType(headers['content-type'], action.type === 'insert');
    if (bodyType === 'csv') {
      csvBody = request.body ?? '';
      const { columns, json } = csvToJson(csvBody);
      // The header names the columns even when no row follows: unknown ones are refused all the same.
      payload = { ...parseJsonBody(json, { allowArray: true, requireSameKeys: false }), keys: columns };
    } else if (action.type !== 'rpc') {
      payload = parseJsonBody(request.body, {
        allowArray: action.type === 'insert',
        requireSameKeys: action.type === 'insert' && query.columns === undefined && limits.deferKeyCheck !== true,
      });
    } else if (request.body !== undefined && request.body.trim() !== '') {
      payload = parseJsonBody(request.body, { allowArray: false, requireSameKeys: false });
    }
  }
  return { action, target, isRpc, query, preferences, accept, range, payload, csvBody, explain };
}

export { ApiError };
