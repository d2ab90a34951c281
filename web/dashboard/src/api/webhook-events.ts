/** The webhook event catalogue as the server serves it (GET /v1/webhook-events, src/webhooks/catalogue.ts). */
import type { Row } from './database';
import { requestJson } from './http';

/** What a webhook may subscribe to: a name of the catalogue, or `*` (the column's type says which). */
export type WebhookEvent = Row<'webhooks'>['events'][number];

export interface WebhookEventType {
  name: WebhookEvent;
  resource: string;
  description: string;
  read_scopes: string[];
  /** Whether this member holds the read scopes the event's payload needs, and so may subscribe to it. */
  allowed: boolean;
}

export const loadWebhookEvents = () => requestJson<WebhookEventType[]>('GET', '/v1/webhook-events');
