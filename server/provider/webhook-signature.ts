/**
 * The provider's optional webhook signature (its public docs):
 *
 *   X-Webhook-Signature: HMAC-SHA256 Sign=<64 upper-case hex>, Nonce=<uuid>,TS=<unix seconds>
 *
 * where Sign is HMAC-SHA256(signing key, `<Nonce>:<TS>:<compact JSON body>`) and the key is made in the provider's
 * portal. The emulator signs with `signWebhook`; the BFF checks with `verifyWebhookSignature`, in constant time.
 */
import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';

export const WEBHOOK_SIGNATURE_HEADER = 'X-Webhook-Signature';

/** How far a signature's TS may be from our clock, either way. */
export const SIGNATURE_TOLERANCE_SECONDS = 5 * 60;

/** Longest nonce accepted; a UUID has 36 characters. */
const MAX_NONCE_LENGTH = 128;

const mac = (key: string, nonce: string, timestamp: string, body: string) =>
  createHmac('sha256', key).update(`${nonce}:${timestamp}:${body}`).digest();

/** The header value for `body` (the exact text sent), with a fresh nonce unless one is given. */
export function signWebhook(key: string, body: string, timestampSeconds: number, nonce: string = randomUUID()): string {
  const ts = String(Math.floor(timestampSeconds));
  // Spelled as the public docs show it, spacing included.
  return `HMAC-SHA256 Sign=${mac(key, nonce, ts, body).toString('hex').toUpperCase()}, Nonce=${nonce},TS=${ts}`;
}

export interface ParsedSignature {
  sign: Buffer;
  nonce: string;
  timestamp: string;
}

/** The three parts of the header, or undefined when it is not one (any spacing around the commas is accepted). */
export function parseSignatureHeader(header: string | undefined): ParsedSignature | undefined {
  if (header === undefined || header.length > 512) return undefined;
  const match = /^\s*HMAC-SHA256\s+(.*)$/i.exec(header);
  if (!match?.[1]) return undefined;
  const parts = new Map<string, string>();
  for (const part of match[1].split(',')) {
    const eq = part.indexOf('=');
    if (eq < 0) return undefined;
    const name = part.slice(0, eq).trim().toLowerCase();
    if (parts.has(name)) return undefined;
    parts.set(name, part.slice(eq + 1).trim());
  }
  const sign = parts.get('sign');
  const nonce = parts.get('nonce');
  const timestamp = parts.get('ts');
  if (!sign || !/^[0-9a-f]{64}$/i.test(sign)) return undefined;
  if (!nonce || nonce.length > MAX_NONCE_LENGTH || !/^[\w.-]+$/.test(nonce)) return undefined;
  if (!timestamp || !/^\d{1,12}$/.test(timestamp)) return undefined;
  return { sign: Buffer.from(sign, 'hex'), nonce, timestamp };
}

export type SignatureCheck =
  { ok: true; nonce: string; timestamp: number } | { ok: false; reason: 'missing' | 'malformed' | 'mismatch' | 'expired' };

/**
 * Checks a signature over the body exactly as received. A sender that signed the compact form of a body it sent
 * spaced out is accepted too (the docs sign "the compact body"). The comparison takes the same time wherever the
 * bytes differ; the time window is checked after the signature, so only a genuine signature is told it is old.
 */
export function verifyWebhookSignature(options: {
  key: string;
  header: string | undefined;
  body: string;
  nowSeconds: number;
  toleranceSeconds?: number;
}): SignatureCheck {
  if (options.header === undefined || options.header.trim() === '') return { ok: false, reason: 'missing' };
  const parsed = parseSignatureHeader(options.header);
  if (!parsed) return { ok: false, reason: 'malformed' };
  const matches = (text: string) => timingSafeEqual(mac(options.key, parsed.nonce, parsed.timestamp, text), parsed.sign);
  let good = matches(options.body);
  if (!good) {
    const compact = compactJson(options.body);
    good = compact !== undefined && compact !== options.body && matches(compact);
  }
  if (!good) return { ok: false, reason: 'mismatch' };
  const timestamp = Number(parsed.timestamp);
  if (Math.abs(options.nowSeconds - timestamp) > (options.toleranceSeconds ?? SIGNATURE_TOLERANCE_SECONDS))
    return { ok: false, reason: 'expired' };
  return { ok: true, nonce: parsed.nonce, timestamp };
}

function compactJson(text: string): string | undefined {
  try {
    return JSON.stringify(JSON.parse(text));
  } catch {
    return undefined;
  }
}

/**
 * A rough strength of a secret in bits: its length times the bits of the smallest usual alphabet holding all its
 * characters (hex 4, base64 6, printable ASCII 6.5), less for a secret made of very few distinct characters.
 */
export function estimateSecretBits(secret: string): number {
  if (secret.length === 0) return 0;
  let perChar = 6.5;
  if (/^[0-9a-f]+$/i.test(secret)) perChar = 4;
  else if (/^[A-Za-z0-9+/_=-]+$/.test(secret)) perChar = 6;
  const distinct = new Set(secret).size;
  return Math.floor(secret.length * Math.min(perChar, Math.log2(Math.max(distinct, 2))));
}
