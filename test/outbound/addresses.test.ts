/**
 * The outbound address rules at their edges: the first AND the last address of every refused range (a prefix one
 * bit too short or too long passes a first-address test), the public neighbours just outside, every IPv6 spelling
 * that carries an internal IPv4 address, and refusals that never tell the client what a name resolved to.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/http/app.js';
import { forbiddenAddressReason, isForbiddenAddress } from '../../src/outbound/addresses.js';
import { outboundRequest } from '../../src/outbound/request.js';
import { OutboundRefusedError } from '../../src/outbound/errors.js';
import { forEachBackend } from '../support/databases.js';
import { fixtures } from '../support/fixtures.js';
import { bearer, createOrganization, type TestOrganization } from '../support/app.js';

/** [range, first address, last address] — written out by hand, not derived from the code's table. */
const REFUSED_IPV4: [string, string, string][] = [
  ['0.0.0.0/8', '0.0.0.0', '0.255.255.255'],
  ['10.0.0.0/8', '10.0.0.0', '10.255.255.255'],
  ['100.64.0.0/10', '100.64.0.0', '100.127.255.255'],
  ['127.0.0.0/8', '127.0.0.0', '127.255.255.255'],
  ['169.254.0.0/16', '169.254.0.0', '169.254.255.255'],
  ['172.16.0.0/12', '172.16.0.0', '172.31.255.255'],
  ['192.0.0.0/24', '192.0.0.0', '192.0.0.255'],
  ['192.0.2.0/24', '192.0.2.0', '192.0.2.255'],
  ['192.88.99.0/24', '192.88.99.0', '192.88.99.255'],
  ['192.168.0.0/16', '192.168.0.0', '192.168.255.255'],
  ['198.18.0.0/15', '198.18.0.0', '198.19.255.255'],
  ['198.51.100.0/24', '198.51.100.0', '198.51.100.255'],
  ['203.0.113.0/24', '203.0.113.0', '203.0.113.255'],
  ['224.0.0.0/4', '224.0.0.0', '239.255.255.255'],
  ['240.0.0.0/4', '240.0.0.0', '255.255.255.255'],
];

const REFUSED_IPV6: [string, string, string][] = [
  ['::/96 (unspecified, IPv4-compatible)', '::', '::ffff:ffff'],
  ['::1/128', '::1', '::1'],
  ['64:ff9b:1::/48', '64:ff9b:1::', '64:ff9b:1:ffff:ffff:ffff:ffff:ffff'],
  ['100::/64', '100::', '100::ffff:ffff:ffff:ffff'],
  ['2001::/23', '2001::', '2001:1ff:ffff:ffff:ffff:ffff:ffff:ffff'],
  ['2001:db8::/32', '2001:db8::', '2001:db8:ffff:ffff:ffff:ffff:ffff:ffff'],
  ['3fff::/20', '3fff::', '3fff:fff:ffff:ffff:ffff:ffff:ffff:ffff'],
  ['fc00::/7', 'fc00::', 'fdff:ffff:ffff:ffff:ffff:ffff:ffff:ffff'],
  ['fe80::/10', 'fe80::', 'febf:ffff:ffff:ffff:ffff:ffff:ffff:ffff'],
  ['fec0::/10', 'fec0::', 'feff:ffff:ffff:ffff:ffff:ffff:ffff:ffff'],
  ['ff00::/8', 'ff00::', 'ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff'],
  ['outside 2000::/3 (below)', '1::', '1fff:ffff:ffff:ffff:ffff:ffff:ffff:ffff'],
  ['outside 2000::/3 (above)', '4000::', '4000::'],
];

