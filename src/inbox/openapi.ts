/** The inbound e-mail webhook in the OpenAPI document (src/openapi/document.ts adds it), from its route definition. */
import { openApiPaths } from '../routing/route-schema.js';
import { inboundEmailRoute } from './bodies.js';

const defined = openApiPaths([inboundEmailRoute]);

export const inboxSchemas: Record<string, object> = defined.schemas;
export const inboxPaths: Record<string, object> = defined.paths;
