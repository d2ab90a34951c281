/** The bodies of /auth/*, checked for a clear 400 (SK705) before anything is looked up. */
import { EMAIL, UUID } from '../common/patterns.js';
import { sessionErrors } from './session-errors.js';

type Body = Record<string, unknown>;

function object(body: unknown): Body {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) throw sessionErrors.badInput('The body must be a JSON object');
  return body as Body;
}

function text(body: Body, field: string): string {
  const value = body[field];
  if (typeof value !== 'string' || value === '') throw sessionErrors.badInput(`"${field}" is required and must be a string`);
  return value;
}

/** Longest e-mail address a mailbox can have (RFC 5321). */
const MAX_EMAIL_LENGTH = 254;

export function emailAddress(value: string, field = 'email'): string {
  const email = value.trim();
  if (email.length > MAX_EMAIL_LENGTH || !EMAIL.test(email)) throw sessionErrors.badInput(`"${field}" must be an e-mail address`);
  return email;
}

export function loginBody(body: unknown): { email: string; password: string } {
  const fields = object(body);
  return { email: emailAddress(text(fields, 'email')), password: text(fields, 'password') };
}

export function organizationBody(body: unknown): { organizationId: string } {
  const id = text(object(body), 'organization_id');
  if (!UUID.test(id)) throw sessionErrors.badInput('"organization_id" must be an organization id (uuid)');
  return { organizationId: id.toLowerCase() };
}

export function setPasswordBody(body: unknown): { token: string; password: string } {
  const fields = object(body);
  return { token: text(fields, 'token'), password: text(fields, 'password') };
}
