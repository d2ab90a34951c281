/**
 * One delivery attempt of one claimed notification: POST the stored payload, signed, to the webhook's endpoint
 * through the outbound client, then record the outcome (sent, retry later, error, or 410 → webhook disabled).
 * The HTTP request happens outside any transaction; the outcome is recorded in one statement.
 */
import { outboundRequest, type OutboundResponse } from '../outbound/request.js';
import { OutboundError, OutboundTooLargeError } from '../outbound/errors.js';
import type { Database } from '../db/types.js';
import { signedHeaders } from './signature.js';
import { decideOutcome, parseRetryAfter, type AttemptOutcome } from './retry.js';
import { disableWebhook, recordFinal, recordRetry, type ClaimedNotification } from './queries.js';

/** How much of a receiver's response body is kept in `webhook_notifications.response`. */
export const RESPONSE_EXCERPT_BYTES = 2048;

export const USER_AGENT = 'Staykit-Webhooks/1';

export interface DeliveryOptions {
  schedule: readonly number[];
  allowPrivate: boolean;
  timeoutMs?: number;
  maxResponseBytes?: number;
}

export interface AttemptResult {
  status: number | undefined;
  /** The text stored in `webhook_notifications.response`. */
  response: string;
  retryAfterSeconds: number | undefined;
}

export interface DeliveryReport extends AttemptResult {
  notificationId: string;
  outcome: AttemptOutcome;
  /** False when the lease had been lost: the outcome was not recorded (another worker owns it now). */
  recorded: boolean;
}

/** PostgreSQL text cannot hold NUL; receivers' bodies are arbitrary bytes. */
function clean(text: string): string {
  return text.replaceAll('\u0000', '\uFFFD');
}

/**
 * `response` as stored: a JSON object, `{"status", "body", "truncated"?, "location"?}` (location for redirects,
 * which are not followed) or `{"error", "message"}`.
 */
export function describeResponse(response: OutboundResponse): string {
  const body = clean(response.body.subarray(0, RESPONSE_EXCERPT_BYTES).toString('utf8'));
  const described: Record<string, unknown> = { status: response.status, body };
  if (response.body.length > RESPONSE_EXCERPT_BYTES) described.truncated = true;
  const location = response.headers.location;
  if (response.status >= 300 && response.status < 400 && typeof location === 'string') described.location = clean(location.slice(0, 2048));
  return JSON.stringify(described);
}

export function describeError(error: OutboundError): string {
  const status = error instanceof OutboundTooLargeError ? { status: error.status } : {};
  return JSON.stringify({ ...status, error: error.kind, message: clean(error.message) });
}

/** Sends one signed POST and describes what happened; never throws for delivery failures. */
export async function attempt(
  target: { id: string; endpoint: string; signing_secret: string; body: string },
  options: Omit<DeliveryOptions, 'schedule'>,
): Promise<AttemptResult> {
  try {
    const response = await outboundRequest({
      url: target.endpoint,
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'user-agent': USER_AGENT,
        ...signedHeaders(target.signing_secret, target.id, target.body),
      },
      body: target.body,
      allowPrivate: options.allowPrivate,
      timeoutMs: options.timeoutMs,
      maxResponseBytes: options.maxResponseBytes,
    });
    const retryAfter = response.headers['retry-after'];
    return {
      status: response.status,
      response: describeResponse(response),
      retryAfterSeconds: parseRetryAfter(Array.isArray(retryAfter) ? retryAfter[0] : retryAfter),
    };
  } catch (error) {
    if (error instanceof OutboundError) return { status: undefined, response: describeError(error), retryAfterSeconds: undefined };
    return {
      status: undefined,
      response: JSON.stringify({ error: 'internal', message: clean((error as Error).message ?? String(error)) }),
      retryAfterSeconds: undefined,
    };
  }
}

/** Delivers one claimed notification and records the outcome. */
export async function deliverClaimed(db: Database, claimed: ClaimedNotification, options: DeliveryOptions): Promise<DeliveryReport> {
  const result = await attempt(claimed, options);
  // `status` is undefined unless a complete response arrived within the limits: a 2xx whose body is over the cap
  // is a failure like a timeout.
  const effective = decideOutcome(options.schedule, claimed.attempts + 1, result.status, result.retryAfterSeconds);
  let query;
  if (effective.kind === 'sent') query = recordFinal(claimed.id, claimed.lease_token, 'sent', result.response);
  else if (effective.kind === 'retry') query = recordRetry(claimed.id, claimed.lease_token, effective.delaySeconds, result.response);
  else query = recordFinal(claimed.id, claimed.lease_token, 'error', result.response);
  // One statement each (no transaction round trips); 410 adds a second one, together in a transaction.
  const recorded =
    effective.kind === 'gone'
      ? await db.transaction(async (tx) => {
          const { rowCount } = await tx.query(query.text, query.values);
          const disable = disableWebhook(claimed.webhook_id);
          if (rowCount > 0) await tx.query(disable.text, disable.values);
          return rowCount > 0;
        })
      : (await db.query(query.text, query.values)).rowCount > 0;
  return { notificationId: claimed.id, ...result, outcome: effective, recorded };
}
