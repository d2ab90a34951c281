/**
 * The widget operations in the OpenAPI document (src/openapi/document.ts adds them to its paths and schemas); their
 * bodies are the schemas the routes use (bodies.ts).
 */
import { NewPublishableKey, PublishableKey, WidgetCatalogue } from './bodies.js';

type Json = Record<string, unknown>;

const ref = (kind: 'schemas' | 'responses', name: string): Json => ({ $ref: `#/components/${kind}/${name}` });
const json = (schema: Json) => ({ 'application/json': { schema } });

export const widgetSchemas: Record<string, object> = { PublishableKey, NewPublishableKey, WidgetCatalogue };

const keyScopes = 'A secret key with the `widgets:write` scope (listing: `widgets:read`); publishable keys get 403 `SK720`.';

export const widgetPaths: Record<string, Json> = {
  '/widget': {
    get: {
      tags: ['widgets'],
      operationId: 'widget_catalogue',
      summary: 'The public catalogue of a publishable key\'s widget or site',
      description: 'With a publishable key (`Authorization: Bearer pk_…`) only; counts a `view` in widget_analytics (docs/widget.md).',
      responses: {
        200: { description: 'The catalogue.', content: json(ref('schemas', 'WidgetCatalogue')) },
        401: ref('responses', 'Unauthorized'),
        403: ref('responses', 'Forbidden'),
      },
    },
  },
  '/publishable-keys': {
    get: {
      tags: ['widgets'],
      operationId: 'publishable_keys_list',
      summary: 'The organization\'s publishable keys',
      description: keyScopes,
      responses: {
        200: { description: 'Every key, revoked ones too.', content: json({ type: 'array', items: ref('schemas', 'PublishableKey') }) },
        401: ref('responses', 'Unauthorized'),
        403: ref('responses', 'Forbidden'),
      },
    },
    post: {
      tags: ['widgets'],
      operationId: 'publishable_keys_create',
      summary: 'Create a publishable key for a widget or site',
      description: keyScopes,
      requestBody: { required: true, content: json(ref('schemas', 'NewPublishableKey')) },
      responses: {
        201: { description: 'The key.', content: json(ref('schemas', 'PublishableKey')) },
        400: ref('responses', 'BadRequest'),
        401: ref('responses', 'Unauthorized'),
        403: ref('responses', 'Forbidden'),
        404: ref('responses', 'NotFound'),
      },
    },
  },
  '/publishable-keys/{id}': {
    delete: {
      tags: ['widgets'],
      operationId: 'publishable_keys_revoke',
      summary: 'Revoke a publishable key (by id or by the key itself)',
      description: `${keyScopes} Every server process stops accepting the key within 2 seconds.`,
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
