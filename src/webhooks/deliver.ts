/**
 * One delivery attempt of one claimed notification: POST the stored payload, signed, to the webhook's endpoint
 * (the worker's keep-alive transport, or the one-shot outbound client), then record the outcome (sent, retry
 * later, error, or 410 → webhook disabled). The HTTP request happens outside any transaction; the outcome is
 * recorded in one statement — batched with other deliveries' outcomes when a recorder is given.
 */
import { outboundRequest, type OutboundResponse } from '../outbound/request.js';
import { OutboundError, OutboundRefusedError, OutboundTooLargeError } from '../outbound/errors.js';
import type { Queryable } from '../db/types.js';
import { signedHeaders } from './signature.js';
import { decideOutcome, parseRetryAfter, type AttemptOutcome } from './retry.js';
import { recordGone, recordOutcomes, type ClaimedNotification, type RecordedOutcome } from './queries.js';
import type { OutcomeRecorder } from './recorder.js';
import type { WebhookTransport } from './transport.js';

/** How much of a receiver's response body is kept in `webhook_notifications.response`. */
export const RESPONSE_EXCERPT_BYTES = 2048;

export const USER_AGENT = 'Staykit-Webhooks/1';

export interface DeliveryOptions {
  schedule: readonly number[];
  allowPrivate: boolean;
  timeoutMs?: number;
  maxResponseBytes?: number;
  /** Pooled keep-alive connections (the worker's); without it each attempt opens its own connection. */
  transport?: WebhookTransport;
  /** Batches the outcome with other deliveries' (the worker's); without it the outcome is written alone. */
  recorder?: OutcomeRecorder;
}

export interface AttemptResult {
  status: number | undefined;
  /** The text stored in `webhook_notifications.response`. */
  response: string;
  retryAfterSeconds: number | undefined;
  /** Why the target was refused, for the server's log only (`response` says just "target not allowed"). */
  refusedDetail?: string;
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
  options: Omit<DeliveryOptions, 'schedule' | 'recorder'>,
): Promise<AttemptResult> {
  try {
    const request = {
      url: target.endpoint,
      headers: {
        'content-type': 'application/json',
        'user-agent': USER_AGENT,
        ...signedHeaders(target.signing_secret, target.id, target.body),
      },
      body: target.body,
      allowPrivate: options.allowPrivate,
      timeoutMs: options.timeoutMs,
      maxResponseBytes: options.maxResponseBytes,
    };
    const response = options.transport
      ? await options.transport.post(request)
      : await outboundRequest({ ...request, method: 'POST' });
    const retryAfter = response.headers['retry-after'];
    return {
      status: response.status,
      response: describeResponse(response),
      retryAfterSeconds: parseRetryAfter(Array.isArray(retryAfter) ? retryAfter[0] : retryAfter),
    };
  } catch (error) {
    if (error instanceof OutboundError) {
      const refusedDetail = error instanceof OutboundRefusedError ? error.detail : undefined;
      return { status: undefined, response: describeError(error), retryAfterSeconds: undefined, refusedDetail };
    }
    return {
      status: undefined,
      response: JSON.stringify({ error: 'internal', message: clean((error as Error).message ?? String(error)) }),
      retryAfterSeconds: undefined,
    };
  }
}

/** Writes one outcome, through the recorder if any (410 in a statement of its own: it also disables the webhook). */
async function recordOutcome(db: Queryable, claimed: ClaimedNotification, outcome: AttemptOutcome, response: string, recorder?: OutcomeRecorder): Promise<boolean> {
  if (outcome.kind === 'gone') {
    if (recorder) return recorder.recordGone(claimed.id, claimed.lease_token, response);
    const query = recordGone(claimed.id, claimed.lease_token, response);
    return (await db.query(query.text, query.values)).rowCount > 0;
  }
  const recorded: RecordedOutcome = {
    notificationId: claimed.id,
    leaseToken: claimed.lease_token,
    status: outcome.kind === 'retry' ? 'pending' : outcome.kind,
    delaySeconds: outcome.kind === 'retry' ? outcome.delaySeconds : undefined,
    response,
  };
  if (recorder) return recorder.record(recorded);
  const query = recordOutcomes([recorded]);
  return (await db.query(query.text, query.values)).rowCount > 0;
}

/** Delivers one claimed notification and records the outcome. */
export async function deliverClaimed(db: Queryable, claimed: ClaimedNotification, options: DeliveryOptions): Promise<DeliveryReport> {
  const result = await attempt(claimed, options);
  // `status` is undefined unless a complete response arrived within the limits: a 2xx whose body is over the cap
  // is a failure like a timeout.
  const outcome = decideOutcome(options.schedule, claimed.attempts + 1, result.status, result.retryAfterSeconds);
  const recorded = await recordOutcome(db, claimed, outcome, result.response, options.recorder);
  return { notificationId: claimed.id, ...result, outcome, recorded };
}
