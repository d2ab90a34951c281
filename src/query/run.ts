/**
 * The engine: parse → plan → SQL → run (one statement; plus an EXPLAIN for planned/estimated counts) → response.
 * The caller owns the transaction (role, tenant settings, commit/rollback); `rollback` in the response tells it
 * not to commit (`Prefer: tx=rollback`, or an error after a mutation, e.g. PGRST116 on a single-object insert).
 */
import type { Queryable, Transaction } from '../db/types.js';
import { ApiError } from '../errors/api-error.js';
import { invalidRange, singularityError, unsupportedMethod } from '../errors/catalogue.js';
import { fromDatabaseError } from '../errors/database-error.js';
import type { SchemaCache } from '../schema/types.js';
import { preferenceApplied } from './parse/headers.js';
import { parseRequest, UnsupportedMethod, type EngineRequest, type ParseLimits } from './parse/request.js';
import type { ParsedRequest } from './parse/types.js';
import { allowedMethods, planRequest } from './plan/index.js';
import type { EngineOptions, Plan } from './plan/types.js';
import { contentRange, contentTypeFor, JSON_CONTENT_TYPE, locationFor, rangeStatus } from './response.js';
import { buildStatement, type Statement } from './sql/statement.js';

export type { EngineRequest } from './parse/request.js';
export type { EngineOptions } from './plan/types.js';

export interface EngineResponse {
  status: number;
  headers: Record<string, string>;
  body: string | undefined;
  /** True when the transaction must be rolled back (tx=rollback, or an error). */
  rollback: boolean;
}

