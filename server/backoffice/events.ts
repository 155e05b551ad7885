/**
 * The back office's live updates, `GET /events`: one server-sent event stream per open page, telling it which
 * checkout or cash-out changed (stream.ts makes the streams and follows the cash-outs still moving).
 */
import { Hono } from 'hono';
import type { createAdminStreams } from './stream';

export function eventRoutes({ streams }: { streams: ReturnType<typeof createAdminStreams> }) {
  return new Hono().get('/events', () => {
    const body = streams.stream();
    return new Response(body, {
      headers: { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-store', 'x-accel-buffering': 'no' },
    });
  });
}
