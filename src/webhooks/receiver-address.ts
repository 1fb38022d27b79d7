import type { LookupAddress, LookupOptions } from 'node:dns';
import { lookup } from 'node:dns';
import { lookup as lookupAll } from 'node:dns/promises';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * IPv6 prefixes whose last 32 bits are the IPv4 address a packet ends up at: IPv4-mapped
 * (`::ffff:0:0/96`), IPv4-compatible (`::/96`, deprecated but still routed by some stacks),
 * IPv4-translated (`::ffff:0:0:0/96`, RFC 6145) and the NAT64 well-known prefix (`64:ff9b::/96`,
 * RFC 6052), which a NAT64 gateway turns into a connection to that IPv4 address.
 */
const IPV4_EMBEDDING_PREFIXES = ['::ffff:0:0', '::', '::ffff:0:0:0', '64:ff9b::'].map(
  (prefix) => [ipaddr.IPv6.parse(prefix), 96] as [ipaddr.IPv6, number],
);

/**
 * The address a connection to `address` ends up at: for the prefixes above, the IPv4 address in
 * its last 32 bits. Read from the bits, not the text: ipaddr.js parses `::127.0.0.1` as mapped
 * (`::ffff:7f00:1`) but `::7f00:1`, the same address as a URL writes it, as public unicast.
 */
function destinationOf(address: ipaddr.IPv4 | ipaddr.IPv6): ipaddr.IPv4 | ipaddr.IPv6 {
  if (address.kind() === 'ipv4') return address;
  const ipv6 = address as ipaddr.IPv6;
  if (!IPV4_EMBEDDING_PREFIXES.some((prefix) => ipv6.match(prefix))) return ipv6;
  return ipaddr.fromByteArray(ipv6.toByteArray().slice(12));
}

/**
 * Whether a receiver may be reached at `address`: only public unicast addresses, unless private
 * ones are allowed (TCMS_WEBHOOKS_ALLOW_PRIVATE). Loopback, link-local, private, unique-local,
 * carrier-grade NAT, multicast and reserved ranges all point inside somebody's network; an IPv6
 * address that carries an IPv4 address is judged by that IPv4 address.
 */
export function isReachableAddress(address: string, allowPrivate: boolean): boolean {
  if (allowPrivate) return true;
  if (!ipaddr.isValid(address)) return false;
  return destinationOf(ipaddr.parse(address)).range() === 'unicast';
}

/** Why a receiver's address is refused, as a delivery's `lastError` and a 422's message say it. */
export const refusedAddressMessage = (host: string, address: string) =>
  `${host} resolves to ${address}, a loopback, link-local or private address: webhooks are not sent there`;

export class RefusedAddressError extends Error {
  override readonly name = 'RefusedAddressError';
  readonly code = 'EREFUSEDADDRESS';
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `lookup` for http(s).request that refuses a host resolving to an address `isReachableAddress`
 * refuses: the check happens on the very addresses the connection then uses, so a name that
 * resolved to a public address when the webhook was saved cannot be pointed inward later.
 */
export function guardedLookup(allowPrivate: boolean) {
  return (host: string, options: LookupOptions, callback: LookupCallback) => {
    lookup(host, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, []);
      const refused = addresses.find((entry) => !isReachableAddress(entry.address, allowPrivate));
      if (refused) return callback(new RefusedAddressError(refusedAddressMessage(host, refused.address)), []);
      if (options.all) return callback(null, addresses);
      callback(null, addresses[0]!.address, addresses[0]!.family);
    });
  };
}

/** The host of `url` as an address when it is an IP literal, which connections use without any lookup. */
export function literalAddressOf(url: URL): string | undefined {
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  return isIP(host) ? host : undefined;
}

/**
 * The first address of `url`'s host that a receiver may not have (see `isReachableAddress`), or
 * undefined when all may be used. Rejects when the name does not resolve.
 */
export async function refusedAddressOf(url: URL, allowPrivate: boolean): Promise<string | undefined> {
  if (allowPrivate) return undefined;
  const literal = literalAddressOf(url);
  const addresses = literal ? [literal] : (await lookupAll(url.hostname, { all: true })).map((entry) => entry.address);
  return addresses.find((address) => !isReachableAddress(address, allowPrivate));
}
