/**
 * What a test of the standalone BFF as a child process (./bff-child.ts) stands on: the emulator as its provider, an
 * order source answering one priced order to the BFF's token, a free port, and the environment that ties them
 * together, as `npm run serve` would be configured. Each test adds its own (DATA_DIR, DATABASE_URL, …) and starts the
 * child itself, as often as it crashes it; `close` ends the parts (not the child).
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { signOrderToken } from '../../../server/bff/order-token';
import type { ProviderClient } from '../../../server/provider';
import { SANDBOX_ACCESS_KEY, SANDBOX_SECRET } from '../../../server/sandbox/defaults';
import { freePort, sendJson, startRecordingServer } from './http';
import { startSandbox, transactionsAtProvider } from './sandbox';

export interface ChildWorld {
  sandbox: Awaited<ReturnType<typeof startSandbox>>;
  provider: ProviderClient;
  /** The order source, recording what the BFF asked. */
  orders: Awaited<ReturnType<typeof startRecordingServer>>;
  /** The environment of the child: its port and address, the provider, the order source, no per-client limit. */
  env: Record<string, string>;
  /** A new order id (`prefix-…`) and the token the shop would give the shopper for it, valid an hour. */
  newOrder(prefix: string): { orderId: string; orderToken: string };
  /** What the provider holds for an order id. */
  atProvider(orderId: string): ReturnType<typeof transactionsAtProvider>;
  close(): Promise<void>;
}

export async function startChildWorld(options: {
  /** What the order source prices every order at. */
  order: { amountCents: number; description: string };
  sandbox?: Parameters<typeof startSandbox>[0];
}): Promise<ChildWorld> {
  const ordersToken = randomBytes(24).toString('base64url');
  const sandbox = await startSandbox(options.sandbox);
  const orders = await startRecordingServer((req, res) =>
    req.headers.authorization === `Bearer ${ordersToken}` ? sendJson(res, 200, options.order) : sendJson(res, 401, {}),
  );
  const port = await freePort();
  const provider = sandbox.client();
  return {
    sandbox,
    provider,
    orders,
    env: {
      HOST: '127.0.0.1',
      PORT: String(port),
      PUBLIC_BASE_URL: `http://127.0.0.1:${port}`,
      PROVIDER_BASE_URL: `${sandbox.url}/sandbox/v1`,
      PROVIDER_ACCESS_KEY: SANDBOX_ACCESS_KEY,
      PROVIDER_SECRET: SANDBOX_SECRET,
      WEBHOOK_SECRET: randomBytes(32).toString('base64url'),
      ORDERS_URL: `${orders.url}/orders`,
      ORDERS_TOKEN: ordersToken,
      CHECKOUT_RATE_PER_MINUTE: '0',
    },
    newOrder(prefix) {
      const orderId = `${prefix}-${randomUUID()}`;
      return { orderId, orderToken: signOrderToken(ordersToken, orderId, new Date(Date.now() + 3_600_000)) };
    },
    atProvider: (orderId) => transactionsAtProvider(provider, orderId),
    async close() {
      await orders.close();
      await sandbox.close();
    },
  };
}
