/**
 * `staykit webhooks listen` (docs/webhooks.md#webhooks-listen): tails the change feed of a server with an API key and
 * forwards each new change, signed like a webhook (Standard Webhooks, with a secret of the listener's own), to a
 * local endpoint — the way to develop a receiver without exposing it to the internet. It starts at the end of the
 * feed: only changes made while it runs are forwarded.
 */
import { setTimeout as delay } from 'node:timers/promises';
import type { Change } from './feed.js';
import { signedHeaders } from '../webhooks/signature.js';

export interface ListenOptions {
  /** The Staykit server, e.g. http://127.0.0.1:3000 */
  server: string;
  key: string;
  /** Where each change is POSTed. */
  forward: string;
  /** The signing secret (`whsec_…`) the receiver verifies with. */
  secret: string;
  /** Wait between looks when the feed has nothing new (ms). */
  pollIntervalMs?: number;
  signal: AbortSignal;
  /** One line per forwarded change (and per failure). */
  log: (line: string) => void;
}

interface ChangePage {
  changes: Change[];
  next: string;
  has_more: boolean;
}

async function page(options: ListenOptions, since: string | undefined): Promise<ChangePage> {
  const url = new URL('/v1/changes', options.server);
  url.searchParams.set('limit', '100');
  if (since) url.searchParams.set('since', since);
  const response = await fetch(url, { headers: { authorization: `Bearer ${options.key}` }, signal: options.signal });
  if (!response.ok) throw new Error(`GET /v1/changes answered ${response.status}: ${await response.text()}`);
  return (await response.json()) as ChangePage;
}

/** The body forwarded for one change: the webhook body shape, with the change as payload. */
export function forwardedBody(change: Change): string {
  return JSON.stringify({
    id: change.event_id,
    date: Math.floor(new Date(change.changed_at).getTime() / 1000),
    event_type: change.type,
    event_id: change.event_id,
    payload: { resource: change.resource, id: change.id, data: change.data },
  });
}

async function forward(options: ListenOptions, change: Change): Promise<void> {
  const body = forwardedBody(change);
  try {
    const response = await fetch(options.forward, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...signedHeaders(options.secret, change.event_id, body) },
      body,
      signal: options.signal,
    });
    options.log(`${change.type} ${change.id} → ${response.status}`);
  } catch (error) {
    if (options.signal.aborted) return;
    options.log(`${change.type} ${change.id} → not delivered: ${(error as Error).message}`);
  }
}

/** Runs until `signal` aborts. Rejects when the server refuses the key or the cursor. */
export async function listen(options: ListenOptions): Promise<void> {
  const pollIntervalMs = options.pollIntervalMs ?? 1000;
  let cursor: string | undefined;
  // Skip what happened before: page to the end of the feed first.
  for (let current = await page(options, undefined); ; current = await page(options, cursor)) {
    cursor = current.next;
    if (!current.has_more) break;
  }
  options.log('Ready: forwarding new changes');
  while (!options.signal.aborted) {
    let current: ChangePage;
    try {
      current = await page(options, cursor);
    } catch (error) {
      if (options.signal.aborted) return;
      throw error;
    }
    for (const change of current.changes) await forward(options, change);
    cursor = current.next;
    if (!current.has_more) await delay(pollIntervalMs, undefined, { signal: options.signal }).catch(() => undefined);
  }
}
