/**
 * The delivery worker's keep-alive transport keeps the outbound rules (scheme, address checks on every attempt,
 * the connection to the checked address, deadline, body cap, TLS verification against the host name) while it
 * reuses connections.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import https from 'node:https';
import { readFileSync } from 'node:fs';
import type { AddressInfo, Socket } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { WebhookTransport } from '../../src/webhooks/transport.js';
import { rejectsWith } from '../outbound/support.js';
import { OutboundError, OutboundRefusedError } from '../../src/outbound/errors.js';

const fixture = (name: string) => readFileSync(new URL(`../outbound/fixtures/${name}`, import.meta.url));
const resolvesTo = (address: string) => async () => [{ address, family: 4 as const }];


interface Seen {
  address: string;
  host: string | undefined;
  connection: number;
  requestOnConnection: number;
}

/** A loopback server on `address`; `handle` may answer or not. */
async function server(
  address: string,
  port: number,
  handle: (req: http.IncomingMessage, res: http.ServerResponse, seen: Seen) => void,
): Promise<{ server: http.Server; port: number; seen: Seen[] }> {
  const seen: Seen[] = [];
  const counts = new WeakMap<Socket, { id: number; requests: number }>();
  let connections = 0;
  const created = http.createServer((req, res) => {
    const socket = req.socket;
    let entry = counts.get(socket);
    if (!entry) {
      connections += 1;
      entry = { id: connections, requests: 0 };
      counts.set(socket, entry);
    }
    entry.requests += 1;
    const record = { address, host: req.headers.host, connection: entry.id, requestOnConnection: entry.requests };
    seen.push(record);
    req.resume();
    req.on('end', () => handle(req, res, record));
  });
  await new Promise<void>((resolve) => created.listen(port, address, resolve));
  return { server: created, port: (created.address() as AddressInfo).port, seen };
}

async function close(target: http.Server): Promise<void> {
  target.closeAllConnections();
  await new Promise<void>((resolve) => target.close(() => resolve()));
}

describe('webhook transport', () => {
  const transport = new WebhookTransport({ resolve: resolvesTo('127.0.0.1') });
  let main: Awaited<ReturnType<typeof server>>;
  let second: Awaited<ReturnType<typeof server>>;
  let reply: (req: http.IncomingMessage, res: http.ServerResponse, seen: Seen) => void = (_req, res) => res.end('ok');

  before(async () => {
    main = await server('127.0.0.1', 0, (req, res, seen) => reply(req, res, seen));
    second = await server('127.0.0.2', main.port, (_req, res) => res.end('second'));
  });
  after(async () => {
    transport.close();
    await close(main.server);
    await close(second.server);
  });

  const post = (path = '/hook', options: { timeoutMs?: number; maxResponseBytes?: number } = {}) =>
    transport.post({ url: `http://receiver.test:${main.port}${path}`, headers: { 'content-type': 'application/json' }, body: '{}', allowPrivate: true, ...options });

  it('reuses one connection for requests one after another, with Host of the URL', async () => {
    const before = main.seen.length;
    for (let i = 0; i < 10; i += 1) {
      const response = await post();
      assert.equal(response.status, 200);
      assert.equal(response.body.toString(), 'ok');
      assert.equal(response.address, '127.0.0.1');
    }
    const seen = main.seen.slice(before);
    assert.equal(new Set(seen.map((entry) => entry.connection)).size, 1, 'one connection');
    assert.ok(seen.every((entry) => entry.host === `receiver.test:${main.port}`));
  });

  it('connects to the address checked on this attempt: a new DNS answer never reuses the old connection', async () => {
    let answer = '127.0.0.1';
    const switching = new WebhookTransport({ resolve: async () => [{ address: answer, family: 4 as const }] });
    try {
      const url = `http://receiver.test:${main.port}/hook`;
      assert.equal((await switching.post({ url, headers: {}, body: '', allowPrivate: true })).address, '127.0.0.1');
      answer = '127.0.0.2';
      const response = await switching.post({ url, headers: {}, body: '', allowPrivate: true });
      assert.equal(response.address, '127.0.0.2');
      assert.equal(response.body.toString(), 'second');
      assert.equal(switching.connectionsOpened, 2);
    } finally {
      switching.close();
    }
  });

  it('refuses what the outbound rules refuse, before sending anything', async () => {
    const strict = new WebhookTransport({ resolve: resolvesTo('127.0.0.1') });
    const before = main.seen.length;
    try {
      await rejectsWith(strict.post({ url: `http://receiver.test:${main.port}/`, headers: {}, body: '', allowPrivate: false }), 'refused', /https/);
      // The client sees only "target not allowed"; what the name resolved to is the refusal's detail, for the log.
      await assert.rejects(strict.post({ url: `https://receiver.test:${main.port}/`, headers: {}, body: '', allowPrivate: false }), (error: unknown) => {
        assert.ok(error instanceof OutboundRefusedError, String(error));
        assert.equal(error.message, 'target not allowed');
        assert.match(error.detail ?? '', /127\.0\.0\.1/);
        return true;
      });
      await rejectsWith(strict.post({ url: `https://user:pw@receiver.test/`, headers: {}, body: '', allowPrivate: true }), 'refused', /credentials/);
    } finally {
      strict.close();
    }
    assert.equal(main.seen.length, before);
  });

  it('gives up at the deadline, and the next request gets a working connection', async () => {
    reply = (_req, res) => setTimeout(() => res.end('late'), 1000);
    try {
      await rejectsWith(post('/slow', { timeoutMs: 150 }), 'timeout');
    } finally {
      reply = (_req, res) => res.end('ok');
    }
    assert.equal((await post()).status, 200);
  });

  it('stops reading a body over the cap', async () => {
    reply = (_req, res) => res.end(Buffer.alloc(5000, 'x'));
    try {
      await assert.rejects(post('/big', { maxResponseBytes: 1000 }), (error: unknown) =>
        error instanceof OutboundError && error.kind === 'too_large' && (error as OutboundError & { status: number }).status === 200);
    } finally {
      reply = (_req, res) => res.end('ok');
    }
    assert.equal((await post()).status, 200);
  });

  it('sends again on a new connection when a reused one turns out closed, not when a new one fails', async () => {
    await post(); // a pooled connection exists
    reply = (req, res, seen) => {
      if (seen.requestOnConnection > 1) req.socket.resetAndDestroy();
      else res.end('fresh');
    };
    try {
      const response = await post('/stale');
      assert.equal(response.body.toString(), 'fresh');
      assert.ok((main.seen.at(-2)?.requestOnConnection ?? 0) > 1, 'first sent on the pooled connection, which was reset');
      assert.equal(main.seen.at(-1)?.requestOnConnection, 1, 'then answered on a new connection');
      reply = (req) => req.socket.resetAndDestroy();
      const fresh = new WebhookTransport({ resolve: resolvesTo('127.0.0.1') });
      try {
        await rejectsWith(fresh.post({ url: `http://receiver.test:${main.port}/`, headers: {}, body: '', allowPrivate: true }), 'network', /ECONNRESET/);
      } finally {
        fresh.close();
      }
    } finally {
      reply = (_req, res) => res.end('ok');
    }
  });

  it('a request may take longer than the idle timeout of pooled connections', async () => {
    const shortIdle = new WebhookTransport({ resolve: resolvesTo('127.0.0.1'), idleTimeoutMs: 50 });
    reply = (_req, res) => setTimeout(() => res.end('slow but fine'), 300);
    try {
      const response = await shortIdle.post({ url: `http://receiver.test:${main.port}/`, headers: {}, body: '', allowPrivate: true, timeoutMs: 2000 });
      assert.equal(response.body.toString(), 'slow but fine');
    } finally {
      reply = (_req, res) => res.end('ok');
      shortIdle.close();
    }
  });

  it('counts the connections it opened', async () => {
    const counted = new WebhookTransport({ resolve: resolvesTo('127.0.0.1') });
    try {
      await Promise.all(Array.from({ length: 3 }, () => counted.post({ url: `http://receiver.test:${main.port}/`, headers: {}, body: '', allowPrivate: true })));
      for (let i = 0; i < 5; i += 1) await counted.post({ url: `http://receiver.test:${main.port}/`, headers: {}, body: '', allowPrivate: true });
      assert.equal(counted.connectionsOpened, 3);
    } finally {
      counted.close();
    }
  });
});

