/**
 * Password hashing (server/accounts/passwords.ts): scrypt with a per-hash salt, kept as `scrypt$N$r$p$salt$hash`,
 * checked in constant time; the length rule counts characters; a stored hash that is not one we could have written
 * (another scheme, parameters out of bounds, a cut hash) matches no password.
 */
import { describe, expect, it } from 'vitest';
import { hashPassword, longEnough, MIN_PASSWORD_LENGTH, verifyNothing, verifyPassword } from './passwords';

const PASSWORD = 'correct horse battery staple';

describe('password hashes', () => {
  it('round-trips: the password matches its hash, another password does not', async () => {
    const stored = await hashPassword(PASSWORD);
    expect(await verifyPassword(PASSWORD, stored)).toBe(true);
    expect(await verifyPassword(`${PASSWORD}!`, stored)).toBe(false);
    expect(await verifyPassword(PASSWORD.toUpperCase(), stored)).toBe(false);
    expect(await verifyPassword('', stored)).toBe(false);
  });

  it('is self-describing (scrypt, N=2^15, r=8, p=1, a 16-byte salt, a 64-byte key) and salted per hash', async () => {
    const [first, second] = await Promise.all([hashPassword(PASSWORD), hashPassword(PASSWORD)]);
    const [scheme, n, r, p, salt, key] = first.split('$');
    expect([scheme, n, r, p]).toEqual(['scrypt', '32768', '8', '1']);
    expect(Buffer.from(salt!, 'base64')).toHaveLength(16);
    expect(Buffer.from(key!, 'base64')).toHaveLength(64);
    expect(second).not.toBe(first);
    expect(first).not.toContain(PASSWORD);
    expect(await verifyPassword(PASSWORD, second)).toBe(true);
  });

  it('matches nothing against a malformed or out-of-bounds stored hash', async () => {
    const [scheme, n, r, p, salt, key] = (await hashPassword(PASSWORD)).split('$');
    const broken = [
      '',
      'plain',
      ['bcrypt', n, r, p, salt, key].join('$'),
      [scheme, '1000', r, p, salt, key].join('$'), // N not a power of two
      [scheme, String(2 ** 24), r, p, salt, key].join('$'), // N too large to spend on
      [scheme, n, '0', p, salt, key].join('$'),
      [scheme, n, r, p, salt, ''].join('$'),
      [scheme, n, r, p, salt, key, 'extra'].join('$'),
    ];
    for (const stored of broken) expect(await verifyPassword(PASSWORD, stored)).toBe(false);
  });

  it('keeps the hash of a password changed by one bit from matching (the key is compared whole)', async () => {
    const stored = await hashPassword(PASSWORD);
    const parts = stored.split('$');
    const key = Buffer.from(parts[5]!, 'base64');
    key[63] = key[63]! ^ 1;
    parts[5] = key.toString('base64');
    expect(await verifyPassword(PASSWORD, parts.join('$'))).toBe(false);
  });

  it('checks an unknown user against a dummy hash, which nothing matches', async () => {
    expect(await verifyNothing(PASSWORD)).toBe(false);
  });

  it('counts the length rule in characters: 12 at least', () => {
    expect(MIN_PASSWORD_LENGTH).toBe(12);
    expect(longEnough('a'.repeat(11))).toBe(false);
    expect(longEnough('a'.repeat(12))).toBe(true);
    // Six emoji are twelve UTF-16 units but six characters.
    expect(longEnough('🔑'.repeat(6))).toBe(false);
    expect(longEnough('🔑'.repeat(12))).toBe(true);
  });
});
