/** Reading and validating request bodies and queries; every refusal is an `EmulatorError` with the provider's envelope. */
import type { Context } from 'hono';
import type { z } from 'zod';
import type { ValidationDetail } from '../provider/schemas';
import { EmulatorError, invalidRequest, issuesToDetails } from './errors';

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
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw invalidRequest(
      [{ path: '', code: 'parse', message: 'the body is not valid JSON', info: {} }],
      'The request body is not valid JSON',
    );
  }
}

/** Validates with one of the shared zod schemas; the schema is the single source of truth of what is accepted. */
export function validate<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input);
  if (!result.success) throw invalidRequest(issuesToDetails(result.error.issues, input));
  return result.data;
}

/** A 400 for a rule the shared schemas cannot express (amount precision, key value per key type, ...). */
export const formatError = (path: string, message: string, code = 'format', info: Record<string, unknown> = {}) =>
  invalidRequest([{ path, code, message, info } satisfies ValidationDetail]);

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
