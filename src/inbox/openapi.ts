/** The inbox's routes in the OpenAPI document (src/openapi/document.ts adds them), from their route definitions. */
import { openApiPaths } from '../routing/route-schema.js';
import { attachmentDownloadRoute } from './attachment-route.js';
import { inboundEmailRoute } from './bodies.js';

const defined = openApiPaths([inboundEmailRoute, attachmentDownloadRoute]);

export const inboxSchemas: Record<string, object> = defined.schemas;
export const inboxPaths: Record<string, object> = defined.paths;
