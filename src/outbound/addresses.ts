/**
 * Which IP addresses an outbound request may connect to. Everything that is not globally routable unicast is
 * refused unless the server allows private targets (development and tests): private (RFC 1918, IPv6 ULA),
 * loopback, link-local, CGNAT, multicast, reserved and documentation ranges, and the cloud metadata endpoints.
 *
 * IPv6 is parsed (ipaddr.js), not matched as text, so every spelling of an address is judged the same. The IPv6
 * forms that carry an IPv4 address a packet ends up at — IPv4-mapped (`::ffff:a.b.c.d`), IPv4-translated
 * (`::ffff:0:a.b.c.d`), NAT64 (`64:ff9b::/96`) and 6to4 (`2002::/16`) — are judged by that IPv4 address; the
 * deprecated IPv4-compatible form (`::a.b.c.d`) and the IETF protocol block holding Teredo (`2001::/23`) are refused
 * outright. Outside those, only global unicast (`2000::/3`) is allowed.
 */
import { BlockList, isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

export type AddressFamily = 4 | 6;

interface Range {
  network: string;
  prefix: number;
  reason: string;
}

const IPV4_RANGES: Range[] = [
  { network: '0.0.0.0', prefix: 8, reason: '"this network"' },
  { network: '10.0.0.0', prefix: 8, reason: 'private' },
  { network: '100.64.0.0', prefix: 10, reason: 'carrier-grade NAT' },
  { network: '127.0.0.0', prefix: 8, reason: 'loopback' },
  { network: '169.254.169.254', prefix: 32, reason: 'cloud metadata' },
  { network: '169.254.0.0', prefix: 16, reason: 'link-local' },
  { network: '172.16.0.0', prefix: 12, reason: 'private' },
  { network: '192.0.0.0', prefix: 24, reason: 'IETF protocol assignments' },
  { network: '192.0.2.0', prefix: 24, reason: 'documentation' },
  { network: '192.88.99.0', prefix: 24, reason: '6to4 relay' },
  { network: '192.168.0.0', prefix: 16, reason: 'private' },
  { network: '198.18.0.0', prefix: 15, reason: 'benchmarking' },
  { network: '198.51.100.0', prefix: 24, reason: 'documentation' },
  { network: '203.0.113.0', prefix: 24, reason: 'documentation' },
  { network: '224.0.0.0', prefix: 4, reason: 'multicast' },
  { network: '240.0.0.0', prefix: 4, reason: 'reserved' },
];

const IPV6_RANGES: Range[] = [
  { network: '::1', prefix: 128, reason: 'loopback' },
  { network: '::', prefix: 96, reason: 'unspecified or IPv4-compatible' },
  { network: '64:ff9b:1::', prefix: 48, reason: 'local NAT64' },
  { network: '100::', prefix: 64, reason: 'discard' },
  { network: '2001::', prefix: 23, reason: 'IETF protocol assignments (Teredo, benchmarking, ORCHID)' },
  { network: '2001:db8::', prefix: 32, reason: 'documentation' },
  { network: '3fff::', prefix: 20, reason: 'documentation' },
  { network: 'fd00:ec2::254', prefix: 128, reason: 'cloud metadata' },
  { network: 'fc00::', prefix: 7, reason: 'unique local (private)' },
  { network: 'fe80::', prefix: 10, reason: 'link-local' },
  { network: 'fec0::', prefix: 10, reason: 'site-local' },
  { network: 'ff00::', prefix: 8, reason: 'multicast' },
];

/** IPv6 prefixes whose packets are delivered to an IPv4 address held in the bytes `[from, from + 4)`. */
const IPV4_CARRIERS: { range: [ipaddr.IPv6, number]; from: number }[] = [
  { range: ipaddr.IPv6.parseCIDR('::ffff:0:0/96'), from: 12 }, // IPv4-mapped
  { range: ipaddr.IPv6.parseCIDR('::ffff:0:0:0/96'), from: 12 }, // IPv4-translated (SIIT)
  { range: ipaddr.IPv6.parseCIDR('64:ff9b::/96'), from: 12 }, // NAT64, well-known prefix
  { range: ipaddr.IPv6.parseCIDR('2002::/16'), from: 2 }, // 6to4
];

const GLOBAL_UNICAST = ipaddr.IPv6.parseCIDR('2000::/3');

function blockList(ranges: Range[], type: 'ipv4' | 'ipv6'): BlockList {
  const list = new BlockList();
  for (const range of ranges) list.addSubnet(range.network, range.prefix, type);
  return list;
}

const v4List = blockList(IPV4_RANGES, 'ipv4');
const v6List = blockList(IPV6_RANGES, 'ipv6');

function reasonIn(ranges: Range[], address: string, type: 'ipv4' | 'ipv6'): string {
  const single = blockList([], type);
  for (const range of ranges) {
    single.addSubnet(range.network, range.prefix, type);
    if (single.check(address, type)) return range.reason;
  }
  return 'not publicly routable';
}

function embeddedIpv4(address: ipaddr.IPv6): string | undefined {
  const carrier = IPV4_CARRIERS.find((candidate) => address.match(candidate.range));
  return carrier && address.toByteArray().slice(carrier.from, carrier.from + 4).join('.');
}

function forbiddenIpv4Reason(address: string): string | undefined {
  return v4List.check(address, 'ipv4') ? reasonIn(IPV4_RANGES, address, 'ipv4') : undefined;
}

/**
 * The address in the WHATWG URL serialisation (lower-case hex, `::` compressed, no dotted tail, no zone id): one
 * spelling per address. ipaddr.js alone reads `::a.b.c.d` as `::ffff:a.b.c.d`, so it only sees this form.
 */
function canonicalIpv6(address: string): ipaddr.IPv6 | undefined {
  try {
    const host = new URL(`http://[${address.split('%')[0]}]/`).hostname;
    return ipaddr.IPv6.parse(host.slice(1, -1));
  } catch {
    return undefined;
  }
}

function forbiddenIpv6Reason(address: string): string | undefined {
  const parsed = canonicalIpv6(address);
  if (!parsed) return 'not an IP address';
  const canonical = parsed.toNormalizedString();
  if (v6List.check(canonical, 'ipv6')) return reasonIn(IPV6_RANGES, canonical, 'ipv6');
  const inner = embeddedIpv4(parsed);
  if (inner !== undefined) {
    const reason = forbiddenIpv4Reason(inner);
    return reason && `${reason} (IPv4 ${inner} inside IPv6)`;
  }
  return parsed.match(GLOBAL_UNICAST) ? undefined : 'not global unicast';
}

/**
 * Why `address` (an IP literal, no brackets) must not be a target, or undefined when it is a public unicast
 * address. A string that is not an IP address is refused too.
 */
export function forbiddenAddressReason(address: string): string | undefined {
  const family = isIP(address);
  if (family === 4) return forbiddenIpv4Reason(address);
  if (family !== 6) return 'not an IP address';
  return forbiddenIpv6Reason(address);
}

export function isForbiddenAddress(address: string): boolean {
  return forbiddenAddressReason(address) !== undefined;
}
