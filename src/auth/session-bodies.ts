/**
 * The request and response bodies of the dashboard's login API (session-routes.ts), each written once as a TypeBox
 * schema: JSON Schema for the OpenAPI document (src/dashboard/openapi.ts) and, through `Static`, TypeScript types.
 */
import Type, { type Static } from 'typebox';
import { MEMBER_ROLES } from '../users/user-store.js';

const uuid = Type.String({ format: 'uuid' });

export const LoginRequest = Type.Object({ email: Type.String({ format: 'email' }), password: Type.String({ minLength: 1 }) });
export const OrganizationRequest = Type.Object({ organization_id: uuid });
export const SetPasswordRequest = Type.Object({
  token: Type.String({ minLength: 1, description: 'From the link the user was sent.' }),
  password: Type.String({ minLength: 1, description: 'Long enough and not a known or guessable password (docs/dashboard.md#passwords).' }),
});

const User = Type.Object({ id: uuid, email: Type.String() });
const Membership = Type.Object({ id: uuid, name: Type.String(), role: Type.Union(MEMBER_ROLES.map((role) => Type.Literal(role))) },
  { description: 'An organization the user is an active member of.' });
const csrfToken = Type.String({ description: 'Send it as `X-CSRF-Token` with every write of this session.' });

export const LoggedIn = Type.Object({ user: User, organizations: Type.Array(Membership), csrf_token: csrfToken });
export type LoggedIn = Static<typeof LoggedIn>;

export const SessionState = Type.Object({
  user: User,
  organization: Type.Object({ id: uuid, name: Type.String(), timezone: Type.String(), currency: Type.String(), language: Type.String() },
    { description: 'The organization the session works in.' }),
  member: Type.Object({
    id: uuid,
    name: Type.String(),
    role: Type.Union(MEMBER_ROLES.map((role) => Type.Literal(role))),
    permissions: Type.Array(Type.Object({ resource: Type.String(), access: Type.Union([Type.Literal('read'), Type.Literal('write')]) })),
    scopes: Type.Array(Type.String(), { description: 'What the role and permissions allow, in API key scopes.' }),
  }),
  organizations: Type.Array(Membership),
  csrf_token: csrfToken,
});
export type SessionState = Static<typeof SessionState>;

export const PasswordSet = Type.Object({ user: User });
