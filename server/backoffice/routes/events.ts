/**
 * The back office's live updates, `GET /events`: one server-sent event stream per open page, telling it which
 * checkout or cash-out changed (stream.ts makes the streams and follows the cash-outs still moving). A stream opened
 * by a session is that session's: it ends when the session would no longer open a request.
 */
import { Hono } from 'hono';
import type { Sessions } from '../../accounts/sessions';
import type { BackOfficeEnv } from '../actor';
import type { BackOfficeStreams, StreamHolder } from '../stream';

const HEADERS = { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-store', 'x-accel-buffering': 'no' };

export function eventRoutes({ streams, sessions }: { streams: BackOfficeStreams; sessions: Sessions }) {
  return new Hono<BackOfficeEnv>().get('/events', (c) => {
    // A HEAD (Hono routes it here) gets the headers alone: no stream is opened, so none stays counted behind it.
    if (c.req.method === 'HEAD') return new Response(null, { headers: HEADERS });
    const { id, session } = c.get('actor');
    const holder: StreamHolder = session ? { userId: id, session, allowed: () => sessions.stillOpen(session) } : { userId: id };
    return new Response(streams.stream(holder), { headers: HEADERS });
  });
}
