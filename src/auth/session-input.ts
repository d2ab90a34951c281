/**
 * The e-mail address of a login, beyond its body's schema (session-bodies.ts): surrounding spaces dropped, then an
 * address a mailbox can have, or 400 SK705.
 */
import { EMAIL } from '../common/patterns.js';
import { sessionErrors } from './session-errors.js';

/** Longest e-mail address a mailbox can have (RFC 5321). */
const MAX_EMAIL_LENGTH = 254;

export function emailAddress(value: string, field = 'email'): string {
  const email = value.trim();
  if (email.length > MAX_EMAIL_LENGTH || !EMAIL.test(email)) throw sessionErrors.badInput(`"${field}" must be an e-mail address`);
  return email;
}
