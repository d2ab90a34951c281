/**
 * The booking flow (docs/booking.md) in OpenAPI: its paths and component schemas, derived from the routes'
 * definitions (src/booking/flow-definitions.ts) — the schemas that validate the requests and type the answers — so
 * the document cannot describe a body the server does not take.
 */
import { openApiPaths } from '../routing/route-schema.js';
import { BOOKING_FLOW_ROUTES } from '../booking/flow-definitions.js';
import type { JsonSchema } from './json-schema.js';

const derived = openApiPaths(BOOKING_FLOW_ROUTES);

export const bookingPaths: Record<string, JsonSchema> = derived.paths;
export const bookingSchemas: Record<string, JsonSchema> = derived.schemas;
