/**
 * The engine's response stage: what the statement returned → status, headers and body as PostgREST v12 sends them
 * (its Response.hs and RangeQuery.hs): Content-Range, 200/206/416, 201/204, Location for `return=headers-only`,
 * Content-Location, Preference-Applied. Touches no database.
 */
import type { ApiError } from '../errors/api-error.js';
import { invalidRange, singularityError } from '../errors/catalogue.js';
import { maxAffectedViolation } from '../errors/postgrest-features.js';
import { preferenceApplied } from './parse/headers.js';
import type { ParsedRequest } from './parse/types.js';
import type { EngineOptions, Plan } from './plan/types.js';

export interface EngineResponse {
  status: number;
  headers: Record<string, string>;
  body: string | Buffer | undefined;
  /** True when the transaction must be rolled back (tx=rollback, or an error). */
  rollback: boolean;
}

/** What the request's statement returned (and, for a planned or estimated count, the planner's estimate). */
export interface ExecutedStatement {
  /** Rows in the body. */
  pageTotal: number;
  /** All matching rows, when counted. */
  total: number | undefined;
  /** The body PostgreSQL built, in the plan's media type (its bytes, on PostgreSQL). */
  body: string | Buffer;
  /** Rows an insert added (not updated by merge-duplicates), when the statement reports it. */
  inserted: number | undefined;
  /** Rows a PATCH or DELETE changed, when the statement reports it (the page may leave some out: `!inner` embeds). */
  affected?: number | undefined;
}

/** `Content-Range` value: `lower-upper/total`, `*` when the page is empty or the total is 0, `/*` when not counted. */
export function contentRange(lower: number, upper: number, total: number | undefined): string {
  const totalText = total === undefined ? '*' : String(total);
  const range = total !== 0 && lower <= upper ? `${lower}-${upper}` : '*';
  return `${range}/${totalText}`;
}

/** 200, 206 (the page is smaller than the total) or 416 (the offset is past the total); only with a known total. */
export function rangeStatus(lower: number, upper: number, total: number | undefined): number {
  if (total === undefined) return 200;
  if (lower > total) return 416;
  if (1 + upper - lower < total) return 206;
  return 200;
}

export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';
export const OBJECT_CONTENT_TYPE = 'application/vnd.pgrst.object+json; charset=utf-8';
export const CSV_CONTENT_TYPE = 'text/csv; charset=utf-8';

export function contentTypeFor(media: 'json' | 'object' | 'csv'): string {
  return media === 'csv' ? CSV_CONTENT_TYPE : media === 'object' ? OBJECT_CONTENT_TYPE : JSON_CONTENT_TYPE;
}

/** `/table?id=eq.1`: PostgREST's Location for one inserted row (`renderSimpleQuery`). */
export function locationFor(basePath: string, table: string, keys: Record<string, unknown>): string {
  const query = Object.entries(keys)
    .map(([key, value]) => `${encodeURIComponent(key)}=${encodeURIComponent(`eq.${value === null ? 'null' : String(value)}`)}`)
    .join('&');
  return `${basePath}/${encodeURIComponent(table)}${query ? `?${query}` : ''}`;
}

/** An ApiError as a response (PostgREST's error body). */
export function errorResponse(error: ApiError): EngineResponse {
  return {
    status: error.status,
    headers: { 'Content-Type': JSON_CONTENT_TYPE, ...error.headers },
    body: JSON.stringify(error.toBody()),
    rollback: true,
  };
}

export function optionsResponse(allow: string): EngineResponse {
  return { status: 200, headers: { Allow: allow }, body: undefined, rollback: false };
}

function contentLocation(options: EngineOptions, request: ParsedRequest): string {
  const path = `${options.basePath}/${request.action.type === 'rpc' ? `rpc/${request.target}` : request.target}`;
  return request.query.canonical === '' ? path : `${path}?${request.query.canonical}`;
}

/**
 * PostgREST 13's `Prefer: handling=strict, max-affected=N`: a PATCH, DELETE or function call whose statement touched
 * (returned) more than N rows is refused with PGRST124; the error makes the caller roll the transaction back.
 */
function checkMaxAffected(prefs: ParsedRequest['preferences'], affected: number): void {
  if (prefs.handling === 'strict' && prefs.maxAffected !== undefined && affected > prefs.maxAffected) {
    throw maxAffectedViolation(affected);
  }
}

