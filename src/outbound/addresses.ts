/**
 * Which IP addresses an outbound request may connect to. Everything that is not globally routable unicast is
 * refused unless the server allows private targets (development and tests): private (RFC 1918, IPv6 ULA),
 * loopback, link-local, CGNAT, multicast, reserved and documentation ranges, and the cloud metadata endpoints.
 */
import { BlockList, isIP } from 'node:net';

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
  { network: '2001:db8::', prefix: 32, reason: 'documentation' },
  { network: 'fd00:ec2::254', prefix: 128, reason: 'cloud metadata' },
  { network: 'fc00::', prefix: 7, reason: 'unique local (private)' },
  { network: 'fe80::', prefix: 10, reason: 'link-local' },
  { network: 'fec0::', prefix: 10, reason: 'site-local' },
  { network: 'ff00::', prefix: 8, reason: 'multicast' },
];

function blockList(ranges: Range[], type: 'ipv4' | 'ipv6'): BlockList {
  const list = new BlockList();
  for (const range of ranges) list.addSubnet(range.network, range.prefix, type);
  return list;
}

const v4List = blockList(IPV4_RANGES, 'ipv4');
const v6List = blockList(IPV6_RANGES, 'ipv6');

/** 64:ff9b::/96 (NAT64) and ::ffff:0:0/96 (IPv4-mapped) carry an IPv4 address in their last 32 bits. */
function embeddedIpv4(address: string): string | undefined {
  const mapped = /^(?:::ffff:|64:ff9b::)(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return mapped[1];
  const hex = /^(?:::ffff:|64:ff9b::)([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(address);
  if (!hex) return undefined;
  const high = parseInt(hex[1] as string, 16);
  const low = parseInt(hex[2] as string, 16);
  return [high >> 8, high & 255, low >> 8, low & 255].join('.');
}

function reasonIn(ranges: Range[], address: string, type: 'ipv4' | 'ipv6'): string {
  const single = blockList([], type);
  for (const range of ranges) {
    single.addSubnet(range.network, range.prefix, type);
    if (single.check(address, type)) return range.reason;
  }
  return 'not publicly routable';
}

/**
 * Why `address` (an IP literal, no brackets) must not be a target, or undefined when it is a public unicast
 * address. A string that is not an IP address is refused too.
 */
export function forbiddenAddressReason(address: string): string | undefined {
  const family = isIP(address);
  if (family === 4) return v4List.check(address, 'ipv4') ? reasonIn(IPV4_RANGES, address, 'ipv4') : undefined;
  if (family !== 6) return 'not an IP address';
  const inner = embeddedIpv4(address.toLowerCase());
  if (inner !== undefined) {
    const reason = forbiddenAddressReason(inner);
    return reason === undefined ? undefined : `${reason} (IPv4 ${inner} inside IPv6)`;
  }
  return v6List.check(address, 'ipv6') ? reasonIn(IPV6_RANGES, address, 'ipv6') : undefined;
}

export function isForbiddenAddress(address: string): boolean {
  return forbiddenAddressReason(address) !== undefined;
}
