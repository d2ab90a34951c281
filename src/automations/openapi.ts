/** The automation operations in the OpenAPI document (src/openapi/document.ts adds them to its paths and schemas), from their route definitions (bodies.ts). */
import { openApiPaths } from '../routing/route-schema.js';
import { templatePreview, templateTestSend } from './bodies.js';

const defined = openApiPaths([templatePreview, templateTestSend]);

export const automationSchemas: Record<string, object> = defined.schemas;
export const automationPaths: Record<string, object> = defined.paths;
