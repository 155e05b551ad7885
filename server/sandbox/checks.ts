/** Request rules the shared zod schemas cannot express: amount precision and range, webhook address and custom header. */
import { parseCents, parseDecimal } from '../../core/money';
import type { WebhookConfig } from '../provider/schemas';
import { MAX_AMOUNT_CENTS } from './defaults';
import { formatError } from './request';

const tooLarge = (path: string) => formatError(path, 'must be at most 1000000.00', 'maximum', { limit: '1000000.00' });

/** Cents of an amount given as text; PIX moves whole cents, so "10.505" is refused rather than rounded. */
export function checkAmount(text: string, path: string): number {
  const cents = parseCents(text);
  if (cents === undefined) {
    // Exact, but with more cents than a number holds: far above the maximum, and reported as such.
    if (parseDecimal(text, 2) !== undefined) throw tooLarge(path);
    throw formatError(path, 'must have at most 2 significant decimal places', 'format', { format: 'amount' });
  }
  if (cents <= 0) throw formatError(path, 'must be greater than 0', 'minimum', { limit: '0.01' });
  if (cents > MAX_AMOUNT_CENTS) throw tooLarge(path);
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

/** Longest address the emulator keeps for a webhook or a redirect. */
export const MAX_URL_LENGTH = 2048;

/**
 * An absolute http(s) address with a host and no credentials, exactly as sent: the URL parser (and the shared schema,
 * which hands back its result) silently drops leading or trailing spaces and tabs or line breaks inside, so such an
 * address is refused rather than rewritten.
 */
export function checkHttpUrl(text: string, path: string): void {
  if (text.length > MAX_URL_LENGTH)
    throw formatError(path, `must be at most ${MAX_URL_LENGTH} characters`, 'maxLength', { limit: MAX_URL_LENGTH });
  let url: URL | undefined;
  try {
    url = new URL(text);
  } catch {
    url = undefined;
  }
  // eslint-disable-next-line no-control-regex -- refusing whitespace and control characters is the point.
  if (!url || !/^https?:$/.test(url.protocol) || url.hostname === '' || /[\s\x00-\x1f\x7f]/.test(text))
    throw formatError(path, 'must be an absolute http or https URL', 'format', { format: 'uri' });
  // fetch refuses such an address, so no delivery could ever succeed; and the record would echo the password.
  if (url.username !== '' || url.password !== '')
    throw formatError(path, 'must not carry a user name or password', 'format', { format: 'uri' });
}

/**
 * For `readBody`'s `asSent`: checks the addresses at these JSON pointers of the body as sent. A value that is not a
 * string is left to the schema, which reports it.
 */
export const urlsAsSent =
  (...pointers: string[]) =>
  (input: unknown): void => {
    for (const pointer of pointers) {
      let value: unknown = input;
      for (const key of pointer.split('/').slice(1))
        value =
          value !== null && typeof value === 'object' && Object.hasOwn(value, key) ? (value as Record<string, unknown>)[key] : undefined;
      if (typeof value === 'string') checkHttpUrl(value, pointer);
    }
  };

/** The address must be an http(s) URL and the custom header sendable as given, or every delivery would fail. */
export function checkWebhook(webhook: WebhookConfig, at = '/webhook'): void {
  checkHttpUrl(webhook.url, `${at}/url`);
  const { customHeaderName: name, customHeaderValue: value } = webhook;
  if (name !== undefined && (!TOKEN.test(name) || RESERVED.has(name.toLowerCase())))
    throw formatError(`${at}/customHeaderName`, 'must be a valid HTTP header name not set by the service itself');
  // Latin-1 without control characters: what an HTTP/1.1 header value can carry unchanged.
  if (value !== undefined && !/^[\t\x20-\x7e\x80-\xff]*$/.test(value))
    throw formatError(`${at}/customHeaderValue`, 'must be a valid HTTP header value');
}
