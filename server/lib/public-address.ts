/**
 * Which IP addresses are on the public internet: what a server may connect to on a stranger's say-so (a webhook
 * endpoint's URL) without reaching into its own network. IPv4 is public unless it is in one of the special-purpose
 * blocks of IANA's registry (RFC 6890 and its updates); IPv6 is public only inside the global unicast block
 * 2000::/3, and not in its special-purpose parts. An IPv4-mapped IPv6 address (`::ffff:10.0.0.1`, `::ffff:a00:1`) is
 * judged as the IPv4 address it carries. Anything else, including the mapped address's relatives in ::/8 and the
 * NAT64 prefix 64:ff9b::/96, is outside 2000::/3, so not public.
 */
import { BlockList, isIP } from 'node:net';

/** [network, prefix length]: the IPv4 blocks that are not the public internet. */
const SPECIAL_IPV4: readonly [string, number][] = [
  ['0.0.0.0', 8], // "this network"
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local, where cloud metadata services answer (169.254.169.254)
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.88.99.0', 24], // 6to4 relay anycast
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation
  ['203.0.113.0', 24], // documentation
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, and the broadcast address
];

/** The special-purpose parts of 2000::/3 (the rest of IPv6 is outside the global unicast block altogether). */
const SPECIAL_IPV6: readonly [string, number][] = [
  ['2001::', 23], // IETF protocol assignments (Teredo among them)
  ['2001:db8::', 32], // documentation
  ['2002::', 16], // 6to4: carries an IPv4 address, private ones too
  ['3fff::', 20], // documentation
];

const notPublic = new BlockList();
for (const [network, prefix] of SPECIAL_IPV4) notPublic.addSubnet(network, prefix, 'ipv4');
for (const [network, prefix] of SPECIAL_IPV6) notPublic.addSubnet(network, prefix, 'ipv6');
const globalUnicast = new BlockList();
globalUnicast.addSubnet('2000::', 3, 'ipv6');

const loopback = new BlockList();
loopback.addSubnet('127.0.0.0', 8, 'ipv4');
loopback.addAddress('::1', 'ipv6');

/** `::ffff:a.b.c.d` (or its hexadecimal spelling) as the IPv4 address it carries, or undefined. */
function mappedIpv4(address: string): string | undefined {
  const match = /^::ffff:(?:(\d+\.\d+\.\d+\.\d+)|([0-9a-f]{1,4}):([0-9a-f]{1,4}))$/i.exec(address);
  if (!match) return undefined;
  if (match[1]) return match[1];
  const [high, low] = [parseInt(match[2]!, 16), parseInt(match[3]!, 16)];
  return [high >> 8, high & 255, low >> 8, low & 255].join('.');
}

/** True when `address` (an IP literal, without brackets) is on the public internet. */
export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return !notPublic.check(address, 'ipv4');
  if (family !== 6) return false;
  const carried = mappedIpv4(address);
  if (carried !== undefined) return !notPublic.check(carried, 'ipv4');
  return globalUnicast.check(address, 'ipv6') && !notPublic.check(address, 'ipv6');
}

/** True when `address` (an IP literal, without brackets) is this machine's loopback: 127/8, ::1, or 127/8 mapped. */
export function isLoopbackAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return false;
  const carried = family === 6 ? mappedIpv4(address) : undefined;
  return carried !== undefined ? loopback.check(carried, 'ipv4') : loopback.check(address, family === 4 ? 'ipv4' : 'ipv6');
}
