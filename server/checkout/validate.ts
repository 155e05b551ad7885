/** Input parsing for BFF routes: malformed JSON or input off-schema is a 400 naming the failing paths. */
import type { Context } from 'hono';
import type { z } from 'zod';
import { ApiError } from './errors';

/** The body as JSON, or a 400 `invalid_json`. */
export async function readJson(c: Context): Promise<unknown> {
  try {
    return await c.req.json();
  } catch {
    throw new ApiError(400, 'invalid_json', 'The request body must be JSON.');
  }
}

function parsed<T extends z.ZodType>(schema: T, input: unknown, what: string): z.output<T> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const details = result.error.issues.map((issue) => ({ path: '/' + issue.path.join('/'), message: issue.message }));
  throw new ApiError(400, 'invalid_request', `Invalid ${what}: ${details.map((d) => `${d.path} ${d.message}`).join('; ')}`, details);
}

export async function parseJson<T extends z.ZodType>(c: Context, schema: T): Promise<z.output<T>> {
  return parsed(schema, await readJson(c), 'request');
}

export function parseQuery<T extends z.ZodType>(c: Context, schema: T): z.output<T> {
  return parsed(schema, c.req.query(), 'query');
}
