/**
 * One request through the engine with the host's checks, always in this order:
 *   parse and plan (pure, no database) → `authorize` with every table the plan reads and the one it writes →
 *   the write hook registered for the written table (POST/PATCH with a body) → the statement, in the transaction
 *   the host opens → the hook's change to the returned rows.
 * So nothing reaches the database, and no hook sees a body, before the host has authorized the whole request.
 */
import type { Transaction } from '../db/types.js';
import { ApiError } from '../errors/api-error.js';
import { parseJsonBody } from './parse/body.js';
import type { EngineRequest } from './parse/request.js';
import type { ParsedRequest } from './parse/types.js';
import { tableAccess, type TableAccess } from './plan/tables.js';
import type { EngineOptions } from './plan/types.js';
import { executePrepared, planned, prepareRequest, type PreparedRequest } from './run.js';
import { errorResponse, JSON_CONTENT_TYPE, OBJECT_CONTENT_TYPE, type EngineResponse } from './response.js';
import type { SchemaCache } from '../schema/types.js';


export type JsonRow = Record<string, unknown>;

/** What a write hook sees: the rows of a POST (one or more) or the one object of a PATCH. */
export interface WriteHookInput {
  action: 'insert' | 'update';
  rows: JsonRow[];
  /** The request's tenant (`EngineOptions.tenant`'s value: Staykit's organization), when it has one. */
  tenant: string | undefined;
}

export interface WriteHookResult {
  /** The rows to write instead (same count and shape: the hook fills in or replaces fields). */
  rows?: JsonRow[];
  /** Changes the rows of a successful JSON representation before it is sent. */
  representation?: (rows: JsonRow[]) => void;
}

/**
 * A per-table check or completion of the rows a write stores. Runs after authorization and before the statement,
 * outside the transaction (it may take its time, e.g. a DNS lookup). Throw an ApiError to refuse the write.
 */
export type WriteHook = (input: WriteHookInput) => Promise<WriteHookResult | undefined>;

export interface EngineSession {
  options: EngineOptions;
  /** Throws an ApiError (e.g. 403) when the request may not touch these tables. */
  authorize?: (access: TableAccess) => void;
  /** Write hooks by table name. */
  writeHooks?: ReadonlyMap<string, WriteHook>;
  /** Runs `work` in the request's transaction; a `rollback` result is answered but not committed. */
  transaction(work: (tx: Transaction) => Promise<{ result: EngineResponse; rollback: boolean }>): Promise<EngineResponse>;
}

function rowsOf(request: ParsedRequest): JsonRow[] | undefined {
  const payload = request.payload;
  if (!payload) return undefined;
  const value = JSON.parse(payload.raw) as JsonRow | JsonRow[];
  return Array.isArray(value) ? value : [value];
}

/** The request with the hook's rows as its body, planned again (the written columns may have changed). */
function withRows(prepared: Extract<PreparedRequest, { kind: 'statement' }>, rows: JsonRow[], cache: SchemaCache, options: EngineOptions) {
  const { request } = prepared;
  const kind = request.payload?.kind ?? 'object';
  const raw = JSON.stringify(kind === 'object' ? rows[0] : rows);
  const isInsert = request.action.type === 'insert';
  const payload = parseJsonBody(raw, { allowArray: isInsert, requireSameKeys: isInsert && request.query.columns === undefined });
  return planned({ ...request, payload }, cache, options);
}

async function runWriteHook(
  prepared: Extract<PreparedRequest, { kind: 'statement' }>,
  hook: WriteHook,
  cache: SchemaCache,
  options: EngineOptions,
): Promise<{ prepared: PreparedRequest; representation: WriteHookResult['representation'] }> {
  const action = prepared.plan.type;
  const rows = rowsOf(prepared.request);
  if ((action !== 'insert' && action !== 'update') || !rows) return { prepared, representation: undefined };
  const result = await hook({ action, rows, tenant: options.tenant?.value });
  // Planned again in any case: the first parse left the bulk key check to this one.
  return { prepared: withRows(prepared, result?.rows ?? rows, cache, options), representation: result?.representation };
}

function rewriteRepresentation(response: EngineResponse, change: (rows: JsonRow[]) => void): EngineResponse {
  const type = response.headers['Content-Type'];
  if (response.status >= 300 || response.body === undefined || (type !== JSON_CONTENT_TYPE && type !== OBJECT_CONTENT_TYPE)) {
    return response;
  }
  const value = JSON.parse(String(response.body)) as JsonRow | JsonRow[];
  change(Array.isArray(value) ? value : [value]);
  return { ...response, body: JSON.stringify(value) };
}

/** Serves one request. Never throws for client errors: they are answered in PostgREST's error shape. */
export async function serveRequest(request: EngineRequest, cache: SchemaCache, session: EngineSession): Promise<EngineResponse> {
  const { options } = session;
  try {
    const hook = session.writeHooks?.get(request.path);
    let prepared = prepareRequest(request, cache, options, { deferKeyCheck: hook !== undefined });
    let representation: WriteHookResult['representation'];
    if (prepared.kind === 'statement') {
      session.authorize?.(tableAccess(prepared.plan));
      if (hook) ({ prepared, representation } = await runWriteHook(prepared, hook, cache, options));
    }
    const ready = prepared;
    const response = await session.transaction(async (tx) => {
      let result: EngineResponse;
      try {
        result = await executePrepared(tx, ready, request.method, options);
      } catch (error) {
        if (!(error instanceof ApiError)) throw error;
        result = errorResponse(error);
      }
      return { result, rollback: result.rollback };
    });
    return representation ? rewriteRepresentation(response, representation) : response;
  } catch (error) {
    if (error instanceof ApiError) return errorResponse(error);
    throw error;
  }
}
