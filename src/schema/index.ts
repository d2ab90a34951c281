export { loadSchemaCache } from './load.js';
export { deriveRelationships } from './relationships.js';
export * from './types.js';
