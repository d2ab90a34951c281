/**
 * The one HTTP client for requests the server makes on behalf of an organization (webhook deliveries, iCal
 * feeds). The target is checked before anything is sent:
 * - `https:` only, unless `allowPrivate` (then `http:` too);
 * - the host name is resolved once, every address it resolves to must be public unless `allowPrivate`, and the
 *   connection goes to the address that was checked (the socket's `lookup` is pinned to it), so a second DNS
 *   answer cannot redirect the request (no DNS-rebinding gap). TLS still verifies the certificate against the
 *   host name (SNI and `Host` are the URL's host);
 * - redirects are never followed: a 3xx is returned like any other response;
 * - one deadline (default 10 s) covers DNS, connect, TLS, headers and body;
 * - the body is read up to `maxResponseBytes` (default 1 MiB); one byte more and the request is aborted with
 *   `OutboundTooLargeError`.
 * Failures are thrown as the typed errors of `./errors.ts`.
 */
import http from 'node:http';
import https from 'node:https';
import { lookup as dnsLookup } from 'node:dns/promises';
import { isIP, type LookupFunction } from 'node:net';
import { forbiddenAddressReason, type AddressFamily } from './addresses.js';
import {
  OutboundError,
  OutboundNetworkError,
  OutboundRefusedError,
  OutboundTimeoutError,
  OutboundTooLargeError,
  TARGET_NOT_ALLOWED,
} from './errors.js';

export const DEFAULT_TIMEOUT_MS = 10_000;
export const DEFAULT_MAX_RESPONSE_BYTES = 1024 * 1024;

export interface OutboundRequest {
  url: string;
  method?: 'GET' | 'POST' | 'HEAD';
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** Allows `http:` and private, loopback, link-local and metadata targets (development and tests only). */
  allowPrivate?: boolean;
  timeoutMs?: number;
  maxResponseBytes?: number;
  /** Aborting rejects with an OutboundNetworkError ("aborted"). */
  signal?: AbortSignal;
  /** PEM certificates trusted for https instead of Node's default roots (tests, private CAs). */
  trustedCa?: string | Buffer;
  /** Name resolution, replaceable in tests; defaults to the system resolver (`dns.lookup`, all addresses). */
  resolve?: (hostname: string) => Promise<ResolvedAddress[]>;
}

export interface ResolvedAddress {
  address: string;
  family: AddressFamily;
}

export interface OutboundResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  /** The IP address the request connected to. */
  address: string;
}

async function systemResolve(hostname: string): Promise<ResolvedAddress[]> {
  const answers = await dnsLookup(hostname, { all: true, verbatim: true });
  return answers.map((answer) => ({ address: answer.address, family: answer.family === 6 ? 6 : 4 }));
}

/** Parses and checks the URL; throws OutboundRefusedError. */
export function checkUrl(raw: string, allowPrivate: boolean): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new OutboundRefusedError('not a valid URL');
  }
  if (url.protocol !== 'https:' && !(allowPrivate && url.protocol === 'http:')) {
    throw new OutboundRefusedError(allowPrivate ? 'only http and https URLs are allowed' : 'only https URLs are allowed');
  }
  if (url.username || url.password) throw new OutboundRefusedError('URLs with credentials are not allowed');
  return url;
}

/** Resolves the URL's host and picks the address to connect to; throws OutboundRefusedError / NetworkError. */
export async function resolveTarget(
  url: URL,
  allowPrivate: boolean,
  resolve: (hostname: string) => Promise<ResolvedAddress[]> = systemResolve,
): Promise<ResolvedAddress> {
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  const literal = isIP(host);
  let candidates: ResolvedAddress[];
  if (literal) {
    candidates = [{ address: host, family: literal === 6 ? 6 : 4 }];
  } else {
    try {
      candidates = await resolve(host);
    } catch (error) {
      throw new OutboundNetworkError(`cannot resolve ${host}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`, error);
    }
    if (candidates.length === 0) throw new OutboundNetworkError(`cannot resolve ${host}: no addresses`);
  }
  if (!allowPrivate) {
    // Any forbidden answer refuses the whole name: a name that mixes public and private answers is an attack.
    for (const candidate of candidates) {
      const reason = forbiddenAddressReason(candidate.address);
      if (reason !== undefined) {
        throw new OutboundRefusedError(TARGET_NOT_ALLOWED, `${host} resolves to ${candidate.address} (${reason})`);
      }
    }
  }
  return candidates[0] as ResolvedAddress;
}

/** A `lookup` that answers every query with the one address that was checked. */
function pinnedLookup(target: ResolvedAddress): LookupFunction {
  return ((_hostname: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    if (options?.all) callback(null, [{ address: target.address, family: target.family }]);
    else callback(null, target.address, target.family);
  }) as LookupFunction;
}

function networkMessage(error: NodeJS.ErrnoException): string {
  return error.code ? `${error.code}: ${error.message}` : error.message;
}

/** Sends one request under the rules above. Resolves with any HTTP response, 3xx/4xx/5xx included. */
export async function outboundRequest(request: OutboundRequest): Promise<OutboundResponse> {
  const allowPrivate = request.allowPrivate ?? false;
  const timeoutMs = request.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const maxBytes = request.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  const url = checkUrl(request.url, allowPrivate);
  if (request.signal?.aborted) throw new OutboundNetworkError('aborted');

  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(), timeoutMs);
  const onAbort = () => deadline.abort();
  request.signal?.addEventListener('abort', onAbort, { once: true });
  const failure = (error: unknown): OutboundError => {
    if (error instanceof OutboundError) return error;
    if (deadline.signal.aborted) {
      return request.signal?.aborted ? new OutboundNetworkError('aborted') : new OutboundTimeoutError(timeoutMs);
    }
    return new OutboundNetworkError(networkMessage(error as NodeJS.ErrnoException), error);
  };

  try {
    const target = await Promise.race([
      resolveTarget(url, allowPrivate, request.resolve),
      new Promise<never>((_, reject) => {
        if (deadline.signal.aborted) reject(new Error('aborted'));
        deadline.signal.addEventListener('abort', () => reject(new Error('aborted')), { once: true });
      }),
    ]);
    return await send(url, target, request, deadline.signal, maxBytes);
  } catch (error) {
    throw failure(error);
  } finally {
    clearTimeout(timer);
    request.signal?.removeEventListener('abort', onAbort);
  }
}

function send(
  url: URL,
  target: ResolvedAddress,
  request: OutboundRequest,
  signal: AbortSignal,
  maxBytes: number,
): Promise<OutboundResponse> {
  const transport = url.protocol === 'https:' ? https : http;
  const body = request.body === undefined ? undefined : Buffer.from(request.body);
  const headers: Record<string, string> = { ...request.headers };
  if (body !== undefined) headers['content-length'] = String(body.length);
  return new Promise<OutboundResponse>((resolve, reject) => {
    const req = transport.request(url, {
      method: request.method ?? (body === undefined ? 'GET' : 'POST'),
      headers,
      agent: false,
      lookup: pinnedLookup(target),
      signal,
      ...(request.trustedCa === undefined ? {} : { ca: request.trustedCa }),
    });
    req.on('error', reject);
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > maxBytes) {
          const error = new OutboundTooLargeError(res.statusCode ?? 0, maxBytes);
          reject(error);
          req.destroy(error);
          return;
        }
        chunks.push(chunk);
      });
      res.on('error', reject);
      res.on('aborted', () => reject(new OutboundNetworkError('response aborted')));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks), address: target.address }),
      );
    });
    req.end(body);
  });
}
