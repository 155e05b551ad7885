/**
 * The Node HTTP server under both entries (`npm run serve` and the demo): binds the port before the app exists, answers
 * what Node's parser refuses in the BFF's error envelope, and bounds slow clients.
 */
import { getRequestListener, RequestError, type HttpBindings } from '@hono/node-server';
import type { Hono } from 'hono';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { SHOPPER_ERRORS, type ErrorEnvelope } from '../../core/contract';
import { envelopeOf, errorBody } from '../http/error-envelope';
import { defaultAllowedOrigins } from '../http/origins';
import { BASE_SECURITY_HEADERS } from '../http/security-headers';
import { inRequest, requestIdHeader, requestIdOf } from '../lib/request-scope';
import { methodNotAllowed } from '../payments/errors';
import { drainAnswers, type Drain } from './drain';
import { registerRawBody, sendRawBody } from './raw-body';
import type { NodeRoute } from './webhook-route';

export type Logger = Pick<Console, 'log' | 'warn' | 'error'>;

/** What the listener takes of the configuration (server/config.ts). */
export interface ListenSettings {
  port: number;
  host: string;
  /** Where browsers and the provider reach this process; unset: its loopback address. */
  publicBaseUrl?: string | undefined;
  /** The storefront origins; unset: the public address's own (`defaultAllowedOrigins`). */
  allowedOrigins?: readonly string[] | undefined;
  /** `trustProxy`: proxies in front (`TRUST_PROXY`); only then is a request's `X-Request-Id` kept. */
  limits: { requestTimeoutMs: number; bodyTimeoutMs: number; trustProxy?: number };
}

/** What the Node server itself answers when a request can't reach the app: the BFF's envelope, never plain text. */
/** The app's answer, saying which request it was (the log's lines carry the same id). */
function withRequestId(response: Response): Response {
  const { 'x-request-id': reqId } = requestIdHeader();
  if (reqId === undefined) return response;
  try {
    response.headers.set('x-request-id', reqId);
  } catch {
    // An answer whose headers cannot change (Response.redirect's) goes without.
  }
  return response;
}

function requestErrorResponse(log: Pick<Logger, 'error'>) {
  return (error: unknown): Response => {
    // A RequestError is a request @hono/node-server can't turn into a URL: a backslash in the path, a bad Host.
    const malformed = error instanceof RequestError;
    if (!malformed) log.error('server:', error);
    return Response.json(
      malformed
        ? errorBody('BadRequest', 'bad_request', 'Malformed request.')
        : errorBody('ApiError', 'internal_error', 'Something went wrong on our side.'),
      {
        status: malformed ? SHOPPER_ERRORS.bad_request : SHOPPER_ERRORS.internal_error,
        headers: { ...BASE_SECURITY_HEADERS, ...requestIdHeader() },
      },
    );
  };
}

/** Node's parser errors that have a code of their own (core/contract.ts); any other is a 400 `bad_request`. */
const CLIENT_ERRORS: Record<string, [reason: string, code: keyof typeof SHOPPER_ERRORS, message: string]> = {
  ERR_HTTP_REQUEST_TIMEOUT: ['Request Timeout', 'request_timeout', 'The request did not arrive in time.'],
  HPE_HEADER_OVERFLOW: ['Request Header Fields Too Large', 'headers_too_large', 'The request headers are too large.'],
};

