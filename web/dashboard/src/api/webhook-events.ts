/** The webhook event catalogue as the server serves it (GET /v1/webhook-events, src/webhooks/catalogue.ts). */
import { requestJson } from './http';

export interface WebhookEventType {
  name: string;
  resource: string;
  description: string;
  read_scopes: string[];
  /** Whether this member holds the read scopes the event's payload needs, and so may subscribe to it. */
  allowed: boolean;
}

export const loadWebhookEvents = () => requestJson<WebhookEventType[]>('GET', '/v1/webhook-events');
