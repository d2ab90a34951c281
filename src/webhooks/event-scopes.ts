/**
 * The read scopes each webhook event's payload needs (docs/webhooks.md#event-scopes): receiving an event is reading
 * the rows it carries. The database holds the one definition, per event of the catalogue
 * (staykit_internal.webhook_event_read_scopes, migration 0207), and enforces it on webhooks (subscribing, repointing,
 * enabling) and on reading notifications; the server reads it from there for what runs on its own connection
 * (POST /v1/webhook-redeliver) and for whoever lists the catalogue.
 */
import type { Queryable } from '../db/types.js';
import type { ApiError } from '../errors/api-error.js';
import { apiError } from '../errors/registry.js';
import { hasScope, requiredScope } from '../auth/scopes.js';
import { loadEventCatalogue } from './catalogue.js';

/** Each event type → the tables whose read scope its payload needs, in the database's order. */
export type EventReadScopes = ReadonlyMap<string, readonly string[]>;

/** The read scopes of the given event types (default: the whole catalogue). */
export async function eventReadScopes(db: Queryable, eventTypes?: readonly string[]): Promise<EventReadScopes> {
  if (eventTypes === undefined) {
    return new Map((await loadEventCatalogue(db)).map((event) => [event.name, event.read_scopes]));
  }
  const { rows } = await db.query<{ event_type: string; tables: string[] }>(
    `SELECT e.name AS event_type, staykit_internal.webhook_event_read_scopes(e.name) AS tables
     FROM unnest($1::text[]) WITH ORDINALITY AS e (name, position) ORDER BY e.position`,
    [eventTypes],
  );
  return new Map(rows.map((row) => [row.event_type, row.tables]));
}

/** 403 SK742 for the first event whose payload needs a read scope `scopes` lack; undefined when they lack none. */
export function missingEventScope(scopes: readonly string[], readScopes: EventReadScopes): ApiError | undefined {
  for (const [event, tables] of readScopes) {
    const missing = tables.find((table) => !hasScope(scopes, table, 'read'));
    if (missing !== undefined) return apiError('SK742', { params: { event, scope: requiredScope(missing, 'read') } });
  }
  return undefined;
}
