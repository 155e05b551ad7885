/** What every answer to a fuzz request must be; `prototypeKeys` notices a request that polluted a built-in prototype. */
import type { Target } from './routes';
import type { FuzzAnswer, FuzzRequest } from './send';

const isEnvelope = (body: unknown): boolean => {
  if (typeof body !== 'object' || body === null) return false;
  const { statusCode, error } = body as { statusCode?: unknown; error?: unknown };
  if (statusCode !== 'Error' || typeof error !== 'object' || error === null) return false;
  const { name, message, code } = error as Record<string, unknown>;
  return typeof name === 'string' && typeof message === 'string' && typeof code === 'string';
};

/**
 * Undefined when the answer is acceptable: a 2xx or 4xx (or a status the route documents, such as the bank page's
 * 303); JSON, and for a 4xx the error envelope `{ statusCode: "Error", error: { name, message, code } }`; or one of the
 * route's documented non-JSON answers. Otherwise what is wrong with it.
 */
export function verdict(target: Target, request: FuzzRequest, answer: FuzzAnswer): string | undefined {
  const { status } = answer;
  const family = Math.floor(status / 100);
  if (family !== 2 && family !== 4 && !target.otherStatuses?.includes(status)) return `answered HTTP ${status}`;
  // A HEAD answer has the headers of a GET and no body; a 204 has neither.
  if (request.method === 'HEAD') return undefined;
  if (status === 204) return answer.body.length === 0 ? undefined : `answered 204 with a ${answer.body.length}-byte body`;
  if (target.otherAnswer?.(answer, request)) return undefined;
  const type = answer.headers['content-type'] ?? '';
  if (!/^application\/json\s*(;|$)/i.test(type)) return `answered HTTP ${status} with content type "${type}", not JSON`;
  let body: unknown;
  try {
    body = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(answer.body));
  } catch {
    return `answered HTTP ${status} with a body that is not JSON`;
  }
  if (family === 4 && !isEnvelope(body)) return `answered HTTP ${status} without the error envelope`;
  return undefined;
}

/** Own keys of the built-in prototypes, to notice a request that polluted them (the servers run in this process). */
export function prototypeKeys(): string {
  return [Object.prototype, Array.prototype, Function.prototype, String.prototype]
    .map((proto) => Reflect.ownKeys(proto).map(String).sort().join(','))
    .join(' / ');
}
