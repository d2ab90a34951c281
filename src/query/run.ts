/**
 * The engine: parse → plan → SQL → run (one statement; plus an EXPLAIN for planned/estimated counts) → response
 * (response.ts).
 * The caller owns the transaction (role, tenant settings, commit/rollback); `rollback` in the response tells it
 * not to commit (`Prefer: tx=rollback`, or an error after a mutation, e.g. PGRST116 on a single-object insert).
 */
import type { QueryOptions, Queryable, Transaction } from '../db/types.js';
import { ApiError } from '../errors/api-error.js';
import { unsupportedMethod } from '../errors/catalogue.js';
import { fromDatabaseError } from '../errors/database-error.js';
import type { SchemaCache } from '../schema/types.js';
import { parseRequest, UnsupportedMethod, type EngineRequest, type ParseLimits } from './parse/request.js';
import type { ExplainRequest } from './parse/explain.js';
import type { ParsedRequest } from './parse/types.js';
import { allowedMethods, planRequest } from './plan/index.js';
import { reusesPlan } from './plan/plan-reuse.js';
import type { EngineOptions, Plan } from './plan/types.js';
import { errorResponse, optionsResponse, respond, type EngineResponse, type ExecutedStatement } from './response.js';
import { buildStatement, type Statement } from './sql/statement.js';


interface ResultRow {
  total: number | string | null;
  page_total: number | string;
  body: string | Buffer | null;
  inserted?: number | string | null;
  affected?: number | string | null;
}

/** The body goes out as the bytes PostgreSQL sent (src/db/column-bytes.ts). */
const BODY_BYTES: QueryOptions = { bytes: ['body'] };
/** … and the statement's plan is made once per connection (plan/plan-reuse.ts). */
const BODY_BYTES_REUSED_PLAN: QueryOptions = { ...BODY_BYTES, reusePlan: true };

async function plannedCount(tx: Queryable, statement: Statement): Promise<number | undefined> {
  if (!statement.countText) return undefined;
  const { rows } = await tx.query<{ 'QUERY PLAN': unknown }>(`EXPLAIN (FORMAT JSON) ${statement.countText}`, statement.countValues ?? []);
  const raw = rows[0]?.['QUERY PLAN'];
  const parsed = typeof raw === 'string' ? (JSON.parse(raw) as unknown) : raw;
  const plan = Array.isArray(parsed) ? (parsed[0] as { Plan?: { 'Plan Rows'?: number } } | undefined) : undefined;
  const estimate = plan?.Plan?.['Plan Rows'];
  return typeof estimate === 'number' ? Math.round(estimate) : undefined;
}

/**
 * `Accept: application/vnd.pgrst.plan`: the EXPLAIN of the statement, in text (PostgreSQL's lines) or JSON. Always
 * rolled back: with `analyze` the statement really runs, and a plan is a question, never a change.
 */
async function explainResponse(tx: Queryable, statement: Statement, explain: ExplainRequest): Promise<EngineResponse> {
  const settings = [`FORMAT ${explain.format.toUpperCase()}`, ...explain.options.map((option) => option.toUpperCase())];
  let lines: unknown[];
  try {
    const { rows } = await tx.query<{ 'QUERY PLAN': unknown }>(`EXPLAIN (${settings.join(', ')}) ${statement.text}`, statement.values);
    lines = rows.map((row) => row['QUERY PLAN']);
  } catch (error) {
    throw fromDatabaseError(error);
  }
  const body =
    explain.format === 'json'
      ? typeof lines[0] === 'string' ? lines[0] : JSON.stringify(lines[0])
      : `${lines.map(String).join('\n')}\n`;
  const contentType = `application/vnd.pgrst.plan+${explain.format}; for="${explain.for}"; charset=utf-8`;
  return { status: 200, headers: { 'Content-Type': contentType }, body, rollback: true };
}

async function execute(
  tx: Transaction,
  request: ParsedRequest,
  plan: Exclude<Plan, { type: 'options' }>,
  options: EngineOptions,
): Promise<EngineResponse> {
  const statement = buildStatement(plan, { maxRows: options.maxRows });
  // `Prefer: timezone=…`: the request's transaction runs in that zone (timestamptz values are written in it).
  if (request.preferences.timezone !== undefined) {
    try {
      await tx.query(`SELECT set_config('TimeZone', $1, true)`, [request.preferences.timezone]);
    } catch (error) {
      throw fromDatabaseError(error);
    }
  }
  if (request.explain) return explainResponse(tx, statement, request.explain);
  // A read is the transaction's only statement unless its count needs an EXPLAIN afterwards; when reads have no
  // side effects and the client did not ask for a rollback, its COMMIT can go out with it (one round trip less).
  const last =
    plan.type === 'read' && options.readsArePure === true && request.preferences.tx !== 'rollback' &&
    plan.count !== 'planned' && plan.count !== 'estimated';
  const queryOptions = reusesPlan(plan) ? BODY_BYTES_REUSED_PLAN : BODY_BYTES;
  let row: ResultRow | undefined;
  try {
    const result = last && tx.queryAndCommit
      ? await tx.queryAndCommit<ResultRow>(statement.text, statement.values, queryOptions)
      : await tx.query<ResultRow>(statement.text, statement.values, queryOptions);
    row = result.rows[0];
  } catch (error) {
    throw fromDatabaseError(error);
  }
  const executed: ExecutedStatement = {
    pageTotal: Number(row?.page_total ?? 0),
    total: row?.total === null || row?.total === undefined ? undefined : Number(row.total),
    body: row?.body ?? '',
    inserted: row?.inserted === null || row?.inserted === undefined ? undefined : Number(row.inserted),
    affected: row?.affected === null || row?.affected === undefined ? undefined : Number(row.affected),
  };
  // PostgREST's rules: planned is the planner's estimate; estimated is the exact count up to db-max-rows, beyond it
  // the larger of the estimate and the count, which for a table read stopped at db-max-rows + 1 (statement.ts).
  // Without db-max-rows every count is "beyond" it (PostgREST compares with an absent limit as with the lowest).
  const counted = executed.total;
  const beyondMaxRows = counted !== undefined && (options.maxRows === null || counted > options.maxRows);
  const estimate =
    (plan.type === 'read' || plan.type === 'rpc') &&
    (plan.count === 'planned' || (plan.count === 'estimated' && beyondMaxRows));
  if (estimate) {
    let planned: number | undefined;
    try {
      planned = await plannedCount(tx, statement);
    } catch (error) {
      throw fromDatabaseError(error);
    }
    executed.total = plan.count === 'planned' || counted === undefined || planned === undefined ? planned : Math.max(counted, planned);
  }
  return respond(request, plan, executed, options);
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
      timezones: cache.timezones,
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
