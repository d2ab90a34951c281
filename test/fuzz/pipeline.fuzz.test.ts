/**
 * Pure fuzzing of the query engine's parse → plan → SQL stages (no database): random and adversarial requests
 * against an in-memory schema never throw anything but ApiError and never put a client value into SQL text.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { memoryCache } from '../query/memory-cache.js';
import { engineRequest, fuzzParameters } from './arbitraries.js';
import { checkPipeline, shapeOf, type PipelineOutcome } from './check.js';


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
