/**
 * Who a request is from, for the per-client limits and the audit trail: the socket's peer, or the address the trusted
 * proxies in front of it name (`TRUST_PROXY`; see `clientAddress` of server/lib/limits.ts).
 */
import { getConnInfo } from '@hono/node-server/conninfo';
import type { Context } from 'hono';
import { clientAddress, clientKey } from '../lib/limits';

/** The peer of the socket (@hono/node-server), or undefined outside Node (`app.request` in tests). */
function peerAddress(c: Context): string | undefined {
  try {
    return getConnInfo(c).remote.address;
  } catch {
    return undefined;
  }
}

/** The key the limits count this request under. */
export function requestClient(c: Context, trustProxy: number): string {
  return clientKey(clientAddress(peerAddress(c), c.req.header('x-forwarded-for'), trustProxy));
}
