/** A readable account of a fuzz request and of its answer, for failure messages and fast-check's counterexamples. */
import fc from 'fast-check';
import type { FuzzAnswer, FuzzRequest } from './send';

const excerpt = (text: string, max = 240) => (text.length > max ? `${text.slice(0, max)}… (${text.length} characters)` : text);

/** Escapes what a terminal would swallow, so NUL, lone surrogates and controls stay visible in a report. */
const visible = (text: string) =>
  // eslint-disable-next-line no-control-regex -- showing control characters is the point.
  text.replace(/[\x00-\x1f\x7f-\x9f\ud800-\udfff\u2028\u2029\u202e\ufeff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

function bodyText(body: Buffer | undefined): string {
  if (!body) return '(none)';
  const text = body.toString('utf8');
  const lossy = !Buffer.from(text, 'utf8').equals(body);
  return `${visible(excerpt(text))}${lossy ? ` [not UTF-8; hex ${body.subarray(0, 48).toString('hex')}]` : ''}`;
}

export function describeRequest(request: FuzzRequest): string {
  const headers = Object.entries(request.headers)
    .map(([k, v]) => `${k}: ${visible(excerpt(Buffer.from(v, 'latin1').toString('utf8'), 400))}`)
    .join(' | ');
  const short = request.declaredLength === undefined ? '' : ` [Content-Length ${request.declaredLength}, the rest never sent]`;
  return `${request.method} ${excerpt(request.path, 400)}\n    headers: ${headers || '(none)'}\n    body: ${bodyText(request.body)}${short}`;
}

export function describeAnswer(answer: FuzzAnswer): string {
  return `HTTP ${answer.status} ${answer.headers['content-type'] ?? ''} in ${Math.round(answer.ms)} ms: ${bodyText(answer.body)}`;
}

/** Makes fast-check print a request as `describeRequest` does (a counterexample's body would otherwise be a byte list). */
export function printable<T extends FuzzRequest>(request: T): T {
  Object.defineProperty(request, fc.toStringMethod, { value: () => describeRequest(request), enumerable: false });
  return request;
}
