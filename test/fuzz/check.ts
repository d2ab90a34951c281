/**
 * The pure pipeline property shared by the fuzz tests: parse → plan → SQL on any request throws nothing but an
 * ApiError (or the parser's UnsupportedMethod, which runRequest turns into 405), and the statement it builds
 * never holds a client's data value in its text.
 */
import assert from 'node:assert/strict';
import { ApiError } from '../../src/errors/api-error.js';
import { parseRequest, UnsupportedMethod, type EngineRequest } from '../../src/query/parse/request.js';
import { planRequest } from '../../src/query/plan/index.js';
import type { EngineOptions } from '../../src/query/plan/types.js';
import { buildStatement } from '../../src/query/sql/statement.js';
import type { SchemaCache } from '../../src/schema/types.js';
import { MARKER, type SchemaShape } from './arbitraries.js';

export const STAYKIT_ENGINE_OPTIONS: EngineOptions = {
  maxRows: 1000,
  requireFilterForWrites: true,
  basePath: '/v1',
  maxEmbedDepth: 8,
  maxLogicDepth: 10,
  maxInsertRows: 1000,
  tenant: { column: 'organization_id', value: '00000000-0000-0000-0000-000000000001' },
};

function expectClientError(stage: string, error: unknown, request: EngineRequest): void {
  if (error instanceof ApiError) {
    assert.ok(error.status >= 300 && error.status < 500, `${stage}: ApiError with status ${error.status}: ${error.message}`);
    return;
  }
  assert.fail(`${stage} threw ${String((error as Error)?.stack ?? error)}\nfor ${JSON.stringify(request)}`);
}

export type PipelineOutcome = 'parse-error' | 'plan-error' | 'options' | 'statement';

export function checkPipeline(request: EngineRequest, cache: SchemaCache, options: EngineOptions = STAYKIT_ENGINE_OPTIONS): PipelineOutcome {
  let parsed;
  try {
    parsed = parseRequest(request, { maxEmbedDepth: options.maxEmbedDepth, maxLogicDepth: options.maxLogicDepth });
  } catch (error) {
    if (error instanceof UnsupportedMethod) return 'parse-error';
    expectClientError('parseRequest', error, request);
    return 'parse-error';
  }
  let plan;
  try {
    plan = planRequest(parsed, cache, options);
  } catch (error) {
    expectClientError('planRequest', error, request);
    return 'plan-error';
  }
  if (plan.type === 'options') return 'options';
  let statement;
  try {
    statement = buildStatement(plan);
  } catch (error) {
    expectClientError('buildStatement', error, request);
    return 'plan-error';
  }
  assert.ok(!statement.text.includes(MARKER), `a client value reached the SQL text:\n${statement.text}\nfor ${JSON.stringify(request)}`);
  assert.ok(!(statement.countText ?? '').includes(MARKER), `a client value reached the count SQL text for ${JSON.stringify(request)}`);
  for (const value of statement.values) assert.ok(value === null || typeof value === 'string');
  return 'statement';
}

/** Table names, their columns and the tables they can embed, for the request generator. */
export function shapeOf(cache: SchemaCache): SchemaShape {
  const tables = [...cache.tables.values()].map((table) => ({
    name: table.name,
    columns: table.columns.map((column) => column.name),
    embeds: [...new Set([...cache.relationships.values()].flat().filter((r) => r.table === table.name).map((r) => r.foreignTable))],
  }));
  return { tables, functions: [...cache.routines.keys()] };
}
