/**
 * One fuzz request over a real socket, with node:http rather than fetch: the path goes out exactly as written (no URL
 * normalisation of `..`, `%`, `\`), any method goes (fetch refuses TRACE), headers may be any byte a client can send,
 * and the body is raw bytes (invalid UTF-8 included), possibly shorter than the `Content-Length` it declares. An SSE answer is read only up to its first frame: the stream
 * itself may stay open for minutes. A HEAD is followed by a second request on the same connection, to see that its
 * answer really ended (see `sendHead`).
 */
import { request, Agent, type IncomingHttpHeaders } from 'node:http';

export interface FuzzRequest {
  method: string;
  /** Path and query, already percent-encoded as the client wants it on the wire. */
  path: string;
  headers: Record<string, string>;
  body?: Buffer | undefined;
  /**
   * A `Content-Length` larger than the body: the body is sent and the request left open, as a client that stalls
   * (or lies) would, so the server's body deadline must answer it.
   */
  declaredLength?: number | undefined;
}

export interface FuzzAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
  /** An event stream: `body` holds what arrived before we hung up. */
  stream: boolean;
  ms: number;
}

// A fresh connection per request: a server that hangs up on a hostile request must not fail the next one.
const agent = new Agent({ keepAlive: false });

/** Largest answer kept; nothing we send should make a route answer more. */
const MAX_ANSWER_BYTES = 4 * 1024 * 1024;

export class NoAnswer extends Error {
  override name = 'NoAnswer';
}

export function send(baseUrl: string, fuzz: FuzzRequest, timeoutMs: number): Promise<FuzzAnswer> {
  return fuzz.method === 'HEAD' ? sendHead(baseUrl, fuzz, timeoutMs) : sendOnce(baseUrl, fuzz, timeoutMs, agent);
}

/**
 * A HEAD's answer is complete with its headers, whether or not the server ended it (a server once left HEADs of an
 * event stream open for good, each holding a connection). So a `GET /healthz` follows on the same kept-alive
 * connection: Node answers it only once the HEAD's answer has ended, or on a new connection when the server closed
 * the first one.
 */
async function sendHead(baseUrl: string, fuzz: FuzzRequest, timeoutMs: number): Promise<FuzzAnswer> {
  const started = performance.now();
  const sameConnection = new Agent({ keepAlive: true, maxSockets: 1 });
  try {
    const answer = await sendOnce(baseUrl, fuzz, timeoutMs, sameConnection);
    const left = Math.max(1, timeoutMs - (performance.now() - started));
    await sendOnce(baseUrl, { method: 'GET', path: '/healthz', headers: {} }, left, sameConnection).catch((error: unknown) => {
      throw new NoAnswer(
        `the answer to HEAD did not end: a request after it on the same connection got none (${(error as Error).message})`,
      );
    });
    return answer;
  } finally {
    sameConnection.destroy();
  }
}

function sendOnce(baseUrl: string, fuzz: FuzzRequest, timeoutMs: number, via: Agent): Promise<FuzzAnswer> {
  const url = new URL(baseUrl);
  const started = performance.now();
  return new Promise<FuzzAnswer>((resolve, reject) => {
    let settled = false;
    const finish = (error: Error | undefined, answer?: FuzzAnswer) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (error) reject(error);
      else resolve(answer!);
    };
    const headers: Record<string, string | number> = { ...fuzz.headers };
    if (fuzz.body !== undefined) headers['content-length'] = Math.max(fuzz.declaredLength ?? 0, fuzz.body.length);
    const req = request(
      { agent: via, host: url.hostname, port: url.port, method: fuzz.method, path: fuzz.path, headers, setHost: true },
      (res) => {
        const stream = /^text\/event-stream/i.test(res.headers['content-type'] ?? '');
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          chunks.push(chunk);
          size += chunk.length;
          const done = stream ? Buffer.concat(chunks).includes('\n\n') : size > MAX_ANSWER_BYTES;
          if (done) {
            finish(undefined, answer());
            res.destroy();
            req.destroy();
          }
        });
        const answer = (): FuzzAnswer => ({
          status: res.statusCode ?? 0,
          headers: res.headers,
          body: Buffer.concat(chunks),
          stream,
          ms: performance.now() - started,
        });
        res.on('end', () => finish(undefined, answer()));
        res.on('error', (error) => finish(error));
        res.on('aborted', () => finish(new NoAnswer('the server aborted the answer')));
      },
    );
    const timer = setTimeout(() => {
      finish(new NoAnswer(`no complete answer within ${timeoutMs} ms`));
      req.destroy();
    }, timeoutMs);
    req.on('error', (error) => finish(error));
    if (fuzz.declaredLength !== undefined && fuzz.body !== undefined && fuzz.declaredLength > fuzz.body.length) req.write(fuzz.body);
    else req.end(fuzz.body);
  });
}

export function closeAgent(): void {
  agent.destroy();
}
