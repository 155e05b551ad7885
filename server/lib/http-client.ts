/**
 * The server's outgoing HTTP: one request with a string body, answered with its status and text. Node's own
 * `http`/`https` with keep-alive agents by default, about three times cheaper per call than `fetch` (which wraps
 * every request and answer in Web streams): it carries the provider client's calls and the emulator's webhooks,
 * both on the payment's path. A `fetch` can stand in for it (tests, a proxy, the doctor's recording).
 */
import http from 'node:http';
import https from 'node:https';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import type { Readable } from 'node:stream';

export interface HttpCall {
  method: string;
  url: URL | string;
  headers: Record<string, string>;
  body?: string | undefined;
  /** Aborts the call; the promise then rejects with the signal's reason (a `TimeoutError` for `AbortSignal.timeout`). */
  signal?: AbortSignal | undefined;
}

export interface HttpAnswer {
  status: number;
  text: string;
}

export type HttpSend = (call: HttpCall) => Promise<HttpAnswer>;

/** An answer larger than this is refused: nothing the provider or a webhook receiver sends comes near it. */
export const MAX_ANSWER_BYTES = 16 * 1024 * 1024;

/**
 * Idle connections are closed after 4 s, under the 5 s that Node servers (and many proxies) keep them, and under
 * any shorter `Keep-Alive: timeout` hint the server sends; the most recently used connection is reused first, so
 * few stay open.
 */
const agentOptions = { keepAlive: true, timeout: 4_000, scheduling: 'lifo' } as const;
const agents = { 'http:': new http.Agent(agentOptions), 'https:': new https.Agent(agentOptions) };

/** A `fetch` seen through the same narrow shape (redirects are not followed: an API call is never redirected). */
export function sendWithFetch(fetchImpl: typeof fetch): HttpSend {
  return async ({ method, url, headers, body, signal }) => {
    const response = await fetchImpl(url, { method, headers, body, signal: signal ?? null, redirect: 'manual' });
    return { status: response.status, text: await response.text() };
  };
}

function decoded(response: http.IncomingMessage): Readable {
  switch (response.headers['content-encoding']?.trim().toLowerCase()) {
    case 'gzip':
    case 'x-gzip':
      return response.pipe(createGunzip());
    case 'deflate':
      return response.pipe(createInflate());
    case 'br':
      return response.pipe(createBrotliDecompress());
    default:
      return response;
  }
}

/** One attempt; `reset` when a kept-alive connection was closed under it before any answer. */
function once(call: HttpCall, target: URL): Promise<HttpAnswer | 'reset'> {
  return new Promise((resolve, reject) => {
    const { signal } = call;
    if (signal?.aborted) return reject(signal.reason as Error);
    const client = target.protocol === 'https:' ? https : http;
    let answered = false;
    const request = client.request(
      target,
      {
        method: call.method,
        headers: call.body === undefined ? call.headers : { ...call.headers, 'content-length': String(Buffer.byteLength(call.body)) },
        agent: agents[target.protocol as keyof typeof agents],
      },
      (response) => {
        answered = true;
        const chunks: Buffer[] = [];
        let size = 0;
        const body = decoded(response);
        body.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > MAX_ANSWER_BYTES) request.destroy(new Error(`the answer is larger than ${MAX_ANSWER_BYTES} bytes`));
          else chunks.push(chunk);
        });
        body.on('error', fail);
        body.on('end', () => {
          signal?.removeEventListener('abort', abort);
          resolve({ status: response.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') });
        });
        response.on('error', fail);
      },
    );
    function fail(error: Error) {
      signal?.removeEventListener('abort', abort);
      if (signal?.aborted) return reject(signal.reason as Error);
      const code = (error as NodeJS.ErrnoException).code;
      // A kept-alive connection the server closed just as it was reused: nothing was answered, so the caller may
      // send again on a fresh one.
      if (!answered && request.reusedSocket && (code === 'ECONNRESET' || code === 'EPIPE')) return resolve('reset');
      reject(error);
    }
    function abort() {
      request.destroy();
    }
    signal?.addEventListener('abort', abort, { once: true });
    request.on('error', fail);
    request.end(call.body);
  });
}

/** Methods that can be sent again after a connection reset without doing anything twice. */
const IDEMPOTENT = new Set(['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE']);

/**
 * Sends over Node's `http`/`https`. A call that meets a kept-alive connection the server had just closed is sent
 * once more on a new connection when its method is idempotent; any other failure rejects (an aborted call with the
 * signal's reason).
 */
export const sendWithNodeHttp: HttpSend = async (call) => {
  const target = typeof call.url === 'string' ? new URL(call.url) : call.url;
  if (target.protocol !== 'http:' && target.protocol !== 'https:') throw new TypeError(`Unsupported protocol ${target.protocol}`);
  const first = await once(call, target);
  if (first !== 'reset') return first;
  if (!IDEMPOTENT.has(call.method.toUpperCase())) {
    throw Object.assign(new Error('The connection was reset before an answer came'), { code: 'ECONNRESET' });
  }
  const second = await once(call, target);
  if (second === 'reset') throw Object.assign(new Error('The connection was reset before an answer came'), { code: 'ECONNRESET' });
  return second;
};

/** The transport to use: the given `fetch` when there is one (tests, the doctor's recording), else Node's `http`. */
export const sendVia = (fetchImpl: typeof fetch | undefined): HttpSend => (fetchImpl ? sendWithFetch(fetchImpl) : sendWithNodeHttp);
