/** Small real-socket helpers for tests: every server listens on 127.0.0.1 with an OS-chosen port. */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createNetServer, type AddressInfo } from 'node:net';

export interface RecordedRequest {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

export type Handler = (req: RecordedRequest, res: ServerResponse) => void | Promise<void>;

/** Starts a plain HTTP server that records every request and answers through `handler`. */
export async function startRecordingServer(handler: Handler) {
  const requests: RecordedRequest[] = [];
  const record = async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const recorded = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
    requests.push(recorded);
    await handler(recorded, res);
  };
  const { port, close } = await listenOnLoopback(createServer((req, res) => void record(req, res)));
  return { url: `http://127.0.0.1:${port}`, requests, close };
}

/** Starts `server` on 127.0.0.1 with an OS-chosen port; `close` drops its open connections and stops it. */
export async function listenOnLoopback(server: Server) {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

/** A port free on 127.0.0.1 right now, for a process that must be told its port before it starts. */
export async function freePort(): Promise<number> {
  const probe = createNetServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}