/** 200/206/416 (or 204 for a void function) with Content-Range, Content-Location and the body in its media type. */
function readResponse(
  request: ParsedRequest,
  plan: Extract<Plan, { type: 'read' | 'rpc' }>,
  { pageTotal, total, body }: ExecutedStatement,
  options: EngineOptions,
): EngineResponse {
  const prefs = request.preferences;
  const rollback = prefs.tx === 'rollback';
  const headers: Record<string, string> = {};
  if (plan.type === 'rpc') checkMaxAffected(prefs, pageTotal);
  const appliedKeys = ['params', 'count', 'tx', 'handling', 'max-affected'] as const;
  if (plan.type === 'rpc' && plan.routine.returnsVoid) {
    const applied = preferenceApplied(prefs, appliedKeys);
    if (applied) headers['Preference-Applied'] = applied;
    return { status: 204, headers, body: undefined, rollback };
  }
  const lower = plan.node.offset;
  const upper = lower + pageTotal - 1;
  const status = rangeStatus(lower, upper, total);
  headers['Content-Range'] = contentRange(lower, upper, total);
  if (plan.type === 'read') headers['Content-Location'] = contentLocation(options, request);
  const applied = preferenceApplied(prefs, plan.type === 'rpc' ? appliedKeys : ['count', 'tx', 'handling']);
  if (applied) headers['Preference-Applied'] = applied;
  if (status === 416) {
    const error = invalidRange({ kind: 'out-of-bounds', offset: lower, total: total ?? 0 });
    return { ...errorResponse(error), headers: { ...headers, 'Content-Type': JSON_CONTENT_TYPE } };
  }
  const media = plan.type === 'rpc' && !plan.scalar && !plan.routine.returnsSet && plan.media === 'json' ? 'json' : plan.media;
  if (media === 'object' && pageTotal !== 1 && !(plan.type === 'rpc' && plan.scalar)) throw singularityError(pageTotal, options.postgrest === 12);
  headers['Content-Type'] = contentTypeFor(media);
  return { status, headers, body: plan.headersOnly ? undefined : body, rollback };
}

/** 201/200/204 with Content-Range, Location (`return=headers-only`) and the representation when asked for. */
function mutationResponse(
  request: ParsedRequest,
  plan: Extract<Plan, { type: 'insert' | 'update' | 'delete' }>,
  { pageTotal, body, inserted, affected }: ExecutedStatement,
  options: EngineOptions,
): EngineResponse {
  const prefs = request.preferences;
  const rollback = prefs.tx === 'rollback';
  const headers: Record<string, string> = {};
  if (plan.media === 'object' && pageTotal !== 1) throw singularityError(pageTotal, options.postgrest === 12);
  const representation = prefs.return === 'representation';
  const counted = prefs.count === 'exact' || prefs.count === 'estimated' ? pageTotal : undefined;
  if (plan.type === 'insert') {
    headers['Content-Range'] = contentRange(1, 0, counted);
    if (prefs.return === 'headers-only' && pageTotal === 1 && plan.table.primaryKey.length > 0) {
      const rows = JSON.parse(String(body)) as Record<string, unknown>[];
      if (rows[0]) headers['Location'] = locationFor(options.basePath, plan.table.name, rows[0]);
    }
    const applied = preferenceApplied(
      { ...prefs, resolution: plan.onConflict ? prefs.resolution : undefined },
      ['resolution', 'missing', 'return', 'count', 'tx', 'handling', 'max-affected'],
    );
    if (applied) headers['Preference-Applied'] = applied;
    if (representation) headers['Content-Type'] = contentTypeFor(plan.media);
    // PostgREST: 201, except 200 when merge-duplicates inserted nothing (every row was an update).
    const status = inserted === 0 ? 200 : 201;
    return { status, headers, body: representation ? body : undefined, rollback };
  }
  checkMaxAffected(prefs, affected ?? pageTotal);
  headers['Content-Range'] =
    plan.type === 'update' ? contentRange(0, pageTotal - 1, counted) : contentRange(1, 0, counted);
  const applied = preferenceApplied(prefs, ['missing', 'return', 'count', 'tx', 'handling', 'max-affected'].filter(
    (key) => plan.type === 'update' || key !== 'missing',
  ) as ('missing' | 'return' | 'count' | 'tx' | 'handling' | 'max-affected')[]);
  if (applied) headers['Preference-Applied'] = applied;
  if (representation) {
    headers['Content-Type'] = contentTypeFor(plan.media);
    return { status: 200, headers, body, rollback };
  }
  return { status: 204, headers, body: undefined, rollback };
}

/**
 * The response to an executed request. Throws PGRST116 (an ApiError) when a single object was asked for and not
 * exactly one row came back.
 */
export function respond(
  request: ParsedRequest,
  plan: Exclude<Plan, { type: 'options' }>,
  executed: ExecutedStatement,
  options: EngineOptions,
): EngineResponse {
  return plan.type === 'read' || plan.type === 'rpc'
    ? readResponse(request, plan, executed, options)
    : mutationResponse(request, plan, executed, options);
}
