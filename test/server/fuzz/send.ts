/**
 * One fuzz request over a real socket, with node:http rather than fetch: the path goes out exactly as written (no URL
 * normalisation of `..`, `%`, `\`), headers may be any byte a client can send, and the body is raw bytes (invalid
 * UTF-8 included). An SSE answer is read only up to its first frame: the stream itself may stay open for minutes.
 */
import { request, Agent, type IncomingHttpHeaders } from 'node:http';

export interface FuzzRequest {
  method: string;
  /** Path and query, already percent-encoded as the client wants it on the wire. */
  path: string;
  headers: Record<string, string>;
  body?: Buffer | undefined;
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
    if (fuzz.body !== undefined) headers['content-length'] = fuzz.body.length;
    const req = request(
      { agent, host: url.hostname, port: url.port, method: fuzz.method, path: fuzz.path, headers, setHost: true },
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
    req.end(fuzz.body);
  });
}

export function closeAgent(): void {
  agent.destroy();
}
