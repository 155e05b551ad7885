/**
 * Starts servers on 127.0.0.1 with a fresh data directory: the demo process (emulator + BFF + demo API), or the
 * standalone BFF with orders priced by the test itself.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { formatCents } from '../../../core/money';
import { startDemo } from '../../../demo/start';
import { signOrderToken } from '../../../server/bff/order-token';
import type { PricedOrder } from '../../../server/payments/orders';
import { keptSecret, loadConfig } from '../../../server/config';
import { systemClock, type Clock } from '../../../server/lib/clock';
import { startServer, type StartOptions } from '../../../server/server';
import { keyed } from './secrets-key';

export const quietLog = { log: () => undefined, warn: () => undefined, error: () => undefined };

export function tempDir(prefix = 'pix-test-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

/** JSON calls against a base address: the parsed body when it is JSON, the text otherwise. */
export function jsonClient(baseUrl: string) {
  return async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const response = await fetch(baseUrl + path, {
      method,
      headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
    const text = await response.text();
    let parsed: any;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = text;
    }
    return { status: response.status, headers: response.headers, body: parsed, text };
  };
}

/** An hour after now on the server's clock: order tokens of the test helpers last that long. */
const inAnHour = (clock: Clock = systemClock) => new Date(clock.now().getTime() + 3_600_000);

export { TEST_SECRETS_KEY } from './secrets-key';

export async function startTestServer(options: { dataDir?: string; env?: Record<string, string>; start?: StartOptions } = {}) {
  const dataDir = options.dataDir ?? tempDir();
  const config = loadConfig({ PORT: '0', DATA_DIR: dataDir, ...keyed(options.env) });
  const running = await startDemo(config, { log: quietLog, manualReconcile: true, ...options.start });
  const json = jsonClient(running.url);
  // The demo shop signs order tokens with its order-source secret; with PROVIDER_BASE_URL set that is ORDERS_TOKEN.
  const orderTokenKey = running.ordersToken ?? config.orders?.token ?? keptSecret(dataDir, 'orders-token');
  /** An order token for any order id, as the merchant's server would sign it (valid for an hour unless told). */
  const orderTokenFor = (orderId: string, expiresAt = inAnHour(options.start?.clock)) => signOrderToken(orderTokenKey, orderId, expiresAt);

  /** Places a demo order (priced on the server) and returns its id and the order token the shop gives the shopper. */
  const order = async (items = [{ sku: 'cafe-especial', quantity: 2 }]) => {
    const response = await json('POST', '/demo/api/orders', { items });
    if (response.status !== 201) throw new Error(`order failed: ${response.text}`);
    return response.body as { orderId: string; orderToken: string; amount: string };
  };

  return { ...running, dataDir, config, json, order, orderTokenKey, orderTokenFor };
}

export type TestServer = Awaited<ReturnType<typeof startTestServer>>;

/** The standalone BFF (no demo, no emulator) against the provider of `env`, with orders the test places in memory. */
export async function startTestBff(options: { env: Record<string, string>; start?: StartOptions }) {
  const dataDir = tempDir();
  // The console's second factor is off unless a test asks for it (the server's default, `operator`, would force enrolment).
  const config = loadConfig({ PORT: '0', DATA_DIR: dataDir, MFA_REQUIRED: 'off', ...keyed(options.env) });
  const orders = new Map<string, PricedOrder>();
  const running = await startServer(config, {
    log: quietLog,
    manualReconcile: true,
    orders: { resolve: async (orderId) => orders.get(orderId) },
    ...options.start,
  });

  // What the merchant's server signs order tokens with: the order-source secret (ORDERS_TOKEN, else the kept one).
  const orderTokenKey = config.orders?.token ?? keptSecret(dataDir, 'orders-token');
  /** An order token for any order id, as the merchant's server would sign it (valid for an hour unless told). */
  const orderTokenFor = (orderId: string, expiresAt = inAnHour(options.start?.clock)) => signOrderToken(orderTokenKey, orderId, expiresAt);

  /** Places an order of `amountCents` and returns its id and an order token valid for an hour, as a merchant would. */
  const order = async (amountCents = 7_980) => {
    const orderId = `T-${randomUUID()}`;
    orders.set(orderId, { amountCents, description: 'Test order' });
    return { orderId, orderToken: orderTokenFor(orderId), amount: formatCents(amountCents) };
  };

  return { ...running, dataDir, config, json: jsonClient(running.url), order, orderTokenKey, orderTokenFor };
}
