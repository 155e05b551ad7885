/**
 * Signatures of the webhooks we send the merchant, by the Standard Webhooks specification (the one Svix, Resend and
 * Clerk use), so any receiver verifies them with that specification's published libraries: headers `webhook-id`,
 * `webhook-timestamp` (Unix seconds) and `webhook-signature`, which is `v1,<base64 HMAC-SHA256 of id.timestamp.body>`
 * keyed with the secret's bytes. A secret is `whsec_` and its key in base64. While a secret is rotated, both are
 * given and each signs: the header then lists both signatures, space-separated, and a receiver with either accepts.
 */
import { createHmac } from 'node:crypto';

/** `whsec_` and at least 24 bytes of key in base64 (Standard Webhooks' own secrets have 24 to 64). */
export const WEBHOOK_SECRET_FORMAT = /^whsec_[A-Za-z0-9+/]{32,}={0,2}$/;

/** The `v1` signature of one message with one secret. */
export function signatureOf(secret: string, id: string, timestamp: number, body: string): string {
  const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
  return `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
}

/** The three headers of a signed delivery, signed with every secret given (one, or two while rotating). */
export function signedHeaders(secrets: readonly string[], id: string, timestamp: number, body: string): Record<string, string> {
  if (secrets.length === 0) throw new Error('a webhook endpoint needs at least one secret');
  return {
    'webhook-id': id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': secrets.map((secret) => signatureOf(secret, id, timestamp, body)).join(' '),
  };
}