interface ResultRow {
  total: number | string | null;
  page_total: number | string;
  body: string | null;
  inserted?: number | string | null;
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

async function plannedCount(tx: Queryable, statement: Statement): Promise<number | undefined> {
  if (!statement.countText) return undefined;
  const { rows } = await tx.query<{ 'QUERY PLAN': unknown }>(`EXPLAIN (FORMAT JSON) ${statement.countText}`, statement.countValues ?? []);
  const raw = rows[0]?.['QUERY PLAN'];
  const parsed = typeof raw === 'string' ? (JSON.parse(raw) as unknown) : raw;
  const plan = Array.isArray(parsed) ? (parsed[0] as { Plan?: { 'Plan Rows'?: number } } | undefined) : undefined;
  const estimate = plan?.Plan?.['Plan Rows'];
  return typeof estimate === 'number' ? Math.round(estimate) : undefined;
}

function contentLocation(options: EngineOptions, request: ParsedRequest): string {
  const path = `${options.basePath}/${request.action.type === 'rpc' ? `rpc/${request.target}` : request.target}`;
  return request.query.canonical === '' ? path : `${path}?${request.query.canonical}`;
}

function optionsResponse(allow: string): EngineResponse {
  return { status: 200, headers: { Allow: allow }, body: undefined, rollback: false };
}

async function execute(
  tx: Transaction,
  request: ParsedRequest,
  plan: Exclude<Plan, { type: 'options' }>,
  options: EngineOptions,
): Promise<EngineResponse> {
  const statement = buildStatement(plan, options.maxRows);
  // A read is the transaction's only statement unless its count needs an EXPLAIN afterwards; when reads have no
  // side effects and the client did not ask for a rollback, its COMMIT can go out with it (one round trip less).
  const last =
    plan.type === 'read' && options.readsArePure === true && request.preferences.tx !== 'rollback' &&
    plan.count !== 'planned' && plan.count !== 'estimated';
  let row: ResultRow | undefined;
  try {
    const result = last && tx.queryAndCommit
      ? await tx.queryAndCommit<ResultRow>(statement.text, statement.values)
      : await tx.query<ResultRow>(statement.text, statement.values);
    row = result.rows[0];
  } catch (error) {
    throw fromDatabaseError(error);
  }
  const pageTotal = Number(row?.page_total ?? 0);
  let total = row?.total === null || row?.total === undefined ? undefined : Number(row.total);
  const body = row?.body ?? '';
  const prefs = request.preferences;
  const rollback = prefs.tx === 'rollback';
  const headers: Record<string, string> = {};

  if (plan.type === 'read' || plan.type === 'rpc') {
    if (plan.count === 'planned' || (plan.count === 'estimated' && total !== undefined && total > options.maxRows)) {
      try {
        total = await plannedCount(tx, statement);
      } catch (error) {
        throw fromDatabaseError(error);
      }
    }
    if (plan.type === 'rpc' && plan.routine.returnsVoid) {
      const applied = preferenceApplied(prefs, ['count', 'tx', 'handling']);
      if (applied) headers['Preference-Applied'] = applied;
      return { status: 204, headers, body: undefined, rollback };
    }
    const lower = plan.node.offset;
    const upper = lower + pageTotal - 1;
    const status = rangeStatus(lower, upper, total);
    headers['Content-Range'] = contentRange(lower, upper, total);
    if (plan.type === 'read') headers['Content-Location'] = contentLocation(options, request);
    const applied = preferenceApplied(prefs, ['count', 'tx', 'handling']);
    if (applied) headers['Preference-Applied'] = applied;
    if (status === 416) {
      const error = invalidRange({ kind: 'out-of-bounds', offset: lower, total: total ?? 0 });
      return { ...errorResponse(error), headers: { ...headers, 'Content-Type': JSON_CONTENT_TYPE } };
    }
    const media = plan.type === 'rpc' && !plan.scalar && !plan.routine.returnsSet && plan.media === 'json' ? 'json' : plan.media;
    if (media === 'object' && pageTotal !== 1 && !(plan.type === 'rpc' && plan.scalar)) throw singularityError(pageTotal);
    headers['Content-Type'] = contentTypeFor(media);
    return { status, headers, body: plan.headersOnly ? undefined : body, rollback };
  }

  // Mutations.
  if (plan.media === 'object' && pageTotal !== 1) throw singularityError(pageTotal);
  const representation = prefs.return === 'representation';
  const counted = prefs.count === 'exact' || prefs.count === 'estimated' ? pageTotal : undefined;
  if (plan.type === 'insert') {
    headers['Content-Range'] = contentRange(1, 0, counted);
    if (prefs.return === 'headers-only' && pageTotal === 1 && plan.table.primaryKey.length > 0) {
      const rows = JSON.parse(body) as Record<string, unknown>[];
      if (rows[0]) headers['Location'] = locationFor(options.basePath, plan.table.name, rows[0]);
    }
    const applied = preferenceApplied(
      { ...prefs, resolution: plan.onConflict ? prefs.resolution : undefined },
      ['resolution', 'missing', 'return', 'count', 'tx', 'handling'],
    );
    if (applied) headers['Preference-Applied'] = applied;
    if (representation) headers['Content-Type'] = contentTypeFor(plan.media);
    // PostgREST: 201, except 200 when merge-duplicates inserted nothing (every row was an update).
    const status = row?.inserted !== null && row?.inserted !== undefined && Number(row.inserted) === 0 ? 200 : 201;
    return { status, headers, body: representation ? body : undefined, rollback };
  }
  headers['Content-Range'] =
    plan.type === 'update' ? contentRange(0, pageTotal - 1, counted) : contentRange(1, 0, counted);
  const applied = preferenceApplied(prefs, ['missing', 'return', 'count', 'tx', 'handling'].filter(
    (key) => plan.type === 'update' || key !== 'missing',
  ) as ('missing' | 'return' | 'count' | 'tx' | 'handling')[]);
  if (applied) headers['Preference-Applied'] = applied;
  if (representation) {
    headers['Content-Type'] = contentTypeFor(plan.media);
    return { status: 200, headers, body, rollback };
  }
  return { status: 204, headers, body: undefined, rollback };
}

/** A request parsed and planned (no database yet), ready for the host's checks and then `executePrepared`. */
export type PreparedRequest =
  | { kind: 'options'; allow: string }
  | { kind: 'statement'; request: ParsedRequest; plan: Exclude<Plan, { type: 'options' }> };

/** Parse and plan: pure, touches no database. Throws ApiErrors for client errors. */
export function prepareRequest(
  request: EngineRequest,
  cache: SchemaCache,
  options: EngineOptions,
  parse: Pick<ParseLimits, 'deferKeyCheck'> = {},
): PreparedRequest {
  let parsed: ParsedRequest;
  try {
    const limits = {
      maxEmbedDepth: options.maxEmbedDepth ?? 8,
      maxLogicDepth: options.maxLogicDepth ?? 10,
      maxPatternLength: options.maxPatternLength,
      ...parse,
    };
    parsed = parseRequest(request, limits);
  } catch (error) {
    if (error instanceof UnsupportedMethod) {
      const table = cache.tables.get(error.target);
      const allow = error.isRpc ? 'OPTIONS,GET,HEAD,POST' : table ? allowedMethods(table) : 'OPTIONS,GET,HEAD';
      throw unsupportedMethod(error.method, allow);
    }
    throw error;
  }
  return planned(parsed, cache, options);
}

/** Plans a parsed request again, e.g. after a write hook changed its body. */
export function planned(request: ParsedRequest, cache: SchemaCache, options: EngineOptions): PreparedRequest {
  const plan = planRequest(request, cache, options);
  return plan.type === 'options' ? { kind: 'options', allow: plan.allow } : { kind: 'statement', request, plan };
}

/** Runs a prepared request in the caller's transaction. Throws ApiErrors for client errors. */
export async function executePrepared(
  tx: Transaction,
  prepared: PreparedRequest,
  method: string,
  options: EngineOptions,
): Promise<EngineResponse> {
  if (prepared.kind === 'options') return optionsResponse(prepared.allow);
  const response = await execute(tx, prepared.request, prepared.plan, options);
  return method.toUpperCase() === 'HEAD' ? { ...response, body: undefined } : response;
}

/** Runs one request against the schema cache inside the caller's transaction. Never throws for client errors. */
export async function runRequest(
  tx: Transaction,
  request: EngineRequest,
  cache: SchemaCache,
  options: EngineOptions,
): Promise<EngineResponse> {
  try {
    return await executePrepared(tx, prepareRequest(request, cache, options), request.method, options);
  } catch (error) {
    if (error instanceof ApiError) return errorResponse(error);
    throw error;
  }
}
