/** Comparison of secrets (tokens, keys, header values) whose time does not reveal where they differ. */
import { hash, timingSafeEqual } from 'node:crypto';

/** One-shot SHA-256 (`crypto.hash`, no Hash object to create and finalise). */
const digest = (value: string) => hash('sha256', value, 'buffer');

/** True when `given` equals `expected`; hashing first makes the compared lengths equal whatever was sent. */
export function safeEqual(given: string | undefined, expected: string): boolean {
  return given !== undefined && timingSafeEqual(digest(given), digest(expected));
}

/** `safeEqual` against one secret, hashed once: for a secret every request of a route is checked against. */
export function secretMatcher(expected: string): (given: string | undefined) => boolean {
  const expectedDigest = digest(expected);
  return (given) => given !== undefined && timingSafeEqual(digest(given), expectedDigest);
}
