/**
 * Fetching a feed under the outbound rules (docs/design.md#outbound-requests) — https only unless private targets are
 * allowed, no private/loopback/metadata addresses, no redirects, one deadline, 1 MiB cap — and turning what comes back
 * into text or a message for `external_calendars.error`.
 */
import { outboundRequest, type ResolvedAddress } from '../outbound/request.js';
import { OutboundError } from '../outbound/errors.js';

export interface FetchOptions {
  allowPrivate: boolean;
  timeoutMs?: number;
  maxResponseBytes?: number;
  signal?: AbortSignal;
  resolve?: (hostname: string) => Promise<ResolvedAddress[]>;
}

export class FeedFetchError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FeedFetchError';
  }
}

/** `webcal://` is `https://` (the scheme only tells a browser to hand the link to a calendar app). */
export function feedUrl(icalUrl: string): string {
  return icalUrl.replace(/^webcals?:\/\//i, 'https://');
}

export async function fetchFeed(icalUrl: string, options: FetchOptions): Promise<string> {
  let response;
  try {
    response = await outboundRequest({
      url: feedUrl(icalUrl),
      method: 'GET',
      headers: { accept: 'text/calendar, text/plain;q=0.5, */*;q=0.1', 'user-agent': 'Staykit-iCal/1.0' },
      allowPrivate: options.allowPrivate,
      timeoutMs: options.timeoutMs,
      maxResponseBytes: options.maxResponseBytes,
      signal: options.signal,
      resolve: options.resolve,
    });
  } catch (error) {
    if (error instanceof OutboundError) throw new FeedFetchError(`fetching the feed failed (${error.kind}): ${error.message}`);
    throw error;
  }
  if (response.status >= 300 && response.status < 400) {
    const location = String(response.headers.location ?? '').slice(0, 200);
    throw new FeedFetchError(`the feed answered HTTP ${response.status}${location ? ` to ${location}` : ''}; redirects are not followed`);
  }
  if (response.status < 200 || response.status >= 300) {
    throw new FeedFetchError(`the feed answered HTTP ${response.status}`);
  }
  return new TextDecoder('utf-8').decode(response.body);
}
