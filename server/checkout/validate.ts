/** Body parsing for BFF routes: malformed JSON or a body off-schema is a 400 with the failing paths. */
import type { Context } from 'hono';
import type { z } from 'zod';
import { ApiError } from './errors';

export async function parseJson<T extends z.ZodType>(c: Context, schema: T): Promise<z.output<T>> {
  let body: unknown;
  try {
    body = await c.req.json();
  } catch {
    throw new ApiError(400, 'invalid_json', 'The request body must be JSON.');
  }
  const parsed = schema.safeParse(body);
  if (!parsed.success) {
    const details = parsed.error.issues.map((issue) => ({ path: '/' + issue.path.join('/'), message: issue.message }));
    throw new ApiError(400, 'invalid_request', `Invalid request: ${details.map((d) => `${d.path} ${d.message}`).join('; ')}`, details);
  }
  return parsed.data;
}
