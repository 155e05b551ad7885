/**
 * Every method on the two streaming routes, the shoppers' `GET /api/checkouts/:id/events` and the back office's
 * `GET /api/admin/events`, over real sockets: a GET is counted against the stream limits, a HEAD gets the headers of a
 * stream and its answer ends at once (nothing is opened or held, so no number of them blocks a GET within the limits),
 * and any other method is refused with the envelope.
 */
import { request } from 'node:http';
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSse, type SseConnection } from '../helpers/sse';
import { startTestServer, type TestServer } from '../helpers/server';

const ADMIN_TOKEN = 'admin-token-for-stream-method-tests-01';
const AUTH = `Bearer ${ADMIN_TOKEN}`;

/** One raw HTTP/1.1 connection: what we write and every byte the server sent back. */
class RawConnection {
  data = '';
  closed = false;
  private readonly socket: Socket;

  constructor(url: string) {
    const { hostname, port } = new URL(url);
    this.socket = connect(Number(port), hostname);
    this.socket.on('data', (chunk) => (this.data += chunk.toString('latin1')));
    this.socket.on('close', () => (this.closed = true));
    this.socket.on('error', () => undefined);
  }

  write(text: string) {
    this.socket.write(text);
  }

  /** The status of each answer head received so far (a HEAD's answer has no body: its head is all of it). */
  statuses(): number[] {
    return [...this.data.matchAll(/^HTTP\/1\.1 (\d{3}) /gm)].map((m) => Number(m[1]));
  }

  async until(done: () => boolean, ms = 3_000): Promise<boolean> {
    const end = Date.now() + ms;
    while (!done() && Date.now() < end) await new Promise((r) => setTimeout(r, 20));
    return done();
  }

  close() {
    this.socket.destroy();
  }
}

const head = (path: string, extra = '') => `HEAD ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n${extra}\r\n`;
/** A request after the HEAD on the same connection: Node answers it only once the HEAD's answer has ended. */
const after = 'GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n';

/** Any method through node:http (fetch refuses TRACE), the answer read whole. */
function call(url: string, method: string, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; type: string; body: string }>((resolve, reject) => {
    const req = request(url, { method, headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, type: res.headers['content-type'] ?? '', body }));
    });
    req.setTimeout(3_000, () => req.destroy(new Error(`${method} ${url}: no answer within 3 s`)));
    req.on('error', reject);
    req.end();
  });
}

describe('every method on a streaming route', () => {
  let server: TestServer;
  let eventsPath: string;
  beforeAll(async () => {
    server = await startTestServer({ env: { ADMIN_TOKEN, SSE_MAX_PER_CLIENT: '2', SSE_MAX_TOTAL: '3' } });
    const placed = await server.order();
    const created = await server.json('POST', '/api/checkouts', { ...placed, method: 'pix' });
    expect(created.status).toBe(201);
    eventsPath = `/api/checkouts/${created.body.id as string}/events`;
  });
  afterAll(() => server?.close());

  for (const route of ['checkout', 'admin'] as const) {
    it(`${route} events: HEADs far above the limits are each answered at once, hold nothing, and leave GETs their share`, async () => {
      const path = route === 'checkout' ? eventsPath : '/api/admin/events';
      const auth = route === 'admin' ? `authorization: ${AUTH}\r\n` : '';
      // Past both limits of the shoppers' streams (2 per address, 3 in all) and the back office's (32).
      const heads = Array.from({ length: 40 }, () => new RawConnection(server.url));
      const open: SseConnection[] = [];
      try {
        for (const connection of heads) connection.write(head(path, auth));
        for (const connection of heads) {
          expect(await connection.until(() => connection.statuses().length >= 1)).toBe(true);
          expect(connection.statuses()).toEqual([200]);
          expect(connection.data).toMatch(/\r\ncontent-type: text\/event-stream/i);
          // Its answer has ended: the next request on the same connection is answered.
          connection.write(after);
          expect(await connection.until(() => connection.statuses().length >= 2)).toBe(true);
          expect(connection.statuses()).toEqual([200, 200]);
        }
        // Nothing is held for them, while their connections are still open.
        expect(heads.some((c) => c.closed)).toBe(false);
        if (route === 'checkout') expect(server.checkout.streams.total).toBe(0);
        const url = `${server.url}${path}`;
        const headers: Record<string, string> = route === 'admin' ? { authorization: AUTH } : {};
        open.push(await openSse(url, headers));
        expect(open[0]!.status).toBe(200);
        expect((await open[0]!.next())?.retry).toBeGreaterThan(0);
        if (route === 'checkout') {
          open.push(await openSse(url, headers));
          expect(open[1]!.status).toBe(200);
          // GETs are still counted: the third from the address is over its share.
          const third = await fetch(url);
          expect(third.status).toBe(429);
          expect((await third.json()).error.code).toBe('too_many_streams');
        }
      } finally {
        heads.forEach((c) => c.close());
        open.forEach((s) => s.close());
      }
    });

    it(`${route} events: a HEAD with Connection: close gets its answer and the connection closes`, async () => {
      const path = route === 'checkout' ? eventsPath : '/api/admin/events';
      const connection = new RawConnection(server.url);
      try {
        connection.write(head(path, `${route === 'admin' ? `authorization: ${AUTH}\r\n` : ''}connection: close\r\n`));
        expect(await connection.until(() => connection.closed)).toBe(true);
        expect(connection.statuses()).toEqual([200]);
      } finally {
        connection.close();
      }
    });

    it(`${route} events: every other method gets a 4xx envelope at once`, async () => {
      const url = `${server.url}${route === 'checkout' ? eventsPath : '/api/admin/events'}`;
      const headers: Record<string, string> = route === 'admin' ? { authorization: AUTH } : {};
      for (const method of ['POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'TRACE', 'PROPFIND', 'FOO']) {
        const answer = await call(url, method, headers);
        // The storefront's CORS preflight is answered as such.
        if (route === 'checkout' && method === 'OPTIONS') {
          expect({ method, status: answer.status, body: answer.body }).toEqual({ method, status: 204, body: '' });
          continue;
        }
        expect({ method, status: answer.status, type: answer.type }).toEqual({
          method,
          status: expect.toSatisfy((s: number) => s >= 400 && s < 500),
          type: expect.stringMatching(/^application\/json/),
        });
        expect(JSON.parse(answer.body)).toMatchObject({ statusCode: 'Error', error: { code: expect.any(String) } });
      }
    });
  }
});
