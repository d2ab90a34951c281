/**
 * The webhook event catalogue as the database keeps it (staykit_internal.webhook_event_types, migration 0218): what
 * `GET /v1/webhook-events` answers, the dashboard offers, and the OpenAPI document enumerates.
 */
import type { Queryable } from '../db/types.js';

export interface WebhookEventType {
  name: string;
  /** What it reports on: a table for `<table>.*` events, `booking`, `availability` or `rates`. */
  resource: string;
  description: string;
  /** The tables whose read scope receiving it takes (docs/webhooks.md#event-scopes). */
  read_scopes: string[];
}

export async function loadEventCatalogue(db: Queryable): Promise<WebhookEventType[]> {
  const { rows } = await db.query<WebhookEventType>(
    `SELECT name, resource, description, read_scopes FROM staykit_internal.webhook_event_types ORDER BY position`,
  );
  return rows;
}
