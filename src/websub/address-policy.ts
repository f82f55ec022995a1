import { BlockList, isIP } from 'node:net';

/**
 * Addresses a callback may not reach unless private callbacks are allowed (contract §6): loopback,
 * private, shared, link-local, multicast, documentation, benchmarking and reserved ranges (IANA special-
 * purpose registries for IPv4 and IPv6). IPv4-mapped IPv6 addresses are judged by their IPv4 part.
 */
const blocked = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  blocked.addSubnet(net, prefix, 'ipv4');
}
for (const [net, prefix] of [
  // ::/96 holds ::, ::1 and the deprecated IPv4-compatible addresses (::7f00:1 is 127.0.0.1, RFC 4291
  // §2.5.5.1); ::ffff:0:0:0/96 the IPv4-translated ones (::ffff:0:7f00:1, RFC 2765).
  ['::', 96],
  ['::ffff:0:0:0', 96],
  ['64:ff9b::', 96],
  ['64:ff9b:1::', 48],
  ['100::', 64],
  ['2001::', 23],
  ['2001:db8::', 32],
  ['2002::', 16],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
] as const) {
  blocked.addSubnet(net, prefix, 'ipv6');
}

/** True for a globally reachable unicast address; false for anything else, including non-addresses. */
export function isPublicAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, '');
  const family = isIP(bare);
  if (family === 0) return false;
  return !blocked.check(bare, family === 4 ? 'ipv4' : 'ipv6');
}
