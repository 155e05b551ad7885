import { createHmac } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { signOrderToken, verifyOrderToken } from './order-token';

const KEY = 'orders-token-shared-with-the-merchant';
const NOW = new Date('2026-03-01T12:00:00.000Z');
const IN_AN_HOUR = new Date('2026-03-01T13:00:00.000Z');
const EXP = String(IN_AN_HOUR.getTime() / 1000);

describe('signOrderToken', () => {
  it('writes <expiresAtUnixSeconds>.<base64url(HMAC-SHA256(key, "<orderId>.<expiresAtUnixSeconds>"))>', () => {
    const expected = createHmac('sha256', KEY).update(`A-1001.${EXP}`).digest('base64url');
    expect(signOrderToken(KEY, 'A-1001', IN_AN_HOUR)).toBe(`${EXP}.${expected}`);
  });

  it('rounds the expiry down to the second', () => {
    expect(signOrderToken(KEY, 'A-1001', new Date(IN_AN_HOUR.getTime() + 999))).toBe(signOrderToken(KEY, 'A-1001', IN_AN_HOUR));
  });

  it('refuses to sign without a key or with an invalid date', () => {
    expect(() => signOrderToken('', 'A-1001', IN_AN_HOUR)).toThrow(/key/);
    expect(() => signOrderToken(KEY, 'A-1001', new Date(Number.NaN))).toThrow(/expiry/);
    expect(() => signOrderToken(KEY, 'A-1001', new Date(0))).toThrow(/expiry/);
  });
});

describe('verifyOrderToken', () => {
  const token = signOrderToken(KEY, 'A-1001', IN_AN_HOUR);

  it('accepts the token of this order before it expires', () => {
    expect(verifyOrderToken(KEY, 'A-1001', token, NOW)).toEqual({ ok: true });
    expect(verifyOrderToken(KEY, 'A-1001', token, new Date(IN_AN_HOUR.getTime() - 1))).toEqual({ ok: true });
  });

  it('says expired from the expiry second on', () => {
    expect(verifyOrderToken(KEY, 'A-1001', token, IN_AN_HOUR)).toEqual({ ok: false, reason: 'expired' });
    expect(verifyOrderToken(KEY, 'A-1001', token, new Date('2027-01-01'))).toEqual({ ok: false, reason: 'expired' });
    // An unusable clock fails closed.
    expect(verifyOrderToken(KEY, 'A-1001', token, new Date(Number.NaN))).toEqual({ ok: false, reason: 'expired' });
  });

  it('says missing for nothing at all', () => {
    for (const nothing of [undefined, null, '']) {
      expect(verifyOrderToken(KEY, 'A-1001', nothing, NOW)).toEqual({ ok: false, reason: 'missing' });
    }
  });

  it('refuses the token of another order, or one signed with another key', () => {
    expect(verifyOrderToken(KEY, 'A-1002', token, NOW)).toEqual({ ok: false, reason: 'invalid' });
    expect(verifyOrderToken(KEY, 'a-1001', token, NOW)).toEqual({ ok: false, reason: 'invalid' });
    expect(verifyOrderToken('another-key-entirely-123', 'A-1001', token, NOW)).toEqual({ ok: false, reason: 'invalid' });
    expect(verifyOrderToken('', 'A-1001', token, NOW)).toEqual({ ok: false, reason: 'invalid' });
  });

  it('refuses a token whose expiry was pushed later, or whose signature was touched', () => {
    const [, sig] = token.split('.');
    expect(verifyOrderToken(KEY, 'A-1001', `${Number(EXP) + 3600}.${sig}`, NOW)).toEqual({ ok: false, reason: 'invalid' });
    const flipped = `${EXP}.${sig!.slice(0, -1)}${sig!.endsWith('A') ? 'B' : 'A'}`;
    expect(verifyOrderToken(KEY, 'A-1001', flipped, NOW)).toEqual({ ok: false, reason: 'invalid' });
  });

  it('says invalid, not expired, for a forged token whose expiry has passed', () => {
    const forged = `1000000000.${'A'.repeat(43)}`;
    expect(verifyOrderToken(KEY, 'A-1001', forged, NOW)).toEqual({ ok: false, reason: 'invalid' });
  });

  it('does not let the order id and the expiry trade characters across the dot', () => {
    // "A.1" with expiry E signs the text "A.1.E"; order "A" would need the expiry "1.E", which is not digits.
    const forOrderWithDot = signOrderToken(KEY, 'A.1', IN_AN_HOUR);
    const [exp, sig] = forOrderWithDot.split('.');
    expect(verifyOrderToken(KEY, 'A', `1.${exp}.${sig}`, NOW)).toEqual({ ok: false, reason: 'invalid' });
  });

  it.each([
    ['only a signature', 'c2lnbmF0dXJl'],
    ['no signature', `${EXP}.`],
    ['no expiry', `.${'A'.repeat(43)}`],
    ['an expiry with a sign', `+${EXP}.${'A'.repeat(43)}`],
    ['an expiry with leading zeros', `0${EXP}.${'A'.repeat(43)}`],
    ['a decimal expiry', `${EXP}.5.${'A'.repeat(43)}`],
    ['a padded signature', `${EXP}.${'A'.repeat(43)}=`],
    ['standard base64', `${EXP}.${'+/'.repeat(21)}A`],
    ['a huge string', 'x'.repeat(100_000)],
    ['spaces', `  ${token}  `],
    ['unicode', `${EXP}.${'é'.repeat(43)}`],
  ])('says invalid for %s', (_name, garbage) => {
    expect(verifyOrderToken(KEY, 'A-1001', garbage, NOW)).toEqual({ ok: false, reason: 'invalid' });
  });

  it.each([42, true, {}, [], ['x'], { toString: () => token }])('says invalid for the non-string %j', (garbage) => {
    expect(verifyOrderToken(KEY, 'A-1001', garbage, NOW)).toEqual({ ok: false, reason: 'invalid' });
  });

  it('never throws and never accepts an arbitrary string', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), fc.string({ minLength: 1, maxLength: 64 }), (garbage, orderId) => {
        const check = verifyOrderToken(KEY, orderId, garbage, NOW);
        expect(check.ok).toBe(false);
      }),
    );
  });

  it('accepts what it signs for any order id', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1, maxLength: 64 }), (orderId) => {
        expect(verifyOrderToken(KEY, orderId, signOrderToken(KEY, orderId, IN_AN_HOUR), NOW)).toEqual({ ok: true });
      }),
    );
  });
});
