/**
 * The request and response bodies of the dashboard's own API under /admin/api (api-key-routes.ts,
 * invitation-routes.ts, notification-routes.ts), each written once as a TypeBox schema: JSON Schema for the OpenAPI
 * document (openapi.ts) and, through `Static`, TypeScript types.
 */
import Type, { type Static } from 'typebox';

const uuid = Type.String({ format: 'uuid' });
const nullable = <T extends Type.TSchema>(schema: T) => Type.Union([schema, Type.Null()]);
const time = Type.String({ format: 'date-time' });

export const MAX_KEY_NAME_LENGTH = 100;

export const NewApiKey = Type.Object({
  name: Type.String({ minLength: 1, maxLength: MAX_KEY_NAME_LENGTH }),
  scopes: Type.Array(Type.String(), { description: 'API key scopes, e.g. ["bookings:read"]; none beyond the member\'s own.' }),
  expires_at: Type.Optional(nullable(Type.String({ description: 'An ISO 8601 date or timestamp in the future; null: never.' }))),
});

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

export const CreatedApiKey = Type.Object({ ...ApiKey.properties, api_key: Type.String({ description: 'The whole key: shown this once.' }) });

export const InvitationRequest = Type.Object({ member_id: uuid });
export const Invitation = Type.Object({ member_id: uuid, email: Type.String(), sent: Type.Literal(true) });
export type Invitation = Static<typeof Invitation>;

export const MyNotifications = Type.Object({
  notify: Type.Array(Type.String(), { description: 'The notifications the member gets.' }),
  chosen: Type.Boolean({ description: 'false while the member follows their role\'s default.' }),
  available: Type.Array(Type.String(), { description: 'Every notification there is.' }),
});
export type MyNotifications = Static<typeof MyNotifications>;

export const MyNotificationsRequest = Type.Object({
  notify: nullable(Type.Array(Type.String())),
}, { description: 'The notifications to get; null: back to the role\'s default.' });
