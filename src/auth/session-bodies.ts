/**
 * The dashboard's login API written once per route (src/routing/route-schema.ts): method, url (under /auth,
 * session-setup.ts), documentation and the TypeBox schemas of bodies and answers, from which session-routes.ts
 * registers them (validated, typed) and src/dashboard/openapi.ts documents them. A refused body is 400 SK705.
 */
import Type, { type Static } from 'typebox';
import { defineRoute } from '../routing/route-schema.js';
import { MEMBER_ROLES } from '../users/user-store.js';
import { OWN_SETTINGS } from './session-authorize.js';
import { sessionErrors } from './session-errors.js';

const uuid = Type.String({ format: 'uuid' });

const LoginRequest = Type.Object({
  email: Type.String({ minLength: 1, description: 'An e-mail address (surrounding spaces do not count).' }),
  password: Type.String({ minLength: 1 }),
}, { additionalProperties: false });
const OrganizationRequest = Type.Object({ organization_id: Type.String({ format: 'uuid', expected: 'an organization id (uuid)' }) }, { additionalProperties: false });
const SetPasswordRequest = Type.Object({
  token: Type.String({ minLength: 1, description: 'From the link the user was sent.' }),
  password: Type.String({ minLength: 1, description: 'Long enough and not a known or guessable password (the password rules of docs/dashboard.md#sessions-api).' }),
}, { additionalProperties: false });

const User = Type.Object({ id: uuid, email: Type.String() });
/** One of the member roles (users/user-store.ts); typed as the string the session store reads. */
const role = Type.Unsafe<string>({ type: 'string', enum: [...MEMBER_ROLES] });
const Membership = Type.Object({ id: uuid, name: Type.String(), role },
  { description: 'An organization the user is an active member of.' });
const csrfToken = Type.String({ description: 'Send it as `X-CSRF-Token` with every write of this session.' });

const LoggedIn = Type.Object({ user: User, organizations: Type.Array(Membership), csrf_token: csrfToken });

const SessionState = Type.Object({
  user: User,
  organization: Type.Object({ id: uuid, name: Type.String(), timezone: Type.String(), currency: Type.String(), language: Type.String() },
    { description: 'The organization the session works in.' }),
  member: Type.Object({
    id: uuid,
    name: Type.String(),
    role,
    permissions: Type.Array(Type.Object({ resource: Type.String(), access: Type.Union([Type.Literal('read'), Type.Literal('write')]) })),
    scopes: Type.Array(Type.String(), { description: 'What the role and permissions allow, in API key scopes.' }),
  }),
  organizations: Type.Array(Membership),
  csrf_token: csrfToken,
});
export type SessionState = Static<typeof SessionState>;

const PasswordSet = Type.Object({ user: User });

const tags = ['dashboard'];
const csrf = [{ $ref: '#/components/parameters/csrfToken' }];
const invalid = (message: string) => sessionErrors.badInput(message);

export const loginRoute = defineRoute({
  method: 'POST', url: '/login', scope: undefined, operationId: 'auth_login', summary: 'Log in', tags,
  description: 'Sets the session cookie (a new one on every login) and starts in the first organization of the user. '
    + 'An unknown address and a wrong password get the same 401 (SK700); tries are limited per address and client (429).',
  body: LoginRequest,
  responses: { 200: { description: 'Logged in.', schema: LoggedIn } },
  errors: ['BadRequest', 'Unauthorized', 'Forbidden', 'TooManyRequests'], invalid,
});

export const logoutRoute = defineRoute({
  method: 'POST', url: '/logout', scope: undefined, operationId: 'auth_logout', summary: 'Log out', tags, parameters: csrf,
  description: 'Ends the session and clears the cookie; a cookie without a live session is just cleared (no token needed then).',
  responses: { 204: { description: 'Logged out.' } },
  errors: ['Forbidden'], invalid,
});

export const sessionRoute = defineRoute({
  method: 'GET', url: '/session', scope: { resource: OWN_SETTINGS, access: 'read' },
  operationId: 'auth_session', summary: 'Who is logged in, where, with which permissions', tags, description: 'The session of the cookie.',
  responses: { 200: { description: 'The session.', schema: SessionState } },
  errors: ['Unauthorized'], invalid,
});

export const organizationRoute = defineRoute({
  method: 'POST', url: '/organization', scope: { resource: OWN_SETTINGS, access: 'write' },
  operationId: 'auth_organization', summary: 'Work in another organization of the user', tags, parameters: csrf,
  description: 'One the user is an active member of (403 SK704 otherwise).',
  body: OrganizationRequest,
  responses: { 200: { description: 'The session, in that organization.', schema: SessionState } },
  errors: ['BadRequest', 'Unauthorized', 'Forbidden'], invalid,
});

export const setPasswordRoute = defineRoute({
  method: 'POST', url: '/set-password', scope: undefined, operationId: 'auth_set_password', summary: 'Set a password with a one-time link', tags,
  description: 'The link (from an invitation or `staykit user reset-password`) works once; every session of the user ends.',
  body: SetPasswordRequest,
  responses: { 200: { description: 'Set: log in with it.', schema: PasswordSet } },
  errors: ['BadRequest'], invalid,
});

/** Every route of /auth, in the document's order. */
export const SESSION_ROUTES = [loginRoute, logoutRoute, sessionRoute, organizationRoute, setPasswordRoute];
