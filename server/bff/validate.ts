/**
 * Input parsing for BFF routes: malformed JSON or input off-schema is a 400 naming the failing paths. `readJson` is
 * the one JSON reader of every BFF route (the webhook receiver too): it takes `application/json` only, and refuses
 * nesting deeper than `MAX_JSON_DEPTH` and strings with U+0000 or a lone surrogate, so neither a database nor a
 * JSON writer ever sees them.
 */
import type { Context } from 'hono';
import type { z } from 'zod';
import { clientLeft } from '../lib/node-body';
import { ApiError, invalidJson, invalidRequest, unsupportedMediaType } from '../payments/errors';
import { isJsonType, plainTextAllowed } from './body-guards';
import { isUnsafeText } from './guards';

/** Deepest nesting of objects and arrays accepted; our bodies need 4, a provider webhook fewer than 10. */
export const MAX_JSON_DEPTH = 32;

/** Whether `text` nests objects or arrays deeper than `max`, without parsing (so without recursion). */
function nestsDeeperThan(text: string, max: number): boolean {
  // Deeper than `max` takes more than `max` opening brackets: most bodies have a handful, counted at native speed.
  let opening = 0;
  for (let i = text.indexOf('{'); i !== -1 && opening <= max; i = text.indexOf('{', i + 1)) opening++;
  for (let i = text.indexOf('['); i !== -1 && opening <= max; i = text.indexOf('[', i + 1)) opening++;
  if (opening <= max) return false;
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (inString) {
      if (ch === 0x5c) i++;
      else if (ch === 0x22) inString = false;
    } else if (ch === 0x22) inString = true;
    else if (ch === 0x7b || ch === 0x5b) {
      if (++depth > max) return true;
    } else if (ch === 0x7d || ch === 0x5d) depth--;
  }
  return false;
}

/**
 * Whether JSON `text` may parse to a string that `isUnsafeText` refuses: it holds an escaped U+0000 or surrogate
 * (`\u0000`, `\ud800`…), or a raw U+0000 or surrogate. Text without any cannot, so most bodies skip the walk below.
 */
// eslint-disable-next-line no-control-regex
const MAY_HOLD_UNSAFE = /\\u(?:0000|[dD][89a-fA-F])|[\u0000\uD800-\uDFFF]/;

/** The path of the first string (value or key) in `value` that no database or JSON column may hold. */
function unsafeStringAt(value: unknown, path = ''): string | undefined {
  if (typeof value === 'string') return isUnsafeText(value) ? path || '/' : undefined;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = unsafeStringAt(value[i], `${path}/${i}`);
      if (found) return found;
    }
  } else if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      if (isUnsafeText(key)) return `${path}/${key.replace(/[^\x20-\x7e]/g, '?')}`;
      const found = unsafeStringAt(item, `${path}/${key}`);
      if (found) return found;
    }
  }
  return undefined;
}

/** How a route reads its JSON body beyond `application/json`. */
export interface ReadJsonOptions {
  /** Read JSON whatever the declared type: for senders proven otherwise, such as the provider. */
  anyContentType?: boolean;
  /** Storefront origins whose `text/plain` body is read as JSON too (`plainTextAllowed`). */
  plainTextFrom?: readonly string[];
}

/** The body as JSON, or a 415 `unsupported_media_type`, a 400 `invalid_json` or a 400 `invalid_request`. */
export async function readJson(c: Context, { anyContentType = false, plainTextFrom = [] }: ReadJsonOptions = {}): Promise<unknown> {
  if (!anyContentType && !isJsonType(c.req.header('content-type')) && !plainTextAllowed(c, plainTextFrom)) {
    throw unsupportedMediaType();
  }
  let text: string;
  try {
    text = await c.req.text();
  } catch (error) {
    // A deadline or size refusal of the body reader keeps its own status, and a client that left is nobody's 400.
    if (error instanceof ApiError || clientLeft(c, error)) throw error;
    throw invalidJson('The request body could not be read.');
  }
  return parseJsonText(text);
}

/** `text` as JSON under the same rules as `readJson`: a 400 `invalid_json` or `invalid_request` when it breaks one. */
export function parseJsonText(text: string): unknown {
  if (nestsDeeperThan(text, MAX_JSON_DEPTH)) {
    throw invalidJson(`The request body nests deeper than ${MAX_JSON_DEPTH} levels.`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw invalidJson('The request body must be JSON.');
  }
  const unsafe = MAY_HOLD_UNSAFE.test(text) ? unsafeStringAt(value) : undefined;
  if (unsafe) {
    throw invalidRequest(`Invalid request: ${unsafe} contains U+0000 or an unpaired surrogate.`, [
      { path: unsafe, message: 'Contains U+0000 or an unpaired surrogate' },
    ]);
  }
  return value;
}

function parsed<T extends z.ZodType>(schema: T, input: unknown, what: string): z.output<T> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const details = result.error.issues.map((issue) => ({ path: '/' + issue.path.join('/'), message: issue.message }));
  throw invalidRequest(`Invalid ${what}: ${details.map((d) => `${d.path} ${d.message}`).join('; ')}`, details);
}

export async function parseJson<T extends z.ZodType>(c: Context, schema: T, options?: ReadJsonOptions): Promise<z.output<T>> {
  return parsed(schema, await readJson(c, options), 'request');
}

export function parseQuery<T extends z.ZodType>(c: Context, schema: T): z.output<T> {
  return parsed(schema, c.req.query(), 'query');
}
