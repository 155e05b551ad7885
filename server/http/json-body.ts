/**
 * Reading a JSON body and a query: malformed JSON or input off-schema is a 400 naming the failing paths. `readJson` is
 * the one JSON reader of every route of the BFF and the back office (the webhook receiver too): it takes
 * `application/json` only, and refuses what server/lib/json-safety.ts finds (nesting deeper than `MAX_JSON_DEPTH`,
 * strings with U+0000 or a lone surrogate), so neither a database nor a JSON writer ever sees them.
 */
import type { Context } from 'hono';
import type { z } from 'zod';
import { findUnsafeText, MAX_JSON_DEPTH, nestsDeeperThan } from '../lib/json-safety';
import { clientLeft } from '../lib/node-body';
import { ApiError, invalidJson, invalidRequest, unsupportedMediaType } from '../payments/errors';
import { isJsonType, plainTextAllowed } from './body-type';

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
  const unsafe = findUnsafeText(value, text);
  if (unsafe) {
    // The path as the other refusals name theirs; a key shows with its characters outside printable ASCII as `?`.
    const segments = unsafe.inKey ? [...unsafe.path.slice(0, -1), unsafe.path.at(-1)!.replace(/[^\x20-\x7e]/g, '?')] : unsafe.path;
    const path = `/${segments.join('/')}`;
    throw invalidRequest(`Invalid request: ${path} contains U+0000 or an unpaired surrogate.`, [
      { path, message: 'Contains U+0000 or an unpaired surrogate' },
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
