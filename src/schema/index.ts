export { loadSchemaCache, type SchemaCacheOptions } from './load.js';
export { loadSchemaCacheWithSnapshot } from './snapshot.js';
export { deriveRelationships } from './relationships.js';
export * from './types.js';
