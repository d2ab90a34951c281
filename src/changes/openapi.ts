/** The change feed operation in the OpenAPI document (src/openapi/document.ts adds it to its paths and schemas), from its route definition (bodies.ts). */
import { openApiPaths } from '../routing/route-schema.js';
import { changeFeed } from './bodies.js';

const defined = openApiPaths([changeFeed]);

export const changeSchemas: Record<string, object> = defined.schemas;
export const changePaths: Record<string, object> = defined.paths;
