/** The widget operations in the OpenAPI document (src/openapi/document.ts adds them to its paths and schemas). */
type Json = Record<string, unknown>;

const ref = (kind: 'schemas' | 'responses', name: string): Json => ({ $ref: `#/components/${kind}/${name}` });
const uuid = { type: 'string', format: 'uuid' };
const nullableUuid = { type: ['string', 'null'], format: 'uuid' };
const multiLanguage = { type: 'object', additionalProperties: { type: 'string' }, description: 'MultiLanguageString: {"default": …, "<language>": …}' };
const json = (schema: Json) => ({ 'application/json': { schema } });

export const widgetSchemas: Record<string, Json> = {
  PublishableKey: {
    type: 'object',
    description: 'A publishable key (docs/widget.md): public, for one widget or one site.',
    properties: {
      id: uuid, organization_id: uuid, widget_id: nullableUuid, site_id: nullableUuid,
      key: { type: 'string', pattern: '^pk_[0-9A-Za-z]{32}$' }, name: { type: 'string' },
      created_at: { type: 'string', format: 'date-time' }, revoked_at: { type: ['string', 'null'], format: 'date-time' },
    },
    required: ['id', 'organization_id', 'widget_id', 'site_id', 'key', 'name', 'created_at', 'revoked_at'],
  },
  NewPublishableKey: {
    type: 'object',
    description: 'Exactly one of widget_id and site_id.',
    properties: { widget_id: uuid, site_id: uuid, name: { type: 'string', maxLength: 200 } },
  },
  WidgetCatalogue: {
    type: 'object',
    description: 'The public catalogue of the key\'s widget or site: the listed units with their public fields only.',
    properties: {
      widget: { type: ['object', 'null'], properties: { id: uuid, name: { type: 'string' }, type: { type: 'string' }, language: { type: 'string' }, settings: { type: 'object' } } },
      site: { type: ['object', 'null'], properties: { id: uuid, name: { type: 'string' }, default_language: { type: 'string' }, languages: { type: 'array', items: { type: 'string' } }, theme: { type: 'object' } } },
      products: {
        type: 'array',
        items: {
          type: 'object',
          properties: {
            id: uuid, name: multiLanguage, description: multiLanguage, images: { type: 'array' }, currency: { type: 'string' },
            rent_period: { type: 'string', enum: ['daily', 'nightly'] }, timezone: { type: 'string' }, interaction: { type: 'string', enum: ['book', 'request'] },
            approximate_address: { type: 'string' }, confirmation_message: multiLanguage,
            capacities: { type: 'array', items: { type: 'object', properties: { capacity_group_id: uuid, min: { type: 'integer' }, max: { type: ['integer', 'null'] } } } },
            service_ids: { type: 'array', items: uuid }, attribute_option_ids: { type: 'array', items: uuid },
            cancellation_policy: {
              type: 'array',
              description: 'Refund of what was paid by how many days before arrival the booking is cancelled (docs/payments.md#cancellations): '
                + 'cancelled at least `days_before_arrival` days before, the rule with the most such days applies; later than every rule, nothing. '
                + 'Empty: everything paid is refunded.',
              items: { type: 'object', properties: { days_before_arrival: { type: 'integer', minimum: 0 }, refund_percentage: { type: 'integer', minimum: 0, maximum: 100 } } },
            },
          },
        },
      },
      capacity_groups: { type: 'array', items: { type: 'object' } },
      services: { type: 'array', items: { type: 'object' } },
      attributes: { type: 'array', items: { type: 'object' } },
      booking_terms: {
        description: 'The organization\'s booking terms (settings.booking_terms): text or a MultiLanguageString; null without. '
          + 'When set, a booking with a publishable key needs `"accept_terms": true` (422 SK649 otherwise).',
        oneOf: [{ type: 'string' }, multiLanguage, { type: 'null' }],
      },
    },
    required: ['widget', 'site', 'products', 'capacity_groups', 'services', 'attributes', 'booking_terms'],
  },
};

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
