/**
 * The widget operations in the OpenAPI document (src/openapi/document.ts adds them to its paths and schemas): those
 * of the route definitions (bodies.ts).
 */
import { openApiPaths } from '../routing/route-schema.js';
import { publishableKeyRoutes, widgetCatalogue } from './bodies.js';

const defined = openApiPaths([widgetCatalogue, ...publishableKeyRoutes]);

export const widgetSchemas: Record<string, object> = defined.schemas;

export const widgetPaths: Record<string, Record<string, unknown>> = defined.paths;
