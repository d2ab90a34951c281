/**
 * The widget operations in the OpenAPI document (src/openapi/document.ts adds them to its paths and schemas): those
 * of the route definitions (bodies.ts), and revoking, registered by hand (a path parameter).
 */
import { openApiPaths } from '../routing/route-schema.js';
import { publishableKeyRoutes, REVOKE_SCOPES, widgetCatalogue } from './bodies.js';

type Json = Record<string, unknown>;

const ref = (kind: 'schemas' | 'responses', name: string): Json => ({ $ref: `#/components/${kind}/${name}` });
const json = (schema: Json) => ({ 'application/json': { schema } });
const defined = openApiPaths([widgetCatalogue, ...publishableKeyRoutes]);

export const widgetSchemas: Record<string, object> = defined.schemas;

export const widgetPaths: Record<string, Json> = {
  ...defined.paths,
  '/publishable-keys/{id}': {
    delete: {
      tags: ['widgets'],
      operationId: 'publishable_keys_revoke',
      summary: 'Revoke a publishable key (by id or by the key itself)',
      description: REVOKE_SCOPES,
      parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
      responses: {
        200: { description: 'The revoked key.', content: json(ref('schemas', 'PublishableKey')) },
        401: ref('responses', 'Unauthorized'),
        403: ref('responses', 'Forbidden'),
        404: ref('responses', 'NotFound'),
      },
    },
  },
};
