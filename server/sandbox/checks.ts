/** Request rules the shared zod schemas cannot express: amount precision and range, custom webhook header. */
import { parseCents } from '../../core/money';
import type { WebhookConfig } from '../provider/schemas';
import { MAX_AMOUNT_CENTS } from './defaults';
import { formatError } from './request';

/** Cents of an amount given as text; PIX moves whole cents, so "10.505" is refused rather than rounded. */
export function checkAmount(text: string, path: string): bigint {
  const cents = parseCents(text);
  if (cents === undefined) throw formatError(path, 'must have at most 2 significant decimal places', 'format', { format: 'amount' });
  if (cents <= 0n) throw formatError(path, 'must be greater than 0', 'minimum', { limit: '0.01' });
  if (cents > MAX_AMOUNT_CENTS) throw formatError(path, 'must be at most 1000000.00', 'maximum', { limit: '1000000.00' });
  return cents;
}

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** Headers the HTTP client sets itself; letting an integrator set them would break or smuggle the delivery. */
const RESERVED = new Set([
  'host',
  'content-length',
  'content-type',
  'transfer-encoding',
  'connection',
  'keep-alive',
  'upgrade',
  'expect',
  'te',
  'trailer',
]);

/** The custom header must be sendable as given, or every delivery would fail. */
export function checkWebhookHeader(webhook: WebhookConfig): void {
  const { customHeaderName: name, customHeaderValue: value } = webhook;
  if (name !== undefined && (!TOKEN.test(name) || RESERVED.has(name.toLowerCase())))
    throw formatError('/webhook/customHeaderName', 'must be a valid HTTP header name not set by the service itself');
  // Latin-1 without control characters: what an HTTP/1.1 header value can carry unchanged.
  if (value !== undefined && !/^[\t\x20-\x7e\x80-\xff]*$/.test(value))
    throw formatError('/webhook/customHeaderValue', 'must be a valid HTTP header value');
}
