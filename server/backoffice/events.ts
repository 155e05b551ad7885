/**
 * The back office's live updates, `GET /events`: one server-sent event stream per open page, telling it which
 * checkout or cash-out changed (stream.ts makes the streams and follows the cash-outs still moving).
 */
import { Hono } from 'hono';
import type { createAdminStreams } from './stream';

const HEADERS = { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-store', 'x-accel-buffering': 'no' };

export function eventRoutes({ streams }: { streams: ReturnType<typeof createAdminStreams> }) {
  return new Hono().get('/events', (c) => {
    // A HEAD (Hono routes it here) gets the headers alone: no stream is opened, so none stays counted behind it.
    if (c.req.method === 'HEAD') return new Response(null, { headers: HEADERS });
    return new Response(streams.stream(), { headers: HEADERS });
  });
}
