/** The generic PostgREST-compatible query engine. See docs/query-engine.md. */
export { runRequest, errorResponse, type EngineRequest, type EngineResponse, type EngineOptions } from './run.js';
export { serveRequest, type EngineSession, type TableAccess, type WriteHook, type WriteHookInput, type WriteHookResult, type JsonRow } from './serve.js';
export { allowedMethods } from './plan/index.js';
export { quoteIdent } from './sql/quote.js';
