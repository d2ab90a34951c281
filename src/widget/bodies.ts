/**
 * The widget's API written once per route (src/routing/route-schema.ts): method, url, scope, documentation and the
 * TypeBox schemas of bodies and answers, from which publishable-api.ts and key-routes.ts register the routes
 * (validated, typed) and openapi.ts documents them. The catalogue mirrors what catalogue-queries.ts builds in SQL, field for field: the answers test
 * (test/openapi/route-answers.test.ts) fails when the two part ways.
 */
import Type, { type Static } from 'typebox';
import { VARIANT_FORMATS, VARIANTS_DESCRIPTION } from '../media/formats.js';
import { defineRoute } from '../routing/route-schema.js';
import { component, orNull } from '../routing/schema-component.js';
import { widgetErrors } from './errors.js';

const uuid = Type.String({ format: 'uuid' });
const nullable = orNull;
/** A localized text: `default` plus locale keys (the document's MultiLanguageString). */
const text = Type.Record(Type.String(), Type.String(), { description: 'MultiLanguageString: {"default": …, "<language>": …}' });
const json = Type.Unknown({ description: 'As stored.' });
const order = Type.Integer({ description: 'Display order, ascending.' });

const PublishableKey = component('PublishableKey', Type.Object({
  id: uuid,
  organization_id: uuid,
  widget_id: nullable(uuid),
  site_id: nullable(uuid),
  key: Type.String({ pattern: '^pk_[0-9A-Za-z]{32}$' }),
  name: Type.String(),
  created_at: Type.String({ format: 'date-time' }),
  revoked_at: nullable(Type.String({ format: 'date-time' })),
}, { description: 'A publishable key (docs/widget.md): public, for one widget or one site.' }));

const MAX_KEY_NAME_LENGTH = 200;

const NewPublishableKey = component('NewPublishableKey', Type.Object({
  widget_id: Type.Optional(nullable(uuid)),
  site_id: Type.Optional(nullable(uuid)),
  name: Type.Optional(Type.String({ maxLength: MAX_KEY_NAME_LENGTH })),
}, { description: 'Exactly one of widget_id and site_id.', additionalProperties: false }));

const absoluteUrl = Type.String({ format: 'uri', description: 'Absolute: the address the catalogue was asked at, then `/media/<hash>/<width>.<format>`.' });

/** One photo of a unit as a page shows it (docs/media.md, docs/widget.md#photos). */
const CatalogueImage = component('CatalogueImage', Type.Object({
  media_id: uuid,
  cover: Type.Boolean({ description: 'The unit\'s cover photo: the one marked `cover` in `products.images`, else the first. Exactly one image of a unit is.' }),
  alt: Type.Record(Type.String(), Type.String(), {
    description: 'The text a screen reader speaks, by language (`{"en": …, "nl": …}` or `{"default": …}`): show it in the widget\'s language, '
      + 'by the same rule as the unit\'s name. Empty when none was written.',
  }),
  url: absoluteUrl,
  width: Type.Integer({ minimum: 1, description: 'Pixels of the largest JPEG (`url`), upright.' }),
  height: Type.Integer({ minimum: 1 }),
  dominant_color: Type.String({ pattern: '^#[0-9a-f]{6}$', description: 'A placeholder colour while the picture loads.' }),
  variants: Type.Array(Type.Object({
    width: Type.Integer({ minimum: 1 }),
    height: Type.Integer({ minimum: 1 }),
    format: Type.Union(VARIANT_FORMATS.map((format) => Type.Literal(format))),
    url: absoluteUrl,
  }), { description: `The resized copies (${VARIANTS_DESCRIPTION}): a \`srcset\` per format.` }),
}, { description: 'A photo of a unit with its resized copies, in the order of `products.images`.' }));

export type CatalogueImage = Static<typeof CatalogueImage>;

const CatalogueProduct = Type.Object({
  id: uuid,
  name: text,
  description: text,
  images: Type.Array(CatalogueImage, { description: 'The unit\'s photos in order, one of them the cover.' }),
  currency: Type.String(),
  rent_period: Type.Union([Type.Literal('daily'), Type.Literal('nightly')]),
  timezone: Type.String(),
  interaction: Type.Union([Type.Literal('book'), Type.Literal('request')]),
  approximate_address: Type.String(),
  approximate_coordinates: Type.Unknown({ description: 'As stored; null when not set.' }),
  confirmation_message: text,
  cta: Type.Record(Type.String(), Type.Unknown(), { description: 'The call to action the site shows.' }),
  latest_arrival_time: nullable(Type.String({ description: 'HH:MM:SS' })),
  cancellation_policy: Type.Array(Type.Object({
    days_before_arrival: Type.Integer({ minimum: 0 }),
    refund_percentage: Type.Integer({ minimum: 0, maximum: 100 }),
  }), {
    description: 'Refund of what was paid by how many days before arrival the booking is cancelled (docs/payments.md#cancellations): '
      + 'cancelled at least `days_before_arrival` days before, the rule with the most such days applies; later than every rule, nothing. '
      + 'Empty: everything paid is refunded.',
  }),
  capacities: Type.Array(Type.Object({ capacity_group_id: uuid, min: Type.Integer(), max: nullable(Type.Integer()) })),
  service_ids: Type.Array(uuid),
  attribute_option_ids: Type.Array(uuid),
});