/** Public addresses right next to refused ranges: a range one bit too wide would catch them. */
const PUBLIC_NEIGHBOURS = [
  '1.0.0.0', '9.255.255.255', '11.0.0.0', '100.63.255.255', '100.128.0.0', '126.255.255.255', '128.0.0.0',
  '169.253.255.255', '169.255.0.0', '172.15.255.255', '172.32.0.0', '192.0.1.0', '192.0.3.0', '192.88.98.255',
  '192.88.100.0', '192.167.255.255', '192.169.0.0', '198.17.255.255', '198.20.0.0', '198.51.99.255',
  '198.51.101.0', '203.0.112.255', '203.0.114.0', '223.255.255.255',
  '2001:200::', '2001:db7:ffff:ffff:ffff:ffff:ffff:ffff', '2001:db9::', '2606:4700:4700::1111',
  '3ffe:ffff:ffff:ffff:ffff:ffff:ffff:ffff', '3fff:1000::', '3fff:ffff:ffff:ffff:ffff:ffff:ffff:ffff',
];

/** IPv6 spellings that deliver to an internal IPv4 address. */
const EMBEDDED_INTERNAL = [
  '::ffff:127.0.0.1', '0:0:0:0:0:ffff:127.0.0.1', '::FFFF:7F00:1', '::ffff:a9fe:a9fe', // IPv4-mapped
  '::ffff:0:7f00:1', '::ffff:0:127.0.0.1', '::ffff:0:a9fe:a9fe', // IPv4-translated
  '64:ff9b::10.0.0.1', '64:ff9b::7f00:1', '64:ff9b::a9fe:a9fe', '64:ff9b::ac1f:ffff', // NAT64
  '2002:7f00:1::', '2002:a9fe:a9fe::1', '2002:c0a8:101:1::1', '2002:0a00:0001:0:0:0:0:1', // 6to4
  '::127.0.0.1', '::169.254.169.254', '::10.0.0.1', // IPv4-compatible
  '2001:0:4136:e378:8000:63bf:80ff:fffe', // Teredo (client 127.0.0.1)
];

/** IPv6 spellings of public IPv4 addresses stay allowed. */
const EMBEDDED_PUBLIC = ['::ffff:1.1.1.1', '::ffff:0:1.1.1.1', '64:ff9b::1.1.1.1', '64:ff9b::808:808', '2002:101:101::1'];

/** `address` is refused with a reason a person can read (the log and the webhook's delivery record show it). */
function assertRefused(address: string, what: string): void {
  const reason = forbiddenAddressReason(address);
  assert.equal(typeof reason, 'string', what);
  assert.ok(reason!.length > 3, `${what}: the refusal says why, got "${reason}"`);
  assert.equal(isForbiddenAddress(address), true, what);
}

