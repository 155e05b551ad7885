/** Comparison of secrets (tokens, keys, header values) whose time does not reveal where they differ. */
import { createHash, timingSafeEqual } from 'node:crypto';

const digest = (value: string) => createHash('sha256').update(value).digest();

/** True when `given` equals `expected`; hashing first makes the compared lengths equal whatever was sent. */
export function safeEqual(given: string | undefined, expected: string): boolean {
  return given !== undefined && timingSafeEqual(digest(given), digest(expected));
}
