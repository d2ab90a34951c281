/** The generic PostgREST-compatible query engine. See docs/query-engine.md. */
export { runRequest, type EngineRequest, type EngineOptions } from './run.js';
export { errorResponse, type EngineResponse } from './response.js';
export { serveRequest, type EngineSession, type TableAccess, type WriteHook, type WriteHookInput, type WriteHookResult, type JsonRow } from './serve.js';
export { allowedMethods } from './plan/index.js';
export { quoteIdent } from './sql/quote.js';
export { chooseProfile, type ProfileChoice } from './profile.js';
