import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { safeEqual, secretMatcher } from './secrets';

describe('secret comparison', () => {
  it('says equal exactly when the strings are equal, the matcher as safeEqual does', () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), fc.boolean(), (expected, other, same) => {
        const given = same ? expected : other;
        const equal = given === expected;
        expect(safeEqual(given, expected)).toBe(equal);
        expect(secretMatcher(expected)(given)).toBe(equal);
      }),
    );
  });

  it('refuses a missing value, and tells apart strings that differ in length or in one character', () => {
    const matches = secretMatcher('s3cr3t');
    expect(matches(undefined)).toBe(false);
    expect(safeEqual(undefined, 's3cr3t')).toBe(false);
    for (const near of ['', 's3cr3', 's3cr3t ', 'S3cr3t', 's3cr3u']) expect(matches(near)).toBe(false);
    expect(matches('s3cr3t')).toBe(true);
  });
});
