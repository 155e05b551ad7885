/**
 * The outgoing HTTP transport (Node's `http` with keep-alive): answers, encodings, deadlines, size cap, and a kept-
 * alive connection closed by the server just as it is reused (sent again only when the method is idempotent).
 */
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createNetServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { MAX_ANSWER_BYTES, sendWithFetch, sendWithNodeHttp } from '../../../server/lib/http-client';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

async function httpServer(handler: (req: IncomingMessage, body: string, res: ServerResponse) => void) {
  const server = createHttpServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => handler(req, body, res));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(
    () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe('sendWithNodeHttp', () => {
  it('sends the method, headers and body, and answers the status and text', async () => {
    const seen: { method?: string; auth?: string; length?: string; body?: string } = {};
    const base = await httpServer((req, body, res) => {
      Object.assign(seen, { method: req.method, auth: req.headers.authorization, length: req.headers['content-length'], body });
      res.writeHead(201, { 'content-type': 'application/json' }).end('{"ok":"sim ✓"}');
    });
    const answer = await sendWithNodeHttp({
      method: 'POST',
      url: `${base}/x?a=1`,
      headers: { authorization: 'Bearer t', 'content-type': 'application/json' },
      body: '{"nome":"João"}',
    });
    expect(answer).toEqual({ status: 201, text: '{"ok":"sim ✓"}' });
    expect(seen).toEqual({
      method: 'POST',
      auth: 'Bearer t',
      length: String(Buffer.byteLength('{"nome":"João"}')),
      body: '{"nome":"João"}',
    });
  });

  it('answers 4xx and 5xx like any other answer, and decodes a gzip body', async () => {
    const base = await httpServer((req, _body, res) => {
      if (req.url === '/gz') res.writeHead(200, { 'content-encoding': 'gzip' }).end(gzipSync('comprimido'));
      else res.writeHead(503).end('later');
    });
    expect(await sendWithNodeHttp({ method: 'GET', url: `${base}/down`, headers: {} })).toEqual({ status: 503, text: 'later' });
    expect(await sendWithNodeHttp({ method: 'GET', url: new URL(`${base}/gz`), headers: {} })).toEqual({ status: 200, text: 'comprimido' });
  });

  it('rejects with the signal’s reason when the deadline passes, and at once when already aborted', async () => {
    const base = await httpServer(() => undefined);
    const late = sendWithNodeHttp({ method: 'GET', url: base, headers: {}, signal: AbortSignal.timeout(50) });
    await expect(late).rejects.toMatchObject({ name: 'TimeoutError' });
    const aborted = AbortSignal.abort(new Error('stopped'));
    await expect(sendWithNodeHttp({ method: 'GET', url: base, headers: {}, signal: aborted })).rejects.toThrow('stopped');
  });

  it('rejects with a TimeoutError past `timeoutMs`, before or during the answer', async () => {
    const silent = await httpServer(() => undefined);
    const started = performance.now();
    await expect(sendWithNodeHttp({ method: 'GET', url: silent, headers: {}, timeoutMs: 50 })).rejects.toMatchObject({
      name: 'TimeoutError',
    });
    expect(performance.now() - started).toBeGreaterThanOrEqual(45);
    // Headers, then a body that never ends.
    const stalled = await httpServer((_req, _body, res) => {
      res.writeHead(200, { 'content-length': '10' });
      res.write('par');
    });
    await expect(sendWithNodeHttp({ method: 'GET', url: stalled, headers: {}, timeoutMs: 50 })).rejects.toMatchObject({
      name: 'TimeoutError',
    });
  });

  it('refuses an answer larger than the cap', async () => {
    const base = await httpServer((_req, _body, res) => {
      res.writeHead(200);
      const chunk = Buffer.alloc(1024 * 1024, 97);
      for (let i = 0; i <= MAX_ANSWER_BYTES / chunk.length; i++) res.write(chunk);
      res.end();
    });
    await expect(sendWithNodeHttp({ method: 'GET', url: base, headers: {} })).rejects.toThrow(/larger than/);
  });

  it('refuses an address that is not http or https', async () => {
    await expect(sendWithNodeHttp({ method: 'GET', url: 'ftp://127.0.0.1/x', headers: {} })).rejects.toThrow(/Unsupported protocol/);
  });

  describe('a kept-alive connection closed by the server as it is reused', () => {
    /** Answers the first request of each connection (keeping it alive), and drops the connection at the second. */
    async function dropSecond() {
      let requests = 0;
      const sockets = new Set<Socket>();
      const server = createNetServer((socket) => {
        sockets.add(socket);
        let answered = false;
        socket.on('data', () => {
          requests++;
          if (answered) return socket.destroy();
          answered = true;
          socket.write('HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: keep-alive\r\n\r\nok');
        });
        socket.on('close', () => sockets.delete(socket));
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      closers.push(
        () =>
          new Promise((resolve) => {
            for (const socket of sockets) socket.destroy();
            server.close(() => resolve());
          }),
      );
      return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, requests: () => requests };
    }

    it('sends a GET again on a new connection', async () => {
      const server = await dropSecond();
      expect(await sendWithNodeHttp({ method: 'GET', url: server.url, headers: {} })).toEqual({ status: 200, text: 'ok' });
      expect(await sendWithNodeHttp({ method: 'GET', url: server.url, headers: {} })).toEqual({ status: 200, text: 'ok' });
      expect(server.requests()).toBe(3);
    });

    it('does not send a POST twice: it rejects with ECONNRESET', async () => {
      const server = await dropSecond();
      await sendWithNodeHttp({ method: 'GET', url: server.url, headers: {} });
      await expect(sendWithNodeHttp({ method: 'POST', url: server.url, headers: {}, body: '{}' })).rejects.toMatchObject({
        code: 'ECONNRESET',
      });
      expect(server.requests()).toBe(2);
    });
  });
});

describe('sendWithFetch', () => {
  it('gives a fetch the same shape, without following redirects', async () => {
    const base = await httpServer((req, body, res) => {
      if (req.url === '/moved') res.writeHead(302, { location: '/x' }).end();
      else res.writeHead(200).end(`${req.method} ${body}`);
    });
    const send = sendWithFetch(fetch);
    expect(await send({ method: 'POST', url: `${base}/x`, headers: {}, body: 'b' })).toEqual({ status: 200, text: 'POST b' });
    expect((await send({ method: 'GET', url: `${base}/moved`, headers: {} })).status).toBe(302);
  });

  it('gives `timeoutMs` the same meaning: a TimeoutError past it', async () => {
    const silent = await httpServer(() => undefined);
    await expect(sendWithFetch(fetch)({ method: 'GET', url: silent, headers: {}, timeoutMs: 50 })).rejects.toMatchObject({
      name: 'TimeoutError',
    });
  });
});
