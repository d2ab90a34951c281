/**
 * `buildOpenApiDocument`: the OpenAPI 3.1 description of Staykit's `/v1` API, generated from the schema cache (the
 * resources, as the engine will answer them) plus the booking flow and the health endpoints. Pure: the CHECK lists
 * that give closed value sets are read beforehand (check-enums.ts) and passed in.
 */
import type { SchemaCache } from '../schema/types.js';
import { bookingPaths, bookingSchemas } from './booking.js';
import { automationPaths, automationSchemas } from '../automations/openapi.js';
import { widgetPaths, widgetSchemas } from '../widget/openapi.js';
import { moneyPaths, moneySchemas } from '../money/openapi.js';
import { inboxPaths, inboxSchemas } from '../inbox/openapi.js';
import { mediaUploadRoute } from '../media/bodies.js';
import { webhookOperations, webhookPaths, webhookSchemas } from '../webhooks/openapi.js';
import { changePaths, changeSchemas } from '../changes/openapi.js';
import { DASHBOARD_TAG, dashboardPaths } from '../dashboard/openapi.js';
import type { CheckConstraints } from './check-enums.js';
import type { OrderIndexes } from './order-indexes.js';
import { headers, parameters, responses, securitySchemes, sharedSchemas } from './components.js';
import type { JsonSchema } from './json-schema.js';
import { HEALTH_ROUTES } from '../http/routes/health-bodies.js';
import { openApiPaths } from '../routing/route-schema.js';
import { openApiDocumentRoute } from './bodies.js';
import { exposedTables, filterParameters, FILTER_OPERATORS, tablePathItem, tableSchemas } from './resources.js';

export interface OpenApiOptions {
  /** CHECK-list enums and predicate shapes (loadCheckConstraints); without them columns are plain types. */
  checks?: CheckConstraints;
  /** The columns each table's `order` is index-backed on (loadOrderIndexes); without them the document names none. */
  orderIndexes?: OrderIndexes;
  /** The API's base URL as clients see it; default the relative `/v1` (resolved against the document's address). */
  serverUrl?: string;
  /** Document the booking flow operations (default true). */
  bookingFlow?: boolean;
  version?: string;
}

const DESCRIPTION = `Staykit's HTTP API for vacation-rental data. Resource endpoints speak PostgREST's protocol:
\`select\` (with embedding), \`<column>=<operator>.<value>\` filters, \`order\`, \`limit\`/\`offset\`, \`Range\`,
\`Prefer\`, \`Content-Range\`, and PostgREST's error body \`{code, message, details, hint}\`.

Authenticate with \`Authorization: Bearer <API_KEY>\`. Every request runs as your organization: you only ever see
and change its rows. A method not listed for a path answers **405** with \`Allow\`. Lists return at most 1000 rows.
Every response carries \`X-Request-Id\`.

`;

/** The operations of the server itself: health, readiness and this document (their route definitions). */
const operations = openApiPaths([...HEALTH_ROUTES, openApiDocumentRoute]);
/** Uploading creates media rows; reading and deleting them is the resource API's, on the same path. */
const mediaOperations = openApiPaths([mediaUploadRoute]);

export function buildOpenApiDocument(cache: SchemaCache, options: OpenApiOptions = {}): Record<string, unknown> {
  const checks = options.checks ?? { enums: new Map(), predicates: new Map() };
  const tables = exposedTables(cache);
  const paths: Record<string, JsonSchema> = {};
  const schemas: Record<string, object> = { ...sharedSchemas, ...operations.schemas, ...mediaOperations.schemas };
  const allParameters: Record<string, JsonSchema> = { ...parameters };
  if (options.bookingFlow !== false) {
    Object.assign(paths, bookingPaths);
    Object.assign(schemas, bookingSchemas);
  }
  for (const table of tables) {
    paths[`/${table.name}`] = tablePathItem(table, options.orderIndexes?.get(table.name));
    Object.assign(schemas, tableSchemas(table, checks));
    Object.assign(allParameters, filterParameters(table, checks));
  }
  if (options.bookingFlow !== false) {
    Object.assign(paths, automationPaths);
    Object.assign(schemas, automationSchemas);
    Object.assign(paths, widgetPaths);
    Object.assign(paths, moneyPaths, inboxPaths);
    Object.assign(schemas, moneySchemas, inboxSchemas);
    Object.assign(schemas, widgetSchemas);
  }
  if (paths['/media']) paths['/media'] = { ...paths['/media'], ...mediaOperations.paths['/media'] };
  Object.assign(paths, webhookPaths, changePaths);
  Object.assign(schemas, webhookSchemas, changeSchemas);
  Object.assign(paths, operations.paths, dashboardPaths);
  return {
    openapi: '3.1.0',
    info: {
      title: 'Staykit API',
      version: options.version ?? '1',
      description: DESCRIPTION + FILTER_OPERATORS,
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [{ url: options.serverUrl ?? '/v1', description: 'This server' }],
    security: [{ bearerAuth: [] }],
    tags: [
      ...(options.bookingFlow !== false ? [{ name: 'booking flow', description: 'Availability, search, quote, book, cart, create-product.' }] : []),
      ...tables.map((table) => ({ name: table.name, ...(table.comment ? { description: table.comment } : {}) })),
      { name: 'operations', description: 'Health, readiness and this document.' },
      DASHBOARD_TAG,
    ],
    paths,
    webhooks: webhookOperations,
    components: { schemas, parameters: allParameters, responses, headers, securitySchemes },
  };
}
