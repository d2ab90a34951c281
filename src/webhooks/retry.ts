/**
 * The retry policy (docs/design.md#webhooks), as pure functions. `schedule[i]` is the wait before attempt i + 1,
 * counted from the previous failed attempt (`schedule[0]` from when the event happened): so after attempt n fails the
 * next is due `schedule[n]` seconds later, and when `schedule[n]` does not exist the notification ends `error`. The
 * default schedule therefore allows 10 attempts over about 3 days.
 */

/** The longest `Retry-After` we honour; larger values are cut to this. */
export const MAX_RETRY_AFTER_SECONDS = 24 * 60 * 60;

export type AttemptOutcome =
  | { kind: 'sent' }
  | { kind: 'retry'; delaySeconds: number }
  | { kind: 'error' }
  /** 410 Gone: the notification ends `error` and the webhook is disabled. */
  | { kind: 'gone' };

/** Parses `Retry-After` (delay-seconds or an HTTP date) into seconds from `now`, or undefined. */
export function parseRetryAfter(value: string | undefined, now: number = Date.now()): number | undefined {
  if (value === undefined) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Math.min(Number(text), MAX_RETRY_AFTER_SECONDS);
  const date = Date.parse(text);
  if (Number.isNaN(date)) return undefined;
  return Math.min(Math.max(0, Math.ceil((date - now) / 1000)), MAX_RETRY_AFTER_SECONDS);
}

/**
 * What to do after attempt number `tries` (1-based, this attempt included) ended with HTTP `status` (undefined
 * when no response: timeout, network, too large, refused). Only 2xx is success; 3xx counts as failure;
 * `Retry-After` on 429/503 pushes the next attempt later than the schedule would, never sooner.
 */
export function decideOutcome(
  schedule: readonly number[],
  tries: number,
  status: number | undefined,
  retryAfterSeconds?: number,
): AttemptOutcome {
  if (status !== undefined && status >= 200 && status < 300) return { kind: 'sent' };
  if (status === 410) return { kind: 'gone' };
  const next = schedule[tries];
  if (next === undefined) return { kind: 'error' };
  const honoured = (status === 429 || status === 503) && retryAfterSeconds !== undefined ? retryAfterSeconds : 0;
  return { kind: 'retry', delaySeconds: Math.max(next, honoured) };
}
