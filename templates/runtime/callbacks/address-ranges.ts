/**
 * Non-public address ranges (seed 001 section 2.2: "loopback, 10.0.0.0/8, 172.16.0.0/12,
 * 192.168.0.0/16, link-local 169.254.0.0/16, carrier NAT 100.64.0.0/10, multicast, reserved and
 * documentation ranges and the IPv6 equivalents"), as DATA fed to Node's built-in
 * `net.BlockList` — no hand-written bit masks.
 *
 * Sources: IANA IPv4 and IPv6 Special-Purpose Address Registries, IANA IPv6 Address Space
 * (only 2000::/3 is allocated as global unicast). Cross-checked in the tests against ipaddr.js
 * `range()`: every address it calls anything but 'unicast' is refused here, except IPv4-mapped
 * IPv6 (ipaddr: 'ipv4Mapped'), which is judged by its embedded IPv4 address.
 */
import { BlockList, isIP } from 'node:net';

export interface AddressRange {
  network: string;
  prefix: number;
  family: 'ipv4' | 'ipv6';
  name: string;
}

const v4 = (network: string, prefix: number, name: string): AddressRange => ({ network, prefix, family: 'ipv4', name });
const v6 = (network: string, prefix: number, name: string): AddressRange => ({ network, prefix, family: 'ipv6', name });

export const nonPublicRanges: readonly AddressRange[] = [
  v4('0.0.0.0', 8, '"this network" (RFC 791)'),
  v4('10.0.0.0', 8, 'private (RFC 1918)'),
  v4('100.64.0.0', 10, 'carrier-grade NAT (RFC 6598)'),
  v4('127.0.0.0', 8, 'loopback'),
  v4('169.254.0.0', 16, 'link-local'),
  v4('172.16.0.0', 12, 'private (RFC 1918)'),
  v4('192.0.0.0', 24, 'IETF protocol assignments'),
  v4('192.0.2.0', 24, 'documentation TEST-NET-1'),
  // AS112 and AMT are globally reachable in IANA's registry, but ipaddr.js calls them
  // non-unicast and no callback receiver lives there: refused (stricter than the seed).
  v4('192.31.196.0', 24, 'AS112-v4'),
  v4('192.52.193.0', 24, 'AMT'),
  v4('192.88.99.0', 24, 'deprecated 6to4 relay anycast'),
  v4('192.168.0.0', 16, 'private (RFC 1918)'),
  v4('192.175.48.0', 24, 'AS112 direct delegation'),
  v4('198.18.0.0', 15, 'benchmarking'),
  v4('198.51.100.0', 24, 'documentation TEST-NET-2'),
  v4('203.0.113.0', 24, 'documentation TEST-NET-3'),
  v4('224.0.0.0', 4, 'multicast'),
  v4('240.0.0.0', 4, 'reserved (class E)'),
  v4('255.255.255.255', 32, 'limited broadcast'),

  v6('::', 128, 'unspecified'),
  v6('::1', 128, 'loopback'),
  v6('64:ff9b::', 96, 'NAT64 well-known prefix (embeds IPv4)'),
  v6('64:ff9b:1::', 48, 'local-use NAT64'),
  v6('100::', 64, 'discard-only'),
  v6('2001::', 23, 'IETF protocol assignments (Teredo, benchmarking, ORCHID, …)'),
  v6('2001:db8::', 32, 'documentation'),
  v6('2002::', 16, '6to4 (embeds IPv4)'),
  v6('2620:4f:8000::', 48, 'AS112-v6'),
  v6('3fff::', 20, 'documentation (RFC 9637)'),
  v6('5f00::', 16, 'SRv6 SIDs'),
  v6('fc00::', 7, 'unique local'),
  v6('fe80::', 10, 'link-local'),
  v6('fec0::', 10, 'deprecated site-local'),
  v6('ff00::', 8, 'multicast'),
  // Everything outside 2000::/3 is not allocated as global unicast (IANA IPv6 Address Space).
  // ipaddr.js calls e.g. 4000::1 'unicast'; refused here (stricter).
  v6('::', 3, 'not global unicast (outside 2000::/3)'),
  v6('4000::', 2, 'not global unicast (outside 2000::/3)'),
  v6('8000::', 1, 'not global unicast (outside 2000::/3)'),
];

// One list per family: a BlockList also applies IPv6 rules to IPv4 addresses (as ::ffff:a.b.c.d)
// and IPv4 rules to IPv4-mapped IPv6, which would make ::/3 swallow every IPv4 address.
const lists: Partial<Record<'ipv4' | 'ipv6', BlockList>> = {};

function blocked(address: string, family: 'ipv4' | 'ipv6'): boolean {
  let list = lists[family];
  if (!list) {
    list = new BlockList();
    for (const r of nonPublicRanges) if (r.family === family) list.addSubnet(r.network, r.prefix, r.family);
    lists[family] = list;
  }
  return list.check(address, family);
}

/** Expands an IPv6 address to its 8 groups; undefined when it is not one. */
function ipv6Groups(address: string): number[] | undefined {
  if (isIP(address) !== 6) return undefined;
  let text = address;
  let tail: number[] = [];
  const dotted = /^(.*:)(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(2, 6).map(Number) as [number, number, number, number];
    tail = [(a << 8) | b, (c << 8) | d];
    text = dotted[1]!.endsWith('::') ? dotted[1]! : dotted[1]!.slice(0, -1);
  }
  const parse = (s: string): number[] => (s === '' ? [] : s.split(':').map((h) => parseInt(h, 16)));
  const gap = text.indexOf('::');
  const left = parse(gap >= 0 ? text.slice(0, gap) : text);
  const right = gap >= 0 ? parse(text.slice(gap + 2)) : [];
  const fill = gap >= 0 ? 8 - tail.length - left.length - right.length : 0;
  return [...left, ...new Array<number>(Math.max(0, fill)).fill(0), ...right, ...tail];
}

/** The embedded IPv4 of an IPv4-mapped IPv6 address (::ffff:a.b.c.d), else undefined. */
export function mappedIPv4(address: string): string | undefined {
  const g = ipv6Groups(address);
  if (g?.length !== 8) return undefined;
  if (g[0] || g[1] || g[2] || g[3] || g[4] || g[5] !== 0xffff) return undefined;
  const hi = g[6]!;
  const lo = g[7]!;
  return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
}

/**
 * True when `address` (an IPv4 or IPv6 literal, optionally with a %zone) is public.
 * Anything that is not an IP literal is not public.
 */
export function isPublicAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  const family = isIP(bare);
  if (family === 4) return !blocked(bare, 'ipv4');
  if (family !== 6) return false;
  const embedded = mappedIPv4(bare);
  if (embedded !== undefined) return !blocked(embedded, 'ipv4');
  return !blocked(bare, 'ipv6');
}

/** The first range of `nonPublicRanges` that holds `address` (for messages), else undefined. */
export function nonPublicRangeOf(address: string): AddressRange | undefined {
  const bare = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  const embedded = isIP(bare) === 6 ? mappedIPv4(bare) : undefined;
  const target = embedded ?? bare;
  const family = isIP(target) === 4 ? 'ipv4' : 'ipv6';
  for (const r of nonPublicRanges) {
    if (r.family !== family) continue;
    const one = new BlockList();
    one.addSubnet(r.network, r.prefix, r.family);
    if (one.check(target, family)) return r;
  }
  return undefined;
}
