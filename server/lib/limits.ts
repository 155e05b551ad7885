/**
 * Per-client limits, free of HTTP: who a client is (its address, IPv6 grouped by /64), how many long-lived streams
 * it and everyone hold, and a token bucket per client for costly calls. The Hono middleware that applies them lives
 * in `server/bff/guards.ts`.
 */
import { readFileSync } from 'node:fs';
import { isIP } from 'node:net';

/**
 * The key a client is counted under. IPv4 (also IPv4-mapped IPv6) as is; IPv6 by its /64, since one subscriber
 * usually holds a whole /64 and could otherwise take a fresh address for every request.
 */
export function clientKey(address: string | undefined): string {
  if (!address) return 'unknown';
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return mapped[1]!;
  if (isIP(address) !== 6) return address;
  const [head = '', tail = ''] = address.split('::', 2);
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = address.includes('::') ? [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right] : left;
  return `${groups
    .slice(0, 4)
    .map((g) => parseInt(g || '0', 16).toString(16))
    .join(':')}::/64`;
}

/**
 * The client's address as the last `trustedHops` proxies saw it: with 0 the socket's peer, with N the N-th entry
 * from the right of `X-Forwarded-For` (each proxy appends the address it received the request from). An entry that
 * is not an IP address, or a header shorter than N, falls back to the leftmost usable entry, then to the socket.
 */
export function clientAddress(
  socketAddress: string | undefined,
  forwardedFor: string | undefined,
  trustedHops: number,
): string | undefined {
  if (trustedHops <= 0 || !forwardedFor) return socketAddress;
  const entries = forwardedFor
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  const chosen = entries[entries.length - trustedHops] ?? entries[0];
  return chosen && isIP(chosen) ? chosen : socketAddress;
}

export type StreamRefusal = 'client' | 'total';

/** Counts open streams per client and in total; `acquire` hands out a release that is safe to call more than once. */
export function createStreamLimiter({ perClient, total }: { perClient: number; total: number }) {
  const open = new Map<string, number>();
  let all = 0;
  return {
    acquire(key: string): { release: () => void } | { refused: StreamRefusal } {
      const mine = open.get(key) ?? 0;
      if (mine >= perClient) return { refused: 'client' };
      if (all >= total) return { refused: 'total' };
      open.set(key, mine + 1);
      all++;
      let released = false;
      return {
        release() {
          if (released) return;
          released = true;
          all--;
          const left = (open.get(key) ?? 1) - 1;
          if (left > 0) open.set(key, left);
          else open.delete(key);
        },
      };
    },
    get total() {
      return all;
    },
    count: (key: string) => open.get(key) ?? 0,
  };
}

export type StreamLimiter = ReturnType<typeof createStreamLimiter>;

/**
 * A token bucket per client: `perMinute` calls in a burst, then one every 60/perMinute seconds. A bucket that has
 * refilled is the same as none, so those are dropped when the map grows; memory stays bounded by recent clients.
 */
export function createRateLimiter({ perMinute, now = () => performance.now(), maxClients = 50_000 }: RateLimiterOptions) {
  const buckets = new Map<string, { tokens: number; at: number }>();
  const perMs = perMinute / 60_000;
  const refilled = (bucket: { tokens: number; at: number }, t: number) => Math.min(perMinute, bucket.tokens + (t - bucket.at) * perMs);

  const prune = (t: number) => {
    for (const [key, bucket] of buckets) if (refilled(bucket, t) >= perMinute) buckets.delete(key);
    // Still too many clients mid-burst: forget the oldest (they start again with a full bucket, never worse).
    for (const key of buckets.keys()) {
      if (buckets.size <= maxClients) break;
      buckets.delete(key);
    }
  };

  return {
    /** Takes one token; without one, how long until the next (milliseconds). */
    take(key: string): { ok: true } | { ok: false; retryAfterMs: number } {
      const t = now();
      const bucket = buckets.get(key);
      const tokens = bucket ? refilled(bucket, t) : perMinute;
      if (tokens < 1) {
        bucket!.tokens = tokens;
        bucket!.at = t;
        return { ok: false, retryAfterMs: Math.ceil((1 - tokens) / perMs) };
      }
      if (!bucket && buckets.size >= maxClients) prune(t);
      buckets.delete(key);
      buckets.set(key, { tokens: tokens - 1, at: t });
      return { ok: true };
    },
    get size() {
      return buckets.size;
    },
  };
}

export interface RateLimiterOptions {
  perMinute: number;
  /** Milliseconds from a monotonic source; injectable for tests. */
  now?: () => number;
  /** Clients remembered at once before refilled buckets are dropped. */
  maxClients?: number;
}

export type RateLimiter = ReturnType<typeof createRateLimiter>;

/** The process's soft limit of open files (Linux `/proc/self/limits`), or undefined where it can't be read. */
export function openFileLimit(): number | undefined {
  try {
    const line = readFileSync('/proc/self/limits', 'utf8')
      .split('\n')
      .find((l) => l.startsWith('Max open files'));
    const soft = line ? Number(line.slice('Max open files'.length).trim().split(/\s+/)[0]) : Number.NaN;
    return Number.isSafeInteger(soft) && soft > 0 ? soft : undefined;
  } catch {
    return undefined;
  }
}
