/**
 * A per-client and a whole-server limit on open event streams: a slot is held for as long as a stream stays open,
 * whether it is written straight to Node's response (`raw-body.ts`) or through a Web stream. Over the client's share:
 * 429; the whole server full: 503. Both say when to come back (`Retry-After`); the element meanwhile polls.
 */
import type { Context, MiddlewareHandler } from 'hono';
import type { StreamLimiter } from '../lib/limits';
import { serverBusy, tooManyStreams } from '../payments/errors';
import { requestClient } from './client-address';
import { sendError } from './error-envelope';
import { rawBodyOf } from './raw-body';

/** Passes `body` through and calls `done` once, when it ends, fails or its reader cancels (the client left). */
function onEnd(body: ReadableStream<Uint8Array>, done: () => void): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const chunk = await reader.read();
        if (chunk.done) {
          done();
          controller.close();
        } else {
          controller.enqueue(chunk.value);
        }
      } catch (error) {
        done();
        controller.error(error);
      }
    },
    cancel(reason) {
      done();
      return reader.cancel(reason);
    },
  });
}

/**
 * Holds a slot of `limiter` for as long as an event stream stays open. A HEAD holds no slot: its answer is the
 * headers alone (see `headersOnly`); any other method is the route's to refuse.
 */
export function streamLimit(limiter: StreamLimiter, trustProxy: number, retryAfterSeconds = 30): MiddlewareHandler {
  return async (c, next) => {
    if (c.req.method === 'HEAD') return headersOnly(c, next);
    if (c.req.method !== 'GET') return next();
    const slot = limiter.acquire(requestClient(c, trustProxy));
    if ('refused' in slot) {
      c.header('retry-after', String(retryAfterSeconds));
      return sendError(c, slot.refused === 'client' ? tooManyStreams() : serverBusy());
    }
    try {
      await next();
    } catch (error) {
      slot.release();
      throw error;
    }
    if (c.res.status === 200 && c.res.headers.get('content-type')?.startsWith('text/event-stream')) {
      // Written straight to Node's response: the slot is freed when it ends.
      if (rawBodyOf(c)?.onEnd(slot.release)) return;
      const body = c.res.body;
      if (body) {
        c.res = new Response(onEnd(body, slot.release), c.res);
        return;
      }
    }
    slot.release();
  };
}

/**
 * A HEAD (which Hono routes to the GET handler) answered with the headers alone: a body the route made anyway is
 * cancelled, so nothing it opened (a subscription, timers) outlives an answer that sends none of it.
 */
async function headersOnly(c: Context, next: () => Promise<void>) {
  await next();
  const body = c.res.body;
  if (!body) return;
  c.res = new Response(null, c.res);
  await body.cancel().catch(() => undefined);
}
