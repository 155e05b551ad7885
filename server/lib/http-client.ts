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
  /**
   * The longest the whole call may take; past it, it rejects with a `TimeoutError` DOMException, as `AbortSignal.timeout`
   * makes it. Cheaper than that signal on Node's own transport (one timer, no AbortSignal), which the payment's path
   * pays on every call.
   */
  timeoutMs?: number | undefined;
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
  return async ({ method, url, headers, body, signal, timeoutMs }) => {
    const deadline = timeoutMs === undefined ? undefined : AbortSignal.timeout(timeoutMs);
    const either = signal && deadline ? AbortSignal.any([signal, deadline]) : (signal ?? deadline ?? null);
    const response = await fetchImpl(url, { method, headers, body, signal: either, redirect: 'manual' });
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

const timeoutError = (ms: number) => new DOMException(`The call took longer than ${ms} ms`, 'TimeoutError');

/**
 * One attempt, to be over by `deadline` (a `performance.now()` time, or Infinity); `reset` when a kept-alive connection
 * was closed under it before any answer.
 */
function once(call: HttpCall, target: URL, deadline: number): Promise<HttpAnswer | 'reset'> {
  return new Promise((resolve, reject) => {
    const { signal } = call;
    if (signal?.aborted) return reject(signal.reason as Error);
    const left = deadline - performance.now();
    if (left <= 0) return reject(timeoutError(call.timeoutMs!));
    const client = target.protocol === 'https:' ? https : http;
    let answered = false;
    let timedOut: DOMException | undefined;
    // The request's options straight from the parsed address, so Node need not convert a URL object on every call.
    const request = client.request(
      {
        protocol: target.protocol,
        hostname: target.hostname.startsWith('[') ? target.hostname.slice(1, -1) : target.hostname,
        port: target.port,
        path: target.pathname + target.search,
        ...((target.username || target.password) && {
          auth: `${decodeURIComponent(target.username)}:${decodeURIComponent(target.password)}`,
        }),
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
          settle();
          resolve({ status: response.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') });
        });
        response.on('error', fail);
      },
    );
    const timer = Number.isFinite(left)
      ? setTimeout(() => {
          timedOut = timeoutError(call.timeoutMs!);
          request.destroy(timedOut);
        }, left)
      : undefined;
    // As `AbortSignal.timeout`'s timer, it alone never keeps the process running (the request's socket does).
    timer?.unref();
    function settle() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', abort);
    }
    function fail(error: Error) {
      settle();
      if (timedOut) return reject(timedOut);
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
  // One deadline for the call, a second attempt on a fresh connection included.
  const deadline = call.timeoutMs === undefined ? Infinity : performance.now() + call.timeoutMs;
  const first = await once(call, target, deadline);
  if (first !== 'reset') return first;
  if (!IDEMPOTENT.has(call.method.toUpperCase())) {
    throw Object.assign(new Error('The connection was reset before an answer came'), { code: 'ECONNRESET' });
  }
  const second = await once(call, target, deadline);
  if (second === 'reset') throw Object.assign(new Error('The connection was reset before an answer came'), { code: 'ECONNRESET' });
  return second;
};

/** The transport to use: the given `fetch` when there is one (tests, the doctor's recording), else Node's `http`. */
export const sendVia = (fetchImpl: typeof fetch | undefined): HttpSend => (fetchImpl ? sendWithFetch(fetchImpl) : sendWithNodeHttp);
