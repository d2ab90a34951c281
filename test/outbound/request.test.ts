import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { outboundRequest } from '../../src/outbound/request.js';
import { forbiddenAddressReason } from '../../src/outbound/addresses.js';
import { rejectsWith } from './support.js';
import { OutboundError } from '../../src/outbound/errors.js';


describe('outbound address rules', () => {
  it('refuses private, loopback, link-local, CGNAT, multicast and metadata addresses', () => {
    for (const address of [
      '127.0.0.1', '10.1.2.3', '172.16.0.1', '192.168.1.1', '169.254.169.254', '169.254.1.1', '100.64.0.1',
      '224.0.0.1', '0.0.0.0', '255.255.255.255', '::1', '::', 'fe80::1', 'fc00::1', 'fd00:ec2::254', 'ff02::1',
      '::ffff:127.0.0.1', '::ffff:a9fe:a9fe', '64:ff9b::10.0.0.1',
    ]) {
      assert.notEqual(forbiddenAddressReason(address), undefined, address);
    }
    assert.match(forbiddenAddressReason('169.254.169.254') ?? '', /metadata/);
    assert.match(forbiddenAddressReason('fd00:ec2::254') ?? '', /metadata/);
  });

  it('allows public unicast addresses', () => {
    for (const address of ['93.184.215.14', '1.1.1.1', '2606:4700:4700::1111', '::ffff:1.1.1.1']) {
      assert.equal(forbiddenAddressReason(address), undefined, address);
    }
  });
});

describe('outboundRequest', () => {
  let server: http.Server;
  let base: string;
  const seen: { host: string | undefined; body: string }[] = [];

  before(async () => {
    server = http.createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        seen.push({ host: req.headers.host, body });
        const path = req.url ?? '/';
        if (path === '/redirect') {
          res.writeHead(302, { location: '/ok' }).end('moved');
        } else if (path === '/slow') {
          setTimeout(() => res.writeHead(200).end('late'), 2_000).unref();
        } else if (path === '/big') {
          res.writeHead(200, { 'content-type': 'text/plain' });
          const chunk = Buffer.alloc(64 * 1024, 'x');
          let sent = 0;
          const pump = () => {
            while (sent < 4 * 1024 * 1024) {
              sent += chunk.length;
              if (!res.write(chunk)) return void res.once('drain', pump);
            }
            res.end();
          };
          res.on('error', () => undefined);
          pump();
        } else {
          res.writeHead(200, { 'content-type': 'text/plain' }).end(`ok ${body}`);
        }
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  after(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('refuses http:// unless private targets are allowed', async () => {
    await rejectsWith(outboundRequest({ url: 'http://example.com/' }), 'refused', /only https/);
  });

  it('refuses loopback, private and metadata targets by address', async () => {
    for (const url of [
      'https://127.0.0.1/', 'https://10.0.0.1/', 'https://169.254.169.254/latest/meta-data/', 'https://[::1]/',
      'https://[fd00:ec2::254]/', 'https://2130706433/', 'https://0x7f.0.0.1/',
    ]) {
      await rejectsWith(outboundRequest({ url }), 'refused', /not allowed/);
    }
  });

  it('refuses a host name when any of its addresses is private, before connecting', async () => {
    const resolve = async () => [
      { address: '93.184.215.14', family: 4 as const },
      { address: '10.0.0.7', family: 4 as const },
    ];
    await rejectsWith(outboundRequest({ url: 'https://mixed.example/', resolve }), 'refused', /^target not allowed$/);
  });

  it('refuses URLs with credentials and non-http schemes', async () => {
    await rejectsWith(outboundRequest({ url: 'https://user:pw@example.com/' }), 'refused');
    await rejectsWith(outboundRequest({ url: 'file:///etc/passwd', allowPrivate: true }), 'refused');
    await rejectsWith(outboundRequest({ url: 'not a url' }), 'refused');
  });

  it('connects to the checked address, keeping the URL host for Host', async () => {
    const port = (server.address() as AddressInfo).port;
    let lookups = 0;
    const resolve = async () => {
      lookups += 1;
      return [{ address: '127.0.0.1', family: 4 as const }];
    };
    const response = await outboundRequest({
      url: `http://receiver.invalid:${port}/hello`, method: 'POST', body: 'abc', allowPrivate: true, resolve,
    });
    assert.equal(response.status, 200);
    assert.equal(response.body.toString(), 'ok abc');
    assert.equal(response.address, '127.0.0.1');
    assert.equal(lookups, 1);
    assert.equal(seen.at(-1)?.host, `receiver.invalid:${port}`);
  });

  it('returns a redirect as-is without following it', async () => {
    const before = seen.length;
    const response = await outboundRequest({ url: `${base}/redirect`, allowPrivate: true });
    assert.equal(response.status, 302);
    assert.equal(response.headers.location, '/ok');
    assert.equal(seen.length, before + 1);
  });

  it('times out', async () => {
    await rejectsWith(outboundRequest({ url: `${base}/slow`, allowPrivate: true, timeoutMs: 200 }), 'timeout');
  });

  it('stops reading a body over the cap', async () => {
    await assert.rejects(outboundRequest({ url: `${base}/big`, allowPrivate: true }), (error: unknown) => {
      assert.ok(error instanceof OutboundError);
      assert.equal(error.kind, 'too_large');
      assert.equal((error as OutboundError & { status: number }).status, 200);
      return true;
    });
    const small = await outboundRequest({ url: `${base}/small`, allowPrivate: true, maxResponseBytes: 10 });
    assert.equal(small.body.toString(), 'ok ');
  });

  it('reports connection failures as network errors', async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    await rejectsWith(outboundRequest({ url: `http://127.0.0.1:${port}/`, allowPrivate: true }), 'network', /ECONNREFUSED/);
  });
});
