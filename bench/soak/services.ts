/**
 * What `npm run soak` runs beside the two BFFs: the PostgreSQL they share, the emulator on a port of its own, and the
 * merchant's order service. Each start pushes what undoes it onto `cleanups`, which the soak runs in reverse on exit.
 */
import { serve, type ServerType } from '@hono/node-server';
import { Hono } from 'hono';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createSandbox } from '../../server/sandbox';
import { createTestDatabase } from '../../test/server/store/pg-test-database';

/** What undoes each start, run last first when the soak ends. */
export type Cleanups = (() => unknown)[];

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

/** A fresh database on TEST_DATABASE_URL, else on a throw-away cluster; both go when the soak ends. */
export async function postgres(cleanups: Cleanups, say: (line: string) => void): Promise<string> {
  let base = process.env.TEST_DATABASE_URL;
  if (!base) {
    // Plain JavaScript shared with `npm test`; imported by address so TypeScript does not look for its types.
    const { startThrowawayPostgres } = (await import(pathToFileURL(here('../../scripts/throwaway-postgres.mjs')).href)) as {
      startThrowawayPostgres: (options: { log: (line: string) => void }) => Promise<{ url: string; stop: () => void }>;
    };
    const cluster = await startThrowawayPostgres({ log: say });
    cleanups.push(() => cluster.stop());
    base = cluster.url;
    say('throw-away PostgreSQL started (set TEST_DATABASE_URL to use another server)');
  }
  const database = await createTestDatabase(base);
  cleanups.push(() => database.drop());
  return database.url;
}

async function listening(server: Server | ServerType): Promise<string> {
  if (!server.listening) await new Promise<void>((resolve) => server.once('listening', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** The emulator alone on a port of its own, mounted at /sandbox like the demo does. */
export async function startEmulator(dataDir: string, cleanups: Cleanups) {
  let handler: (request: Request) => Response | Promise<Response> = () => new Response('starting', { status: 503 });
  const server = serve({ fetch: (request) => handler(request), port: 0, hostname: '127.0.0.1' });
  const url = await listening(server);
  const sandbox = createSandbox({ dataDir, publicBaseUrl: url, webhookRetry: { delaysMs: [500, 1_000, 2_000, 4_000] } });
  const app = new Hono();
  app.route('/sandbox', sandbox.app);
  handler = app.fetch;
  cleanups.push(async () => {
    (server as Server).closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    sandbox.close();
  });
  return { url, file: join(dataDir, 'sandbox.sqlite'), adminKey: sandbox.adminKey };
}

/** The merchant's order service (the ORDERS_URL contract): `GET /orders/<id>` with the bearer token. */
export async function startOrderService(token: string, orders: Map<string, number>, cleanups: Cleanups) {
  const server = createServer((req, res) => {
    const id = decodeURIComponent((req.url ?? '').replace(/^\/orders\//, ''));
    const amountCents = orders.get(id);
    const status = req.headers.authorization !== `Bearer ${token}` ? 401 : amountCents ? 200 : 404;
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(status === 200 ? { amountCents, description: `Soak order ${id}` } : { error: status }));
  });
  server.listen(0, '127.0.0.1');
  const url = await listening(server);
  cleanups.push(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return url;
}
