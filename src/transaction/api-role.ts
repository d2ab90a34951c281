/**
 * The database role an API transaction runs as: `staykit_api`, or one of the two roles that inherit everything of
 * it and may also read a unit's iCal export secrets (migration 0205). A secret is the credential of a feed of the
 * unit's calendar, so reading (or rotating) it takes the read scopes of what that feed shows, and managing the unit
 * (docs/ical.md#who-may-read-the-secrets):
 * - `ical_export_secret_no_details` (booked and blocked dates): `products:write`, `calendar_events:read`;
 * - `ical_export_secret` (also each guest's name and booking reference): `products:write` and read access to
 *   calendar_events, bookings, contacts and contact_bookings.
 * The database's column privileges enforce it whatever the statement; this only picks the role by scopes.
 */
import { hasScope } from '../auth/scopes.js';

export const API_ROLE = 'staykit_api';

interface SecretRole {
  role: string;
  /** The tables whose write scope, and whose read scope, the role takes. */
  writes: readonly string[];
  reads: readonly string[];
}

/** Broadest first: a principal takes the first role whose scopes it holds. */
export const ICAL_SECRET_ROLES: readonly SecretRole[] = [
  { role: 'staykit_api_ical_details', writes: ['products'], reads: ['calendar_events', 'bookings', 'contacts', 'contact_bookings'] },
  { role: 'staykit_api_ical', writes: ['products'], reads: ['calendar_events'] },
];

/** The role of a principal with these scopes. */
export function apiRoleFor(scopes: readonly string[]): string {
  const held = ICAL_SECRET_ROLES.find(({ writes, reads }) =>
    writes.every((table) => hasScope(scopes, table, 'write')) && reads.every((table) => hasScope(scopes, table, 'read')));
  return held?.role ?? API_ROLE;
}
