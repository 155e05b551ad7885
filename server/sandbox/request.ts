/** Reading and validating request bodies and queries; every refusal is an `EmulatorError` with the provider's envelope. */
import type { Context, MiddlewareHandler } from 'hono';
import type { z } from 'zod';
import type { ValidationDetail } from '../provider/schemas';
import { EmulatorError, invalidRequest, issuesToDetails, pointer } from './errors';
import { findUnsafeText, isUnsafeText, MAX_JSON_DEPTH, nestsDeeperThan } from '../lib/json-safety';

/**
 * Parses the JSON body. An empty body is `{}` when `optional` (the sandbox operations whose body the spec marks
 * optional or absent); otherwise it must be JSON sent as JSON.
 */
export async function readPartnerJson(c: Context, { optional = false } = {}): Promise<unknown> {
  const text = await c.req.text();
  if (text.trim() === '') {
    if (optional) return {};
    throw invalidRequest([{ path: '', code: 'required', message: 'a JSON body is required', info: {} }], 'The request body is empty');
  }
  const type = c.req.header('content-type') ?? '';
  if (!/^application\/([\w.+-]+\+)?json\s*(;|$)/i.test(type))
    throw new EmulatorError(415, {
      name: 'UnsupportedMediaTypeError',
      message: 'Send the body as application/json',
      code: 'UnsupportedMediaType',
      details: { reason: 'UnsupportedMediaType' },
    });
  if (nestsDeeperThan(text, MAX_JSON_DEPTH))
    throw invalidRequest(
      [{ path: '', code: 'maxDepth', message: `must not nest more than ${MAX_JSON_DEPTH} levels`, info: { limit: MAX_JSON_DEPTH } }],
      'The request body is nested too deeply',
    );
  let input: unknown;
  try {
    input = JSON.parse(text) as unknown;
  } catch {
    throw invalidRequest(
      [{ path: '', code: 'parse', message: 'the body is not valid JSON', info: {} }],
      'The request body is not valid JSON',
    );
  }
  // An unsafe key is reported at the object that holds it, a value at itself.
  const unsafe = findUnsafeText(input, text);
  if (unsafe) throw unsafeText(pointer(unsafe.inKey ? unsafe.path.slice(0, -1) : unsafe.path));
  return input;
}

/** A 400 for text holding U+0000 or a lone surrogate, at `path` (a JSON pointer, or the query parameter's name). */
export const unsafeText = (path: string) =>
  invalidRequest(
    [{ path, code: 'format', message: 'must not contain U+0000 or unpaired surrogates', info: { format: 'text' } }],
    'The request holds a NUL character or an unpaired surrogate',
  );

/** Validates with one of the shared zod schemas; the schema is the single source of truth of what is accepted. */
export function validate<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input);
  if (!result.success) throw invalidRequest(issuesToDetails(result.error.issues, input));
  return result.data;
}

/** A 400 for a rule the shared schemas cannot express (amount precision, key value per key type, ...). */
export const formatError = (path: string, message: string, code = 'format', info: Record<string, unknown> = {}) =>
  invalidRequest([{ path, code, message, info } satisfies ValidationDetail]);

/** Dates the emulator accepts in queries: anything outside these years is a 400, never a date it cannot print. */
export const MIN_YEAR = 2000;
export const MAX_YEAR = 2100;

/** YYYY-MM-DD (or an expanded ±YYYYYY year, refused by range), optionally with a time (`T` or a space), seconds, fraction and an offset. */
const ISO_DATE = /^([+-]\d{6}|\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?)?$/i;

const daysIn = (year: number, month: number) => new Date(Date.UTC(year, month, 0)).getUTCDate();

/**
 * Milliseconds of an ISO 8601 date or date-time given in a query, refused with a 400 at `path` unless it is a real
 * calendar date between MIN_YEAR and MAX_YEAR. A date alone is midnight UTC, and so is a date-time without an offset
 * (the provider's dates are UTC; the host's time zone must not matter).
 */
export function parseInstant(text: string, path: string): number {
  const bad = () => formatError(path, 'must be an ISO 8601 date', 'format', { format: 'date-time' });
  const m = ISO_DATE.exec(text);
  if (!m) throw bad();
  const [, y, mo, d, h, mi, sec, zone] = m;
  const year = Number(y);
  const month = Number(mo);
  if (year < MIN_YEAR) throw formatError(path, `must not be before ${MIN_YEAR}`, 'formatMinimum', { limit: `${MIN_YEAR}-01-01` });
  if (year > MAX_YEAR) throw formatError(path, `must not be after ${MAX_YEAR}`, 'formatMaximum', { limit: `${MAX_YEAR}-12-31` });
  if (month < 1 || month > 12 || Number(d) < 1 || Number(d) > daysIn(year, month)) throw bad();
  if (Number(h ?? 0) > 23 || Number(mi ?? 0) > 59 || Number(sec ?? 0) > 59) throw bad();
  const normalized = text.toUpperCase().replace(' ', 'T');
  const ms = Date.parse(h !== undefined && zone === undefined ? `${normalized}Z` : normalized);
  if (!Number.isFinite(ms)) throw bad();
  return ms;
}

/**
 * Reads and validates a JSON body. `asSent` sees the body before the schema does, for rules about the text exactly as
 * sent (the schema's URL check, for one, hands back a normalised address).
 */
export async function readBody<S extends z.ZodType>(
  c: Context,
  schema: S,
  options: { optional?: boolean; asSent?: (input: unknown) => void } = {},
): Promise<z.output<S>> {
  const input = await readPartnerJson(c, options);
  options.asSent?.(input);
  return validate(schema, input);
}

/**
 * Runs before every route: a path segment with a malformed percent escape, or a path segment, query name or query
 * value holding U+0000 or a lone surrogate, is a 400 before any route, token check or query sees it.
 */
export const guardAddress: MiddlewareHandler = async (c, next) => {
  for (const segment of new URL(c.req.url).pathname.split('/')) {
    let decoded: string;
    try {
      decoded = decodeURIComponent(segment);
    } catch {
      throw invalidRequest(
        [{ path: '', code: 'format', message: 'the address has a malformed percent escape', info: { format: 'uri' } }],
        'The address is malformed',
      );
    }
    if (isUnsafeText(decoded)) throw unsafeText('');
  }
  for (const [name, values] of Object.entries(c.req.queries())) {
    if (isUnsafeText(name)) throw unsafeText('');
    if (values.some(isUnsafeText)) throw unsafeText(pointer([name]));
  }
  await next();
};
