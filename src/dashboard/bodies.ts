/**
 * The dashboard's own API under /admin/api written once per route (src/routing/route-schema.ts): method, url,
 * documentation and the TypeBox schemas of bodies and answers, from which api-key-routes.ts, invitation-routes.ts,
 * notification-routes.ts and unit-preview-routes.ts register them (validated, typed) and openapi.ts documents them. A session cookie, not an API
 * key, authenticates them (session-authorize.ts: the scope is the member's permission). URLs are relative to each
 * plugin's prefix (index.ts).
 */
import Type, { type Static } from 'typebox';
import { defineRoute } from '../routing/route-schema.js';
import { invalidBody } from '../errors/catalogue.js';
import { OWN_SETTINGS } from '../auth/session-authorize.js';
import { DASHBOARD_PATH } from './static-app.js';
import { WidgetCatalogue } from '../widget/bodies.js';

const uuid = Type.String({ format: 'uuid' });
const nullable = <T extends Type.TSchema>(schema: T) => Type.Union([schema, Type.Null()]);
const time = Type.String({ format: 'date-time' });

const NewApiKey = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 100 }),
  scopes: Type.Array(Type.String(), { description: 'API key scopes, e.g. ["bookings:read"]; none beyond the member\'s own.' }),
  expires_at: Type.Optional(nullable(Type.String({ description: 'An ISO 8601 date or timestamp in the future; null: never.' }))),
}, { additionalProperties: false });
export type NewApiKey = Static<typeof NewApiKey>;

export const ApiKey = Type.Object({
  id: uuid,
  key_id: Type.String({ description: 'The public part of the key (`sk_<key_id>_…`).' }),
  organization_id: uuid,
  name: Type.String(),
  scopes: Type.Array(Type.String()),
  expires_at: nullable(time),
  revoked_at: nullable(time),
  last_used_at: nullable(time),
  created_at: time,
}, { description: 'An API key, never its secret.' });

const CreatedApiKey = Type.Object({ ...ApiKey.properties, api_key: Type.String({ description: 'The whole key: shown this once.' }) });

const InvitationRequest = Type.Object({ member_id: Type.String({ format: 'uuid', expected: 'the uuid of a member' }) }, { additionalProperties: false });
const Invitation = Type.Object({ member_id: uuid, email: Type.String(), sent: Type.Literal(true) });

const MyNotifications = Type.Object({
  notify: Type.Array(Type.String(), { description: 'The notifications the member gets.' }),
  chosen: Type.Boolean({ description: 'false while the member follows their role\'s default.' }),
  available: Type.Array(Type.String(), { description: 'Every notification there is.' }),
});
export type MyNotifications = Static<typeof MyNotifications>;

const MyNotificationsRequest = Type.Object({
  notify: nullable(Type.Array(Type.String(), { expected: 'a list of notification names, or null for the role\'s default' })),
}, { description: 'The notifications to get; null: back to the role\'s default.', additionalProperties: false });

const tags = ['dashboard'];
const csrf = [{ $ref: '#/components/parameters/csrfToken' }];

export const apiKeysList = defineRoute({
  method: 'GET', url: '/', scope: { resource: 'api_keys', access: 'read' }, operationId: 'admin_api_keys_list', summary: "The organization's API keys", tags,
  description: 'Permission `api_keys:read`. Never a secret.',
  responses: { 200: { description: 'Every key, revoked ones too.', schema: Type.Array(ApiKey) } },
  errors: ['Unauthorized', 'Forbidden'], invalid: invalidBody,
});

export const apiKeysCreate = defineRoute({
  method: 'POST', url: '/', scope: { resource: 'api_keys', access: 'write' }, operationId: 'admin_api_keys_create', summary: 'Create an API key', tags, parameters: csrf,
  description: 'Permission `api_keys:write`; a key never gets a scope its creator lacks (403 SK703).',
  body: NewApiKey,
  responses: { 201: { description: 'The key, with its secret shown this once.', schema: CreatedApiKey } },
  errors: ['BadRequest', 'Unauthorized', 'Forbidden'], invalid: invalidBody,
});

