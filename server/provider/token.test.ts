import { describe, expect, it } from 'vitest';
import { TokenCache, readJwtExpiry } from './token';

const MINUTE = 60_000;

/** A JWT-shaped token whose payload carries `exp` (seconds); header and signature are never read. */
const jwt = (claims: Record<string, unknown>) =>
  `eyJhbGciOiJIUzI1NiJ9.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.signature`;

/** A login that hands out opaque tokens token-1, token-2…, counting calls; the clock is a plain variable. */
function setup() {
  const clock = { now: 1_700_000_000_000 };
  let calls = 0;
  const login = () => {
    calls++;
    return Promise.resolve(`token-${calls}`);
  };
  const cache = new TokenCache(login, () => clock.now);
  return { cache, clock, calls: () => calls };
}

/** A promise settled from outside. */
function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (reason: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

describe('TokenCache', () => {
  it('logs in once for concurrent callers, and they all get that token', async () => {
    const pending = deferred<string>();
    let calls = 0;
    const cache = new TokenCache(() => {
      calls++;
      return pending.promise;
    });
    const waiting = Array.from({ length: 5 }, () => cache.get());
    expect(calls).toBe(1);
    pending.resolve('token-A');
    expect(await Promise.all(waiting)).toEqual(Array(5).fill('token-A'));
    expect(calls).toBe(1);
    expect(cache.logins).toBe(1);
  });

  it('reuses an opaque token for most of the assumed hour, then logs in again', async () => {
    const { cache, clock, calls } = setup();
    const start = clock.now;
    expect(await cache.get()).toBe('token-1');
    clock.now = start + 30 * MINUTE;
    expect(await cache.get()).toBe('token-1');
    clock.now = start + 50 * MINUTE;
    expect(await cache.get()).toBe('token-1');
    expect(calls()).toBe(1);
    // Past the assumed lifetime (under an hour, the provider's default).
    clock.now = start + 60 * MINUTE;
    expect(await cache.get()).toBe('token-2');
    expect(calls()).toBe(2);
    expect(cache.logins).toBe(2);
  });

  it("follows a JWT's exp: reused well before it, renewed shortly before it and after it", async () => {
    const clock = { now: 1_700_000_000_000 };
    const exp = (clock.now + 10 * MINUTE) / 1000;
    let calls = 0;
    const cache = new TokenCache(
      () => Promise.resolve(`${++calls}:${jwt({ exp, sub: 'partner' })}`),
      () => clock.now,
    );

    const first = await cache.get();
    clock.now = exp * 1000 - 5 * MINUTE;
    expect(await cache.get()).toBe(first);
    expect(calls).toBe(1);

    // Within the renewal margin (a few seconds before exp): a new login rather than a token about to expire.
    clock.now = exp * 1000 - 5_000;
    const second = await cache.get();
    expect(second).not.toBe(first);
    expect(calls).toBe(2);
  });

  it('logs in again after a JWT expired, once for concurrent callers', async () => {
    const clock = { now: 1_700_000_000_000 };
    let calls = 0;
    // Each token lives ten minutes from its login.
    const cache = new TokenCache(
      () => Promise.resolve(jwt({ exp: (clock.now + 10 * MINUTE) / 1000, n: ++calls })),
      () => clock.now,
    );
    const first = await cache.get();
    clock.now += 11 * MINUTE;
    const [a, b, c] = await Promise.all([cache.get(), cache.get(), cache.get()]);
    expect(a).not.toBe(first);
    expect([b, c]).toEqual([a, a]);
    expect(calls).toBe(2);
    // The new token is then reused.
    clock.now += 1 * MINUTE;
    expect(await cache.get()).toBe(a);
    expect(calls).toBe(2);
  });

  it('does not cache a failed login: every caller of it sees the failure, and the next call logs in again', async () => {
    const failing = deferred<string>();
    let calls = 0;
    const cache = new TokenCache(() => (++calls === 1 ? failing.promise : Promise.resolve('token-ok')));

    const first = cache.get();
    const second = cache.get();
    failing.reject(new Error('401 invalid credentials'));
    await expect(first).rejects.toThrow('401 invalid credentials');
    await expect(second).rejects.toThrow('401 invalid credentials');
    expect(calls).toBe(1);
    expect(cache.logins).toBe(0);

    expect(await cache.get()).toBe('token-ok');
    expect(calls).toBe(2);
    expect(await cache.get()).toBe('token-ok');
    expect(calls).toBe(2);
  });

  it('invalidate forgets the refused token but keeps a newer one', async () => {
    const { cache, calls } = setup();
    expect(await cache.get()).toBe('token-1');
    cache.invalidate('token-1');
    expect(await cache.get()).toBe('token-2');
    expect(calls()).toBe(2);
    // A late refusal of the old token must not throw away the new one.
    cache.invalidate('token-1');
    expect(await cache.get()).toBe('token-2');
    expect(calls()).toBe(2);
  });
});

describe('readJwtExpiry', () => {
  it('reads exp in milliseconds', () => {
    expect(readJwtExpiry(jwt({ exp: 1_700_000_600 }))).toBe(1_700_000_600_000);
  });

  it.each([
    ['an opaque token', 'opaque-access-token'],
    ['no exp claim', jwt({ sub: 'partner' })],
    ['exp as text', jwt({ exp: '1700000600' })],
    ['a payload that is no JSON', 'header.bm90IGpzb24.signature'],
    ['an empty payload', 'header..signature'],
  ])('undefined for %s', (_, token) => {
    expect(readJwtExpiry(token)).toBeUndefined();
  });
});
