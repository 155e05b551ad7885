/**
 * The raw body writer (server/http/raw-body.ts): what the Node listener registers on each request's env, and writes
 * once the app has answered. A deferred body's headers go out as every middleware left them, then its bytes straight
 * to Node's `ServerResponse` (no Web stream in between), and the listener is told the answer is already sent
 * (@hono/node-server's `RESPONSE_ALREADY_SENT`). Any other answer goes back to the listener as it is.
 */
import type { HttpBindings } from '@hono/node-server';
import { RESPONSE_ALREADY_SENT } from '@hono/node-server/utils/response';
import type { OutgoingHttpHeaders } from 'node:http';
import type { OpenBody, RawBody } from '../http/raw-body';

class DeferredBody implements RawBody {
  open: OpenBody | undefined;
  /** Called once when the body ends, or when it never starts (another answer went out instead). */
  ends: (() => void)[] = [];

  defer(open: OpenBody): void {
    this.open = open;
  }

  onEnd(done: () => void): boolean {
    if (!this.open) return false;
    this.ends.push(done);
    return true;
  }

  ended(): void {
    for (const done of this.ends.splice(0)) done();
  }
}

type RawBindings = HttpBindings & { rawBody?: DeferredBody };

/** Registers a fresh `RawBody` on `env`, the request's bindings, before the app sees them. */
export function registerRawBody(env: HttpBindings): void {
  (env as RawBindings).rawBody = new DeferredBody();
}

/** After the app has answered: writes a deferred body, or hands any other answer back to the listener. */
export function sendRawBody(response: Response, env: HttpBindings): Response {
  const raw = (env as RawBindings).rawBody;
  const open = raw?.open;
  if (!raw || !open) return response;
  const outgoing = env.outgoing;
  // A HEAD's answer has no body: Node would drop every write of the stream and never send its headers.
  const bodiless = env.incoming?.method === 'HEAD';
  if (bodiless || response.status !== 200 || response.body || !response.headers.get('content-type')?.startsWith('text/event-stream')) {
    raw.ended();
    return response;
  }
  if (outgoing.destroyed) {
    raw.ended();
    return RESPONSE_ALREADY_SENT;
  }
  const headers: OutgoingHttpHeaders = {};
  response.headers.forEach((value, name) => {
    headers[name] = value;
  });
  outgoing.writeHead(200, headers);
  const release = open({
    // Ended by the listener's drain (./drain.ts) before the stream heard of it: nothing more is written.
    write: (bytes) => void (!outgoing.writableEnded && outgoing.write(bytes)),
    end: (last) => void (!outgoing.writableEnded && (last ? outgoing.end(last) : outgoing.end())),
  });
  outgoing.once('close', () => {
    release();
    raw.ended();
  });
  return RESPONSE_ALREADY_SENT;
}
