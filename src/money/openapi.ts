/**
 * The payment and invoice operations in the OpenAPI document (src/openapi/document.ts adds them to its paths and
 * schemas): those of the route definitions (bodies.ts), the invoice PDF and Stripe's events included.
 */
import { openApiPaths } from '../routing/route-schema.js';
import { MONEY_ROUTES } from './bodies.js';

const defined = openApiPaths(MONEY_ROUTES);

export const moneySchemas: Record<string, object> = defined.schemas;

export const moneyPaths: Record<string, Record<string, unknown>> = defined.paths;