/** A unit as the catalogue answers it: the widget reads its photos and key facts by this type. */
export type CatalogueProduct = Static<typeof CatalogueProduct>;

const CatalogueCapacityGroup = Type.Object({
  id: uuid,
  name: text,
  name_singular: text,
  description: text,
  order,
  type: Type.String(),
  requires_explicit_input: Type.Boolean(),
  element_ids: Type.Array(uuid, { description: 'The groups this one adds up (capacity_group_dependencies).' }),
});

const CatalogueService = Type.Object({
  id: uuid,
  name: text,
  description: text,
  type: Type.String(),
  pricing: json,
  required: Type.Boolean(),
  max_quantity: nullable(Type.Integer()),
  order,
  options: Type.Array(Type.Object({ id: uuid, name: text, pricing: json, order })),
});

const CatalogueAttribute = Type.Object({
  id: uuid,
  name: text,
  type: Type.String(),
  order,
  options: Type.Array(Type.Object({ id: uuid, name: text, order })),
});

export type CatalogueAttribute = Static<typeof CatalogueAttribute>;

const WidgetCatalogue = component('WidgetCatalogue', Type.Object({
  widget: nullable(Type.Object({
    id: uuid, name: Type.String(), type: Type.String(), language: Type.String(), settings: Type.Record(Type.String(), Type.Unknown()),
  })),
  site: nullable(Type.Object({
    id: uuid, name: Type.String(), default_language: Type.String(), languages: Type.Array(Type.String()),
    theme: Type.Record(Type.String(), Type.Unknown()),
  })),
  products: Type.Array(CatalogueProduct),
  capacity_groups: Type.Array(CatalogueCapacityGroup),
  services: Type.Array(CatalogueService, { description: 'The active services of the listed products.' }),
  attributes: Type.Array(CatalogueAttribute),
  booking_terms: Type.Union([Type.String(), text, Type.Null()], {
    description: 'The organization\'s booking terms (settings.booking_terms): text or a MultiLanguageString; null without. '
      + 'When set, a booking with a publishable key needs `"accept_terms": true` (422 SK649 otherwise).',
  }),
}, { description: 'The public catalogue of the key\'s widget or site: the listed units with their public fields only.' }));

const keyScopes = 'A secret key with the `widgets:write` scope (listing: `widgets:read`); publishable keys get 403 `SK720`.';

export const widgetCatalogue = defineRoute({
  method: 'GET', url: '/widget', scope: undefined,
  operationId: 'widget_catalogue', summary: 'The public catalogue of a publishable key\'s widget or site', tags: ['widgets'],
  description: 'With a publishable key (`Authorization: Bearer pk_…`) only, from a page of an allowed origin (403 SK722 otherwise); '
    + 'counts a `view` in widget_analytics (docs/widget.md).',
  responses: { 200: { description: 'The catalogue.', schema: WidgetCatalogue } },
  errors: ['Unauthorized', 'Forbidden'], invalid: widgetErrors.badRequest,
});

export const publishableKeysList = defineRoute({
  method: 'GET', url: '/publishable-keys', scope: { resource: 'widgets', access: 'read' },
  operationId: 'publishable_keys_list', summary: 'The organization\'s publishable keys', tags: ['widgets'], description: keyScopes,
  responses: { 200: { description: 'Every key, revoked ones too.', schema: Type.Array(PublishableKey) } },
  errors: ['Unauthorized', 'Forbidden'], invalid: widgetErrors.badRequest,
});

export const publishableKeysCreate = defineRoute({
  method: 'POST', url: '/publishable-keys', scope: { resource: 'widgets', access: 'write' },
  operationId: 'publishable_keys_create', summary: 'Create a publishable key for a widget or site', tags: ['widgets'], description: keyScopes,
  body: NewPublishableKey,
  responses: { 201: { description: 'The key.', schema: PublishableKey } },
  errors: ['BadRequest', 'Unauthorized', 'Forbidden', 'NotFound'], invalid: widgetErrors.badRequest,
});

export const publishableKeysRevoke = defineRoute({
  method: 'DELETE', url: '/publishable-keys/:id', scope: { resource: 'widgets', access: 'write' },
  operationId: 'publishable_keys_revoke', summary: 'Revoke a publishable key (by id or by the key itself)', tags: ['widgets'],
  description: `${keyScopes} Every server process stops accepting the key within 2 seconds.`,
  params: Type.Object({ id: Type.String({ description: 'The key\'s id, or the key itself (`pk_…`).' }) }),
  responses: { 200: { description: 'The revoked key.', schema: PublishableKey } },
  errors: ['Unauthorized', 'Forbidden', 'NotFound'], invalid: widgetErrors.badRequest,
});

export const publishableKeyRoutes = [publishableKeysList, publishableKeysCreate, publishableKeysRevoke];
