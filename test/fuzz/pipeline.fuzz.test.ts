/**
 * Pure fuzzing of the query engine's parse → plan → SQL stages (no database): random and adversarial requests
 * against an in-memory schema never throw anything but ApiError and never put a client value into SQL text.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { memoryCache } from '../query/memory-cache.js';
import { engineRequest, fuzzParameters, type SchemaShape } from './arbitraries.js';
import { checkPipeline, type PipelineOutcome } from './check.js';
import type { SchemaCache } from '../../src/schema/index.js';

export function shapeOf(cache: SchemaCache): SchemaShape {
  const tables = [...cache.tables.values()].map((table) => ({
    name: table.name,
    columns: table.columns.map((column) => column.name),
    embeds: [...new Set([...cache.relationships.values()].flat().filter((r) => r.table === table.name).map((r) => r.foreignTable))],
  }));
  return { tables, functions: [...cache.routines.keys()] };
}

test('parse → plan → SQL: only ApiErrors, values only as parameters (in-memory schema)', () => {
  const cache = memoryCache();
  const outcomes = new Map<PipelineOutcome, number>();
  fc.assert(
    fc.property(engineRequest(shapeOf(cache)), (request) => {
      const outcome = checkPipeline(request, cache, { maxRows: 1000, requireFilterForWrites: true, basePath: '/v1', maxEmbedDepth: 8, maxLogicDepth: 10, maxInsertRows: 1000 });
      outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1);
    }),
    fuzzParameters(6000),
  );
  console.log(`# outcomes ${JSON.stringify(Object.fromEntries(outcomes))}`);
  // The generator must reach the SQL stage often enough to mean something.
  assert.ok((outcomes.get('statement') ?? 0) > 300, JSON.stringify([...outcomes]));
});
