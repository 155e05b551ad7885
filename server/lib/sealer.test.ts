import { describe, expect, it } from 'vitest';
import { createSealer, keyIdOf, newSecretsKey, parseSecretsKey } from './sealer';

const key = () => parseSecretsKey(newSecretsKey());

describe('the sealer (AES-256-GCM, key id beside each value)', () => {
  it('opens what it sealed, and the sealed text holds neither the secret nor the key', () => {
    const k = key();
    const sealer = createSealer(k);
    const sealed = sealer.seal('whsec_very-secret', 'we_1');
    expect(sealed).toMatch(/^sealed:v1:[0-9a-f]{16}:/);
    expect(sealed).not.toContain('very-secret');
    expect(sealed).not.toContain(k.toString('base64url'));
    expect(sealer.keyIdOf(sealed)).toBe(keyIdOf(k));
    expect(sealer.open(sealed, 'we_1')).toBe('whsec_very-secret');
    // A fresh IV each time: the same secret seals differently.
    expect(sealer.seal('whsec_very-secret', 'we_1')).not.toBe(sealed);
  });

  it('refuses a value moved to another context, changed, or under a key it does not hold', () => {
    const sealer = createSealer(key());
    const sealed = sealer.seal('s3cret', 'we_1');
    expect(() => sealer.open(sealed, 'we_2')).toThrow();
    const parts = sealed.split(':');
    const body = Buffer.from(parts[4]!, 'base64url');
    body[0] = body[0]! ^ 1;
    expect(() => sealer.open([...parts.slice(0, 4), body.toString('base64url')].join(':'), 'we_1')).toThrow();
    expect(() => createSealer(key()).open(sealed, 'we_1')).toThrow(/no key/);
    expect(() => sealer.open('plain text')).toThrow(/no key/);
    expect(sealer.keyIdOf('plain text')).toBeUndefined();
  });

  it('opens values under an older key while sealing new ones under the current one (a rotation)', () => {
    const old = key();
    const sealedOld = createSealer(old).seal('kept');
    const rotated = createSealer(key(), [old]);
    expect(rotated.open(sealedOld)).toBe('kept');
    expect(rotated.keyIdOf(rotated.seal('new'))).toBe(rotated.keyId);
    expect(rotated.keyId).not.toBe(keyIdOf(old));
  });

  it('reads SECRETS_KEY as 64 hex digits or base64url of 32 bytes, and refuses any other length', () => {
    const hex = 'ab'.repeat(32);
    expect(parseSecretsKey(hex)).toEqual(Buffer.from(hex, 'hex'));
    expect(parseSecretsKey(Buffer.from(hex, 'hex').toString('base64url'))).toEqual(Buffer.from(hex, 'hex'));
    expect(() => parseSecretsKey('short')).toThrow(/32 bytes/);
  });
});
