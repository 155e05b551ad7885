/**
 * Password hashing for the back office's users: Node's `scrypt` (memory-hard), N=2^15, r=8, p=1 (32 MiB and tens of
 * milliseconds per hash), a random 16-byte salt per hash and a 64-byte key, kept as one self-describing string
 * `scrypt$N$r$p$salt$hash` (salt and hash in base64), so the cost can be raised later without breaking stored hashes.
 * A password is normalised to Unicode NFC first, so the same one typed on another keyboard or system matches.
 * Verified in constant time (`timingSafeEqual`). Neither a password nor a hash is ever logged or answered.
 */
import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/** The shortest password accepted, in characters. */
export const MIN_PASSWORD_LENGTH = 12;
/** The longest password read: hashing is costly enough without megabytes of input. */
export const MAX_PASSWORD_LENGTH = 1024;

const COST = { N: 2 ** 15, r: 8, p: 1 };
const SALT_BYTES = 16;
const KEY_BYTES = 64;
/** The bounds a stored hash's parameters must keep, so a corrupt row cannot make a check take minutes or gigabytes. */
const LIMITS = { N: 2 ** 20, r: 32, p: 16 };

/** Whether `password` is long enough, counted in characters (code points), not UTF-16 units. */
export const longEnough = (password: string) => [...password].length >= MIN_PASSWORD_LENGTH;

function derive(password: string, salt: Buffer, keyBytes: number, { N, r, p }: typeof COST): Promise<Buffer> {
  // scrypt needs 128·N·r bytes; Node's default ceiling (32 MiB) is exactly that for our cost, so give it room.
  const options: ScryptOptions = { N, r, p, maxmem: 256 * N * r };
  return new Promise((resolve, reject) =>
    scrypt(password.normalize('NFC'), salt, keyBytes, options, (error, key) => (error ? reject(error) : resolve(key))),
  );
}

/** The stored form of `password`: `scrypt$N$r$p$salt$hash`. Does not check the length rule (see `longEnough`). */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const key = await derive(password, salt, KEY_BYTES, COST);
  return ['scrypt', COST.N, COST.r, COST.p, salt.toString('base64'), key.toString('base64')].join('$');
}

/** The parts of a stored hash, or undefined when it is not one we could have written. */
function parse(stored: string) {
  const [scheme, n, r, p, salt, hash, ...rest] = stored.split('$');
  if (scheme !== 'scrypt' || rest.length > 0 || !salt || !hash) return undefined;
  const cost = { N: Number(n), r: Number(r), p: Number(p) };
  const powerOfTwo = Number.isInteger(cost.N) && cost.N > 1 && (cost.N & (cost.N - 1)) === 0;
  const inBounds = cost.N <= LIMITS.N && [cost.r, cost.p].every((v) => Number.isInteger(v) && v >= 1) && cost.r <= LIMITS.r;
  if (!powerOfTwo || !inBounds || cost.p > LIMITS.p) return undefined;
  const key = Buffer.from(hash, 'base64');
  return key.length >= 16 ? { cost, salt: Buffer.from(salt, 'base64'), key } : undefined;
}

/** True when `password` is the one `stored` was made from; false for any other, and for a malformed `stored`. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parts = parse(stored);
  if (!parts) return false;
  const key = await derive(password, parts.salt, parts.key.length, parts.cost);
  return timingSafeEqual(key, parts.key);
}

let dummy: Promise<string> | undefined;
/** A hash of a random password nobody knows, made once per process. */
const dummyHash = () => (dummy ??= hashPassword(randomBytes(32).toString('base64')));

/** Makes the dummy hash ahead of the first sign-in, so that one takes no longer than the others. */
export function prepareDummyHash(): void {
  dummyHash().catch(() => (dummy = undefined));
}

/**
 * Spends the time of one check against a hash no password matches, and resolves false: what a sign-in does for an
 * e-mail that has no user, so that answer takes as long as a wrong password's.
 */
export async function verifyNothing(password: string): Promise<false> {
  await verifyPassword(password, await dummyHash());
  return false;
}
