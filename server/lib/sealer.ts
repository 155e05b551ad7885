/**
 * Secrets sealed at rest (webhook endpoint secrets, TOTP seeds): AES-256-GCM under a 256-bit key, the key's id beside
 * each value so a value names the key that opens it and a rotation can tell what is still under an old one. A sealed
 * value is text: `sealed:v1:<key id>:<iv>:<ciphertext and tag>` (base64url parts). `context` (for instance the
 * endpoint's id) is bound in as additional data: a value copied onto another row does not open there.
 */
import { createCipheriv, createDecipheriv, hash, randomBytes } from 'node:crypto';

export interface Sealer {
  /** The id of the key new values are sealed under. */
  readonly keyId: string;
  seal(plain: string, context?: string): string;
  /** The plain text; throws when no key held opens it or it was changed. */
  open(sealed: string, context?: string): string;
  /** The id of the key `value` is sealed under, or undefined when it is not a sealed value. */
  keyIdOf(value: string): string | undefined;
}

const PREFIX = 'sealed:v1:';
const KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** A key's id: the first 16 hex digits of its SHA-256 (names the key, reveals nothing of it). */
export const keyIdOf = (key: Buffer): string => hash('sha256', key, 'hex').slice(0, 16);

/** `SECRETS_KEY` as bytes: 32 bytes written as 64 hex digits or as base64/base64url; anything else throws. */
export function parseSecretsKey(text: string): Buffer {
  const trimmed = text.trim();
  const key = /^[0-9a-fA-F]{64}$/.test(trimmed) ? Buffer.from(trimmed, 'hex') : Buffer.from(trimmed, 'base64url');
  if (key.length !== KEY_BYTES) throw new Error('SECRETS_KEY must be 32 bytes, as 64 hex digits or base64url');
  return key;
}

/** A new random key, as `SECRETS_KEY` is written (base64url). */
export const newSecretsKey = (): string => randomBytes(KEY_BYTES).toString('base64url');

/** Seals under `current`; opens values sealed under `current` or any of `older` (a rotation in progress). */
export function createSealer(current: Buffer, older: readonly Buffer[] = []): Sealer {
  const keys = new Map([current, ...older].map((key) => [keyIdOf(key), key]));
  const currentId = keyIdOf(current);
  const aad = (context: string | undefined) => Buffer.from(context ?? '', 'utf8');
  return {
    keyId: currentId,
    seal(plain, context) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', current, iv).setAAD(aad(context));
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final(), cipher.getAuthTag()]);
      return `${PREFIX}${currentId}:${iv.toString('base64url')}:${body.toString('base64url')}`;
    },
    open(sealed, context) {
      const [id, ivText, bodyText] = sealed.startsWith(PREFIX) ? sealed.slice(PREFIX.length).split(':') : [];
      const key = id === undefined ? undefined : keys.get(id);
      if (!key || ivText === undefined || bodyText === undefined) throw new Error('a sealed secret no key held opens');
      const body = Buffer.from(bodyText, 'base64url');
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(ivText, 'base64url')).setAAD(aad(context));
      decipher.setAuthTag(body.subarray(body.length - TAG_BYTES));
      return Buffer.concat([decipher.update(body.subarray(0, body.length - TAG_BYTES)), decipher.final()]).toString('utf8');
    },
    keyIdOf(value) {
      if (!value.startsWith(PREFIX)) return undefined;
      return value.slice(PREFIX.length).split(':')[0];
    },
  };
}

/** Whether `value` is a sealed value (of any key), as opposed to a clear one kept from before sealing. */
export const isSealed = (value: string): boolean => value.startsWith(PREFIX);
