/** The emulator alone on a real loopback socket, with a typed client logged in against it. */
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ManualClock } from '../../../server/lib/clock';
import { createProviderClient, type ProviderClient, type ProviderClientOptions } from '../../../server/provider';
import { createSandbox, type SandboxOptions } from '../../../server/sandbox';
import { SANDBOX_ACCESS_KEY, SANDBOX_SECRET } from '../../../server/sandbox/defaults';
import { tempDir } from './server';

/** What stands before the emulator's handler, when a test holds or drops some of its requests (`handle` serves one). */
export type AroundSandbox = (request: Request, handle: (request: Request) => Promise<Response>) => Promise<Response>;

export async function startSandbox({ around, ...options }: Partial<SandboxOptions> & { around?: AroundSandbox } = {}) {
  // The port must be known before the sandbox is built (its public address), so the handler is set after listening.
  const handler: { fetch?: (request: Request) => Response | Promise<Response> } = {};
  const server = serve({ fetch: (request) => handler.fetch!(request), port: 0, hostname: '127.0.0.1' }) as Server;
  await new Promise<void>((resolve) => server.once('listening', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const clock = new ManualClock(new Date());
  const dataDir = options.dataDir ?? tempDir('sandbox-');
  const sandbox = createSandbox({ dataDir, clock, publicBaseUrl: url, webhookRetry: { delaysMs: [50, 100] }, ...options });
  const root = new Hono().route('/sandbox', sandbox.app);
  const handle = async (request: Request) => root.fetch(request);
  handler.fetch = around ? (request) => around(request, handle) : root.fetch;

  const client = (extra: Partial<ProviderClientOptions> = {}) =>
    createProviderClient({ baseUrl: `${url}/sandbox/v1`, accessKey: SANDBOX_ACCESS_KEY, secret: SANDBOX_SECRET, retryBaseMs: 5, ...extra });

  return {
    url,
    clock,
    dataDir,
    sandbox,
    client,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      sandbox.close();
    },
  };
}

/**
 * What the provider holds for an order id, read through the typed client: one transaction, or a payment was asked
 * twice (the tests that stop or break things check that nothing was doubled).
 */
export async function transactionsAtProvider(provider: ProviderClient, orderId: string) {
  const now = Date.now();
  const page = await provider.transactions.list({
    transactionOrderId: orderId,
    startDate: new Date(now - 3_600_000).toISOString(),
    endDate: new Date(now + 3_600_000).toISOString(),
    'dataset.limit': 5,
    'dataset.offset': 0,
  });
  return page.items;
}