/** Writes a whole answer with the envelope `body` straight on `socket`, as Node would, then closes it. */
function endWithEnvelope(socket: Duplex, status: number, reason: string, body: ErrorEnvelope) {
  const text = JSON.stringify(body);
  const headers = {
    'content-type': 'application/json',
    'content-length': String(Buffer.byteLength(text)),
    connection: 'close',
    ...BASE_SECURITY_HEADERS,
  };
  const head = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`);
  socket.end(`HTTP/1.1 ${status} ${reason}\r\n${head.join('')}\r\n${text}`, () => socket.destroy());
}

/**
 * Node's answer to what its HTTP parser refuses (bad request line or header, headers or whole request too slow),
 * written on the socket as Node would, but as the envelope in JSON.
 */
function answerClientError(error: NodeJS.ErrnoException, socket: Duplex) {
  const inFlight = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (error.code === 'ECONNRESET' || !socket.writable || inFlight?.headersSent) {
    socket.destroy();
    return;
  }
  const [reason, code, message] = CLIENT_ERRORS[error.code ?? ''] ?? ['Bad Request', 'bad_request', 'Malformed request.'];
  endWithEnvelope(socket, SHOPPER_ERRORS[code], reason, errorBody('BadRequest', code, message));
}

/**
 * A `CONNECT`: Node hands it to the server's `connect` event, never to the app, and with no listener drops the
 * connection without a word. This server opens no tunnel: 405 in the envelope, and the connection closes.
 */
function answerConnect(_request: IncomingMessage, socket: Duplex) {
  // The socket is no longer the HTTP server's: a client that resets it must not raise an unhandled 'error'.
  socket.on('error', () => socket.destroy());
  const refusal = methodNotAllowed();
  if (socket.writable) endWithEnvelope(socket, refusal.status, 'Method Not Allowed', envelopeOf(refusal));
  else socket.destroy();
}

/** Why the port could not be bound, in one line that says what to do (`npm start` and `npm run serve` print it). */
function listenError(error: NodeJS.ErrnoException, config: Pick<ListenSettings, 'port' | 'host'>): Error {
  if (error.code === 'EADDRINUSE') return new Error(`Port ${config.port} is in use: set PORT to another port.`);
  if (error.code === 'EACCES') return new Error(`Port ${config.port} needs more privileges: set PORT to a port above 1023.`);
  if (error.code === 'EADDRNOTAVAIL') return new Error(`HOST ${config.host} is not an address of this machine: set HOST to one.`);
  return error;
}

/**
 * Binds the port first, so the public address is known even with PORT=0; requests that arrive before `handle` is
 * given a handler get a 503.
 *
 * Slow clients: headers must arrive within `BODY_TIMEOUT_MS` and the whole request within `REQUEST_TIMEOUT_MS`
 * (Node's `headersTimeout` and `requestTimeout`, 60 s and 300 s by default). Neither touches a response that takes
 * long, such as an event stream: they end once the request is in.
 */
export async function listen(config: ListenSettings, log: Pick<Logger, 'error'> = console) {
  let handler: ((request: Request, env: HttpBindings) => Response | Promise<Response>) | undefined;
  const fetch = (request: Request, env: HttpBindings) =>
    handler?.(request, env) ??
    Response.json(errorBody('Unavailable', 'starting', 'Starting up.'), {
      status: SHOPPER_ERRORS.starting,
      headers: { ...BASE_SECURITY_HEADERS, ...requestIdHeader() },
    });
  /** Routes answered before the app (`NodeRoute`), given with it. */
  let nodeRoutes: readonly NodeRoute[] = [];
  const respond = getRequestListener(fetch as Parameters<typeof getRequestListener>[0], {
    hostname: config.host,
    errorHandler: requestErrorResponse(log),
  });
  const requestTimeout = config.limits.requestTimeoutMs;
  const headersTimeout = Math.min(requestTimeout, config.limits.bodyTimeoutMs);
  const server = createServer(
    // Node checks both deadlines every `connectionsCheckingInterval` (30 s by default): often enough to keep them.
    { requestTimeout, headersTimeout, connectionsCheckingInterval: Math.max(100, Math.min(1_000, Math.floor(headersTimeout / 4))) },
    (incoming, outgoing) => {
      // Every answer says which request it was, the raw routes' too; every line told meanwhile carries the id.
      // The id goes on the answer's own headers (`withRequestId`), never through `setHeader` here: Node would then keep
      // every header of the answer in a table of its own for as long as the answer lives, an event stream's hours.
      const reqId = requestIdOf(incoming.headers['x-request-id'], (config.limits.trustProxy ?? 0) > 0);
      drain.track(outgoing);
      inRequest(reqId, () => {
        for (const route of nodeRoutes) if (route(incoming, outgoing)) return;
        void respond(incoming, outgoing);
      });
    },
  );
  const drain: Drain = drainAnswers(server);
  server.on('clientError', answerClientError);
  server.on('connect', answerConnect);
  server.listen(config.port, config.host);
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', (error: NodeJS.ErrnoException) => reject(listenError(error, config)));
  });
  const { port } = server.address() as AddressInfo;
  const publicBaseUrl = config.publicBaseUrl ?? `http://127.0.0.1:${port}`;
  return {
    port,
    /** Where this process listens (loopback). */
    url: `http://127.0.0.1:${port}`,
    /** Where browsers and the provider reach it. */
    publicBaseUrl,
    allowedOrigins: config.allowedOrigins ?? defaultAllowedOrigins(publicBaseUrl),
    /** Hands requests to `app`; each of `routes` first gets to take a request before it (./webhook-route.ts). */
    handle(app: Hono, routes: readonly NodeRoute[] = []) {
      nodeRoutes = routes;
      // A body a route deferred (an event stream) is written straight to Node's response once the app's middlewares
      // are done with its headers (./raw-body.ts).
      handler = (request, env) => {
        registerRawBody(env);
        const response = app.fetch(request, env);
        return response instanceof Promise
          ? response.then((r) => sendRawBody(withRequestId(r), env))
          : sendRawBody(withRequestId(response), env);
      };
    },
    /** Whether `drain` has begun: `/readyz` then answers 503. */
    draining: () => drain.draining(),
    /**
     * Stops accepting, lets the requests in flight finish (each answer closes its connection), and ends every event
     * stream with a `retry:` hint; resolves once every connection is closed, those still open at `cutAfterMs` cut.
     */
    drain: (cutAfterMs: number) => drain.start(cutAfterMs),
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export type Listener = Awaited<ReturnType<typeof listen>>;