describe('webhook transport over https', () => {
  const cert = fixture('receiver.test.crt');
  const key = fixture('receiver.test.key');
  let target: https.Server;
  let port: number;
  const servernames: Array<string | undefined> = [];
  let connections = 0;

  before(async () => {
    target = https.createServer({ cert, key }, (req, res) => {
      servernames.push((req.socket as TLSSocket).servername || undefined);
      res.end(`host ${req.headers.host}`);
    });
    target.on('secureConnection', () => (connections += 1));
    await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
    port = (target.address() as AddressInfo).port;
  });
  after(async () => {
    target.closeAllConnections();
    await new Promise<void>((resolve) => target.close(() => resolve()));
  });

  it('verifies the certificate against the host name (SNI) while connecting to the checked address, and reuses the connection', async () => {
    const transport = new WebhookTransport({ resolve: resolvesTo('127.0.0.1'), trustedCa: cert });
    try {
      for (let i = 0; i < 3; i += 1) {
        const response = await transport.post({ url: `https://receiver.test:${port}/`, headers: {}, body: '{}', allowPrivate: true });
        assert.equal(response.body.toString(), `host receiver.test:${port}`);
        assert.equal(response.address, '127.0.0.1');
      }
      assert.deepEqual(servernames, ['receiver.test', 'receiver.test', 'receiver.test']);
      assert.equal(connections, 1);
    } finally {
      transport.close();
    }
  });

  it('refuses a certificate that does not name the host, and an untrusted one', async () => {
    const transport = new WebhookTransport({ resolve: resolvesTo('127.0.0.1'), trustedCa: cert });
    const untrusted = new WebhookTransport({ resolve: resolvesTo('127.0.0.1') });
    try {
      await rejectsWith(transport.post({ url: `https://other.test:${port}/`, headers: {}, body: '', allowPrivate: true }), 'network', /ERR_TLS_CERT_ALTNAME_INVALID/);
      await rejectsWith(untrusted.post({ url: `https://receiver.test:${port}/`, headers: {}, body: '', allowPrivate: true }), 'network');
    } finally {
      transport.close();
      untrusted.close();
    }
  });
});