export const apiKeysRevoke = defineRoute({
  method: 'DELETE', url: '/:id', scope: { resource: 'api_keys', access: 'write' }, operationId: 'admin_api_keys_revoke', summary: 'Revoke an API key', tags,
  parameters: csrf, description: 'Permission `api_keys:write`.',
  params: Type.Object({ id: Type.String({ description: 'The key\'s id or key_id.' }) }),
  responses: { 200: { description: 'The revoked key.', schema: ApiKey } },
  errors: ['Unauthorized', 'Forbidden', 'NotFound'], invalid: invalidBody,
});

export const invite = defineRoute({
  method: 'POST', url: '/', scope: { resource: 'members', access: 'write' }, operationId: 'admin_invite', summary: 'E-mail a member a link to log in', tags, parameters: csrf,
  description: 'Permission `members:write`, for a member of the inviter\'s role or below (403 SK708). A member without an e-mail '
    + 'address, a former member or one with a login already: 409 (SK709). A mail server that does not take it: 502 (SK710).',
  body: InvitationRequest,
  responses: { 201: { description: 'Sent.', schema: Invitation } },
  errors: ['BadRequest', 'Unauthorized', 'Forbidden', 'NotFound', 'Conflict', 'BadGateway'], invalid: invalidBody,
});

export const myNotificationsGet = defineRoute({
  method: 'GET', url: '/', scope: { resource: OWN_SETTINGS, access: 'read' }, operationId: 'admin_my_notifications', summary: 'The e-mail notifications of the logged-in member', tags,
  description: 'Each member chooses their own, whatever their permissions.',
  responses: { 200: { description: 'Theirs, and every one there is.', schema: MyNotifications } },
  errors: ['Unauthorized'], invalid: invalidBody,
});

export const myNotificationsPut = defineRoute({
  method: 'PUT', url: '/', scope: { resource: OWN_SETTINGS, access: 'write' }, operationId: 'admin_my_notifications_set', summary: 'Choose the e-mail notifications of the logged-in member', tags,
  parameters: csrf, description: 'An unknown notification is refused (400).',
  body: MyNotificationsRequest,
  responses: { 200: { description: 'Set.', schema: MyNotifications } },
  errors: ['BadRequest', 'Unauthorized', 'Forbidden'], invalid: invalidBody,
});

/** Where each plugin of the dashboard's API is mounted (index.ts), with its routes: what the document serves. */
export const unitPreview = defineRoute({
  method: 'GET', url: '/:id', scope: { resource: 'products', access: 'read' }, operationId: 'admin_unit_preview', tags,
  summary: 'One unit as the widget\'s catalogue shows it, for the preview on its page',
  description: 'The document `GET /v1/widget` answers, listing this unit only, read with the member\'s session: permission '
    + '`products:read` and the read permission of every table the catalogue is made of (403 SK703 naming the first missing). '
    + 'Archived units and units of other organizations: 404. No publishable key is involved (docs/dashboard.md#unit-preview).',
  params: Type.Object({ id: Type.String({ format: 'uuid', expected: 'the uuid of a unit' }) }),
  responses: { 200: { description: 'The catalogue of the one unit.', schema: WidgetCatalogue } },
  errors: ['BadRequest', 'Unauthorized', 'Forbidden', 'NotFound'], invalid: invalidBody,
});

export const KEYS_PATH = `${DASHBOARD_PATH}/api/keys`;
export const INVITATIONS_PATH = `${DASHBOARD_PATH}/api/invitations`;
export const MY_NOTIFICATIONS_PATH = `${DASHBOARD_PATH}/api/my-notifications`;
export const UNIT_PREVIEW_PATH = `${DASHBOARD_PATH}/api/unit-preview`;
export const DASHBOARD_ROUTES = [
  { prefix: KEYS_PATH, definitions: [apiKeysList, apiKeysCreate, apiKeysRevoke] },
  { prefix: INVITATIONS_PATH, definitions: [invite] },
  { prefix: MY_NOTIFICATIONS_PATH, definitions: [myNotificationsGet, myNotificationsPut] },
  { prefix: UNIT_PREVIEW_PATH, definitions: [unitPreview] },
];
