/**
 * Where a stored webhook endpoint may point: https to a public address (../lib/public-address.ts), never into the
 * server's own network (loopback, private, link-local, cloud metadata, reserved). With the emulator only (`npm
 * start`, the demo, tests that ask), http and https to the loopback address are allowed too, for a receiver on the
 * same machine. The environment's endpoint (MERCHANT_WEBHOOK_URL) is the operator's and is not checked.
 *
 * Checked twice: when the endpoint is added (`endpointUrlAllowed`: as written, then every address its name has), and
 * at every connection (`refusedAsWritten` before it, and `guardedLookup` as the connection's `lookup`), so the
 * address connected to is the one checked, whatever the name resolves to by then (DNS rebinding).
 */
import { promises as dns, type LookupAddress } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import { isLoopbackAddress, isPublicAddress } from '../lib/public-address';

/** Every address of a name, as `dns.lookup` with `all` gives them. */
export type Resolve = (hostname: string) => Promise<LookupAddress[]>;

export interface EndpointAddressPolicy {
  /** With the emulator only: http and https to the loopback address are allowed too. */
  loopback: boolean;
  /** How names are resolved: `dns.lookup` unless told (tests). */
  resolve?: Resolve;
}

/** Where a real provider runs the product (`npm run serve`): https to public addresses only. */
export const PUBLIC_ENDPOINTS: EndpointAddressPolicy = { loopback: false };

/** A connection refused before it was made: the address is not one an endpoint may have. */
export class AddressNotAllowed extends Error {
  override name = 'AddressNotAllowed';
}

/** How long an addition waits for a name to resolve; past it, the connections' check alone stands. */
const RESOLVE_WAIT_MS = 3_000;

const systemResolve: Resolve = (hostname) => dns.lookup(hostname, { all: true, verbatim: true });

/** The host of `url` as an IP literal has it (no brackets) or as a name. */
const hostOf = (url: URL) => (url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname);

/** `localhost` and its subdomains are this machine whatever a resolver says (RFC 6761). */
const isLocalName = (host: string) => /(^|\.)localhost\.?$/i.test(host);

/** Whether a connection to `address` over `protocol` is allowed. */
function addressAllowed(address: string, protocol: string, policy: EndpointAddressPolicy): boolean {
  if (policy.loopback && isLoopbackAddress(address)) return true;
  return protocol === 'https:' && isPublicAddress(address);
}

/** True when `url` is refused as written: its scheme, an IP literal's address, or a local name. */
export function refusedAsWritten(url: URL, policy: EndpointAddressPolicy): boolean {
  if (url.protocol !== 'https:' && !(policy.loopback && url.protocol === 'http:')) return true;
  const host = hostOf(url);
  if (isIP(host)) return !addressAllowed(host, url.protocol, policy);
  return isLocalName(host) && !policy.loopback;
}

/**
 * True when `url` may be a stored endpoint's: allowed as written, and every address its name has now allowed too. An
 * https name that does not resolve yet (or not within a few seconds) is let through, as every connection checks it
 * again; an http one is not, as only a name on the loopback address may be http.
 */
export async function endpointUrlAllowed(url: string, policy: EndpointAddressPolicy): Promise<boolean> {
  const parsed = new URL(url);
  if (refusedAsWritten(parsed, policy)) return false;
  const host = hostOf(parsed);
  if (isIP(host)) return true;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const waited = new Promise<undefined>((resolve) => (timer = setTimeout(resolve, RESOLVE_WAIT_MS, undefined)));
  const addresses = await Promise.race([(policy.resolve ?? systemResolve)(host).catch(() => undefined), waited]);
  clearTimeout(timer);
  if (!addresses?.length) return parsed.protocol === 'https:';
  return addresses.every(({ address }) => addressAllowed(address, parsed.protocol, policy));
}

/**
 * The `lookup` of a connection to a stored endpoint over `protocol`: resolves the name and fails with
 * `AddressNotAllowed` unless every address it has is allowed (one bad address refuses them all: a name that mixes
 * public and private answers is not trusted with either).
 */
export function guardedLookup(protocol: string, policy: EndpointAddressPolicy): LookupFunction {
  const resolve = policy.resolve ?? systemResolve;
  return (hostname, options, callback) => {
    resolve(hostname).then(
      (all) => {
        const addresses = options.family === 4 || options.family === 6 ? all.filter((a) => a.family === options.family) : all;
        if (addresses.length === 0) return callback(Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }), '');
        if (!addresses.every(({ address }) => addressAllowed(address, protocol, policy))) {
          return callback(new AddressNotAllowed(`${hostname} resolves to an address a webhook endpoint may not have`), '');
        }
        if (options.all) callback(null, addresses);
        else callback(null, addresses[0]!.address, addresses[0]!.family);
      },
      (error: NodeJS.ErrnoException) => callback(error, ''),
    );
  };
}