describe('outbound address rules at the edges', () => {
  it('refuses the first and the last address of every IPv4 range', () => {
    for (const [range, first, last] of REFUSED_IPV4) {
      assertRefused(first, `${first} (first of ${range})`);
      assertRefused(last, `${last} (last of ${range})`);
    }
  });

  it('refuses the first and the last address of every IPv6 range', () => {
    for (const [range, first, last] of REFUSED_IPV6) {
      assertRefused(first, `${first} (first of ${range})`);
      assertRefused(last, `${last} (last of ${range})`);
    }
  });

  it('allows the public addresses just outside them', () => {
    for (const address of PUBLIC_NEIGHBOURS) {
      assert.equal(forbiddenAddressReason(address), undefined, address);
      assert.equal(isForbiddenAddress(address), false, address);
    }
  });

  it('judges IPv4 addresses carried inside IPv6 by the IPv4 address, in every spelling', () => {
    for (const address of EMBEDDED_INTERNAL) assertRefused(address, address);
    for (const address of EMBEDDED_PUBLIC) assert.equal(forbiddenAddressReason(address), undefined, address);
    assert.match(forbiddenAddressReason('2002:a9fe:a9fe::1') ?? '', /metadata/);
    assert.match(forbiddenAddressReason('::ffff:0:7f00:1') ?? '', /loopback/);
    assert.equal(forbiddenAddressReason('::ffff:10.1.2.3'), 'private (IPv4 10.1.2.3 inside IPv6)');
  });

  it('names the range a refused address is in', () => {
    assert.equal(forbiddenAddressReason('127.0.0.1'), 'loopback');
    assert.equal(forbiddenAddressReason('169.254.169.254'), 'cloud metadata');
    assert.equal(forbiddenAddressReason('192.168.1.1'), 'private');
    assert.equal(forbiddenAddressReason('fd00:ec2::254'), 'cloud metadata');
    assert.equal(forbiddenAddressReason('fe80::1'), 'link-local');
    assert.equal(forbiddenAddressReason('rentals.example'), 'not an IP address');
  });

  it('refuses zone-scoped link-local addresses and text that is not an address', () => {
    for (const address of ['fe80::1%eth0', 'localhost', '', '1.2.3', '::g']) {
      assertRefused(address, address);
    }
  });

  it('refuses IPv6 literals in URLs that embed internal addresses', async () => {
    for (const host of ['[::ffff:0:7f00:1]', '[2002:a9fe:a9fe::1]', '[64:ff9b::a9fe:a9fe]', '[::127.0.0.1]']) {
      await assert.rejects(outboundRequest({ url: `https://${host}/` }), OutboundRefusedError, host);
    }
  });

  it('tells the caller "target not allowed" and keeps what the name resolved to for the log', async () => {
    const resolve = async () => [{ address: '10.20.30.40', family: 4 as const }];
    await assert.rejects(outboundRequest({ url: 'https://intranet.example/', resolve }), (error: unknown) => {
      assert.ok(error instanceof OutboundRefusedError);
      assert.equal(error.message, 'target not allowed');
      assert.match(error.detail ?? '', /intranet\.example resolves to 10\.20\.30\.40 \(private\)/);
      return true;
    });
  });
});

forEachBackend('webhook refusals seen by the client', (ctx) => {
  let app: FastifyInstance;
  let org: TestOrganization;
  const logLines: string[] = [];

  before(async () => {
    const logStream = new Writable({ write(chunk: Buffer, _encoding, done) { logLines.push(chunk.toString()); done(); } });
    app = await buildApp({ db: ctx.db, logStream, logLevel: 'info' });
    org = await createOrganization(ctx.db, 'Refused');
  });
  after(() => app.close());

  it('a test send to a name resolving to loopback answers "target not allowed" without the address', async () => {
    // Stored directly: the write guard would refuse it, but DNS can change after a webhook was accepted.
    const webhook = await fixtures(ctx.db, org.id).webhook({ endpoint: 'https://localhost:9/hook' });
    const response = await app.inject({
      method: 'POST',
      url: '/v1/webhook-test',
      headers: { ...bearer(org.key), 'content-type': 'application/json' },
      payload: { webhook_id: webhook },
    });
    assert.equal(response.statusCode, 200);
    const body = response.json<{ ok: boolean; status: number | null; response: string }>();
    assert.equal(body.ok, false);
    assert.deepEqual(JSON.parse(body.response), { error: 'refused', message: 'target not allowed' });
    assert.doesNotMatch(response.body, /127\.0\.0\.1|::1/);
    assert.ok(logLines.some((line) => line.includes('webhook test target refused') && /localhost resolves to (127\.0\.0\.1|::1)/.test(line)),
      'the server log says what the name resolved to');
  });

  it('registering such an endpoint is refused without the address either', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/v1/webhooks',
      headers: { ...bearer(org.key), 'content-type': 'application/json' },
      payload: { endpoint: 'https://localhost/hook', events: ['*'] },
    });
    assert.equal(response.statusCode, 400);
    assert.equal(response.json<{ code: string }>().code, 'SK420');
    assert.equal(response.json<{ details: string }>().details, 'target not allowed');
    assert.doesNotMatch(response.body, /127\.0\.0\.1|::1/);
  });
});
