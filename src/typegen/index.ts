export { generateTypescriptTypes, type CompositeType, type TypegenInput } from './typescript.js';
export { databaseTypes } from './load.js';
