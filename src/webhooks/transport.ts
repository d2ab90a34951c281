/**
 * The HTTP client of the delivery worker: the outbound rules of `src/outbound/request.ts` (https only unless
 * `allowPrivate`, credentials refused, the host resolved on every attempt and every address it resolves to
 * checked, the connection made to the checked address, no redirects, one deadline, a capped body), over
 * keep-alive connections. A new TCP (and TLS) connection per notification costs more than the delivery itself
 * — it capped a worker at a few hundred deliveries per second — so each worker keeps one pool of idle
 * connections and reuses them.
 *
 * Pinning still holds with pooling: requests are made to the checked IP address itself (`host` is the address;
 * the URL's host goes in `Host` and, for https, in SNI and the certificate check), and a pooled connection is
 * keyed by that address, so a connection is only ever reused for the address that was checked on this attempt.
 */
import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import {
  DEFAULT_MAX_RESPONSE_BYTES,
  DEFAULT_TIMEOUT_MS,
  checkUrl,
  resolveTarget,
  type OutboundResponse,
  type ResolvedAddress,
} from '../outbound/request.js';
import { OutboundError, OutboundNetworkError, OutboundTimeoutError, OutboundTooLargeError } from '../outbound/errors.js';

export interface WebhookTransportOptions {
  /** Idle pooled connections are closed after this long (ms); below Node's and most servers' 5 s keep-alive. */
  idleTimeoutMs?: number;
  /** PEM certificates trusted for https instead of Node's default roots (tests). */
  trustedCa?: string | Buffer;
  /** Name resolution, replaceable in tests; defaults to the system resolver. */
  resolve?: (hostname: string) => Promise<ResolvedAddress[]>;
}

export interface WebhookPost {
  url: string;
  headers: Record<string, string>;
  body: string | Buffer;
  allowPrivate: boolean;
  timeoutMs?: number;
  maxResponseBytes?: number;
}

/** A request that failed on a pooled connection the server had just closed is sent again on another one. */
const STALE_CONNECTION_RETRIES = 2;
const STALE_CONNECTION_CODES = new Set(['ECONNRESET', 'EPIPE']);

export class WebhookTransport {
  private readonly httpAgent: http.Agent;
  private readonly httpsAgent: https.Agent;
  private readonly trustedCa: string | Buffer | undefined;
  private readonly resolve: ((hostname: string) => Promise<ResolvedAddress[]>) | undefined;
  /** Connections opened (not reused); for tests and benchmarks. */
  connectionsOpened = 0;

  constructor(options: WebhookTransportOptions = {}) {
    // `timeout` only closes idle (pooled) sockets: a request's own deadline is the timer in `post`. Node also
    // honours a shorter `Keep-Alive: timeout=N` announced by the server.
    const agentOptions = { keepAlive: true, timeout: options.idleTimeoutMs ?? 4000, scheduling: 'lifo' as const };
    this.httpAgent = new http.Agent(agentOptions);
    this.httpsAgent = new https.Agent(agentOptions);
    this.trustedCa = options.trustedCa;
    this.resolve = options.resolve;
  }

  /** POSTs under the outbound rules. Resolves with any HTTP response, 3xx/4xx/5xx included; throws OutboundError. */
  post(request: WebhookPost): Promise<OutboundResponse> {
    const timeoutMs = request.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const maxBytes = request.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
    let url: URL;
    try {
      url = checkUrl(request.url, request.allowPrivate);
    } catch (error) {
      return Promise.reject(error as Error);
    }
    const body = typeof request.body === 'string' ? Buffer.from(request.body) : request.body;
    return new Promise<OutboundResponse>((resolve, reject) => {
      let settled = false;
      let current: http.ClientRequest | undefined;
      const fail = (error: OutboundError) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        current?.destroy();
        reject(error);
      };
      // One deadline over DNS, connect, TLS, headers and body, as in src/outbound.
      const timer = setTimeout(() => fail(new OutboundTimeoutError(timeoutMs)), timeoutMs);

      const send = (target: ResolvedAddress, retriesLeft: number) => {
        const secure = url.protocol === 'https:';
        const hostname = url.hostname.replace(/^\[(.*)\]$/, '$1');
        const req = (secure ? https.request : http.request)({
          host: target.address,
          port: url.port || (secure ? 443 : 80),
          path: `${url.pathname}${url.search}`,
          method: 'POST',
          headers: { ...request.headers, host: url.host, 'content-length': String(body.length) },
          agent: secure ? this.httpsAgent : this.httpAgent,
          ...(secure && !isIP(hostname) ? { servername: hostname } : {}),
          ...(secure && this.trustedCa !== undefined ? { ca: this.trustedCa } : {}),
        });
        current = req;
        let responded = false;
        req.on('socket', () => {
          if (!req.reusedSocket) this.connectionsOpened += 1;
        });
        req.on('error', (error: NodeJS.ErrnoException) => {
          if (settled) return;
          if (!responded && req.reusedSocket && retriesLeft > 0 && STALE_CONNECTION_CODES.has(error.code ?? '')) {
            send(target, retriesLeft - 1);
            return;
          }
          fail(error instanceof OutboundError ? error : new OutboundNetworkError(networkMessage(error), error));
        });
        req.on('response', (res) => {
          responded = true;
          const status = res.statusCode ?? 0;
          const chunks: Buffer[] = [];
          let size = 0;
          res.on('data', (chunk: Buffer) => {
            size += chunk.length;
            if (size > maxBytes) fail(new OutboundTooLargeError(status, maxBytes));
            else chunks.push(chunk);
          });
          res.on('error', (error: NodeJS.ErrnoException) => fail(new OutboundNetworkError(networkMessage(error), error)));
          res.on('aborted', () => fail(new OutboundNetworkError('response aborted')));
          res.on('end', () => {
            if (settled) return;
            settled = true;
            clearTimeout(timer);
            resolve({ status, headers: res.headers, body: Buffer.concat(chunks), address: target.address });
          });
        });
        req.end(body);
      };

      resolveTarget(url, request.allowPrivate, this.resolve).then(
        (target) => {
          if (!settled) send(target, STALE_CONNECTION_RETRIES);
        },
        (error: unknown) => fail(error instanceof OutboundError ? error : new OutboundNetworkError(String(error), error)),
      );
    });
  }

  /** Closes every connection of the pool, in use or idle: call it once nothing is in flight. */
  close(): void {
    this.httpAgent.destroy();
    this.httpsAgent.destroy();
  }
}

function networkMessage(error: NodeJS.ErrnoException): string {
  return error.code ? `${error.code}: ${error.message}` : error.message;
}
