/**
 * The address guard every request meets before a route: a path or query that decodes to text no database or JSON
 * writer should see (server/lib/json-safety.ts), or that is not valid percent-encoding, is a 400.
 */
import type { MiddlewareHandler } from 'hono';
import { isUnsafeText } from '../lib/json-safety';
import { invalidRequest } from '../payments/errors';

function decodedOrUndefined(part: string): string | undefined {
  try {
    return decodeURIComponent(part);
  } catch {
    return undefined;
  }
}

/**
 * Refuses a path or query that decodes to U+0000 or a lone surrogate, or that is not valid percent-encoding, before
 * it reaches a route, a database or a log.
 */
export function safeAddress(): MiddlewareHandler {
  return async (c, next) => {
    const url = new URL(c.req.url);
    const parts = [
      ...url.pathname.split('/'),
      ...url.search
        .slice(1)
        .split(/[&=]/)
        .map((p) => p.replaceAll('+', ' ')),
    ];
    for (const part of parts) {
      if (!part.includes('%')) continue;
      const decoded = decodedOrUndefined(part);
      if (decoded === undefined || isUnsafeText(decoded)) {
        throw invalidRequest('The address contains an encoding or character that is not allowed.');
      }
    }
    await next();
  };
}
