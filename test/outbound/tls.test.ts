/**
 * https with the address pinned: the connection goes to the checked IP while TLS still verifies the certificate
 * against the URL's host name (SNI) — pinning must not weaken certificate checks.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import https from 'node:https';
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { outboundRequest } from '../../src/outbound/request.js';
import { OutboundError } from '../../src/outbound/errors.js';

const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url));
const cert = fixture('receiver.test.crt');
const key = fixture('receiver.test.key');
const loopback = async () => [{ address: '127.0.0.1', family: 4 as const }];

describe('outboundRequest over https', () => {
  let server: https.Server;
  let port: number;
  let servername: string | undefined;

  before(async () => {
    server = https.createServer({ cert, key }, (req, res) => {
      servername = (req.socket as import('node:tls').TLSSocket).servername || undefined;
      res.writeHead(200).end(`host ${req.headers.host}`);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  after(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('connects to the pinned address with SNI and Host of the URL, verifying the certificate', async () => {
    const response = await outboundRequest({
      url: `https://receiver.test:${port}/`, allowPrivate: true, resolve: loopback, trustedCa: cert,
    });
    assert.equal(response.status, 200);
    assert.equal(response.body.toString(), `host receiver.test:${port}`);
    assert.equal(servername, 'receiver.test');
    assert.equal(response.address, '127.0.0.1');
  });

  it('still refuses a certificate that does not name the host', async () => {
    await assert.rejects(
      outboundRequest({ url: `https://other.test:${port}/`, allowPrivate: true, resolve: loopback, trustedCa: cert }),
      (error: unknown) => error instanceof OutboundError && error.kind === 'network' && /ERR_TLS_CERT_ALTNAME_INVALID/.test(error.message),
    );
  });

  it('refuses an untrusted certificate', async () => {
    await assert.rejects(
      outboundRequest({ url: `https://receiver.test:${port}/`, allowPrivate: true, resolve: loopback }),
      (error: unknown) => error instanceof OutboundError && error.kind === 'network',
    );
  });
});
