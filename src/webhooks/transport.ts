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
  /** Used as is: `host` and `content-length` are set on it. */
  headers: Record<string, string>;
  body: string | Buffer;
  allowPrivate: boolean;
  timeoutMs?: number;
  maxResponseBytes?: number;
}

/** A request that failed on a pooled connection the server had just closed is sent again on another one. */
const STALE_CONNECTION_RETRIES = 2;
const STALE_CONNECTION_CODES = new Set(['ECONNRESET', 'EPIPE']);
/** Checked URLs by endpoint (a worker posts to few endpoints many times); cleared when it grows past this. */
const URL_CACHE_SIZE = 1000;

export class WebhookTransport {
  readonly httpAgent: http.Agent;
  readonly httpsAgent: https.Agent;
  readonly trustedCa: string | Buffer | undefined;
  readonly resolve: ((hostname: string) => Promise<ResolvedAddress[]>) | undefined;
  /** Connections opened (not reused); for tests and benchmarks. */
  connectionsOpened = 0;
  private readonly endpoints = new Map<string, Endpoint>();

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
    let endpoint: Endpoint;
    try {
      endpoint = this.endpoint(request.url, request.allowPrivate);
    } catch (error) {
      return Promise.reject(error as Error);
    }
    return new Promise<OutboundResponse>((resolve, reject) => {
      new PendingPost(this, endpoint, request, resolve, reject).start();
    });
  }

  /** Closes every connection of the pool, in use or idle: call it once nothing is in flight. */
  close(): void {
    this.httpAgent.destroy();
    this.httpsAgent.destroy();
  }

  /** checkUrl and what a request needs from the URL, remembered per endpoint and setting (nothing else changes them). */
  private endpoint(raw: string, allowPrivate: boolean): Endpoint {
    const key = allowPrivate ? `1${raw}` : `0${raw}`;
    let endpoint = this.endpoints.get(key);
    if (endpoint === undefined) {
      const url = checkUrl(raw, allowPrivate);
      const secure = url.protocol === 'https:';
      const hostname = url.hostname.replace(/^\[(.*)\]$/, '$1');
      endpoint = {
        url,
        secure,
        port: url.port || (secure ? 443 : 80),
        path: `${url.pathname}${url.search}`,
        host: url.host,
        servername: secure && !isIP(hostname) ? hostname : undefined,
      };
      if (this.endpoints.size >= URL_CACHE_SIZE) this.endpoints.clear();
      this.endpoints.set(key, endpoint);
    }
    return endpoint;
  }
}

interface Endpoint {
  url: URL;
  secure: boolean;
  port: string | number;
  path: string;
  /** The `Host` header: the URL's host and port. */
  host: string;
  /** SNI and certificate name (https with a host name). */
  servername: string | undefined;
}

/**
 * One POST in flight: resolve and check the address, send (again on a new connection if a pooled one turns out
 * closed), read the capped body, all under one deadline. A class rather than closures: its methods are made once.
 */
class PendingPost {
  private settled = false;
  private current: http.ClientRequest | undefined;
  private readonly timer: NodeJS.Timeout;
  private readonly body: Buffer;
  private readonly maxBytes: number;
  private readonly timeoutMs: number;

  constructor(
    private readonly transport: WebhookTransport,
    private readonly endpoint: Endpoint,
    private readonly request: WebhookPost,
    private readonly resolve: (response: OutboundResponse) => void,
    private readonly reject: (error: OutboundError) => void,
  ) {
    this.body = typeof request.body === 'string' ? Buffer.from(request.body) : request.body;
    this.maxBytes = request.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
    this.timeoutMs = request.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    // One deadline over DNS, connect, TLS, headers and body, as in src/outbound.
    this.timer = setTimeout(() => this.fail(new OutboundTimeoutError(this.timeoutMs)), this.timeoutMs);
  }

  start(): void {
    resolveTarget(this.endpoint.url, this.request.allowPrivate, this.transport.resolve).then(
      (target) => {
        if (!this.settled) this.send(target, STALE_CONNECTION_RETRIES);
      },
      (error: unknown) => this.fail(error instanceof OutboundError ? error : new OutboundNetworkError(String(error), error)),
    );
  }

  private fail(error: OutboundError): void {
    if (this.settled) return;
    this.settled = true;
    clearTimeout(this.timer);
    this.current?.destroy();
    this.reject(error);
  }

  private send(target: ResolvedAddress, retriesLeft: number): void {
    const { endpoint, transport } = this;
    const headers = this.request.headers;
    headers.host = endpoint.host;
    headers['content-length'] = String(this.body.length);
    const options: https.RequestOptions = { host: target.address, port: endpoint.port, path: endpoint.path, method: 'POST', headers };
    if (endpoint.secure) {
      options.agent = transport.httpsAgent;
      if (endpoint.servername !== undefined) options.servername = endpoint.servername;
      if (transport.trustedCa !== undefined) options.ca = transport.trustedCa;
    } else {
      options.agent = transport.httpAgent;
    }
    const req = (endpoint.secure ? https.request : http.request)(options);
    this.current = req;
    let responded = false;
    req.on('socket', () => {
      if (!req.reusedSocket) transport.connectionsOpened += 1;
    });
    req.on('error', (error: NodeJS.ErrnoException) => {
      if (this.settled) return;
      if (!responded && req.reusedSocket && retriesLeft > 0 && STALE_CONNECTION_CODES.has(error.code ?? '')) {
        this.send(target, retriesLeft - 1);
        return;
      }
      this.fail(error instanceof OutboundError ? error : new OutboundNetworkError(networkMessage(error), error));
    });
    req.on('response', (res) => {
      responded = true;
      this.read(res, target);
    });
    req.end(this.body);
  }

  private read(res: http.IncomingMessage, target: ResolvedAddress): void {
    const status = res.statusCode ?? 0;
    const chunks: Buffer[] = [];
    let size = 0;
    res.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > this.maxBytes) this.fail(new OutboundTooLargeError(status, this.maxBytes));
      else chunks.push(chunk);
    });
    res.on('error', (error: NodeJS.ErrnoException) => this.fail(new OutboundNetworkError(networkMessage(error), error)));
    res.on('aborted', () => this.fail(new OutboundNetworkError('response aborted')));
    res.on('end', () => {
      if (this.settled) return;
      this.settled = true;
      clearTimeout(this.timer);
      this.resolve({ status, headers: res.headers, body: chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks), address: target.address });
    });
  }
}

function networkMessage(error: NodeJS.ErrnoException): string {
  return error.code ? `${error.code}: ${error.message}` : error.message;
}
