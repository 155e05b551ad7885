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
import type { PricedOrder } from '../../../server/checkout/orders';
import { loadConfig } from '../../../server/config';
import { startServer, type StartOptions } from '../../../server/server';

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

export async function startTestServer(options: { dataDir?: string; env?: Record<string, string>; start?: StartOptions } = {}) {
  const dataDir = options.dataDir ?? tempDir();
  const config = loadConfig({ PORT: '0', DATA_DIR: dataDir, ...options.env });
  const running = await startDemo(config, { log: quietLog, manualReconcile: true, ...options.start });
  const json = jsonClient(running.url);

  /** Places a demo order (priced on the server) and returns its id. */
  const order = async (items = [{ sku: 'cafe-especial', quantity: 2 }]) => {
    const response = await json('POST', '/demo/api/orders', { items });
    if (response.status !== 201) throw new Error(`order failed: ${response.text}`);
    return response.body as { orderId: string; amount: string };
  };

  return { ...running, dataDir, config, json, order };
}

export type TestServer = Awaited<ReturnType<typeof startTestServer>>;

/** The standalone BFF (no demo, no emulator) against the provider of `env`, with orders the test places in memory. */
export async function startTestBff(options: { env: Record<string, string>; start?: StartOptions }) {
  const dataDir = tempDir();
  const config = loadConfig({ PORT: '0', DATA_DIR: dataDir, ...options.env });
  const orders = new Map<string, PricedOrder>();
  const running = await startServer(config, {
    log: quietLog,
    manualReconcile: true,
    orders: { resolve: async (orderId) => orders.get(orderId) },
    ...options.start,
  });

  /** Places an order of `amountCents` and returns its id. */
  const order = async (amountCents = 7_980) => {
    const orderId = `T-${randomUUID()}`;
    orders.set(orderId, { amountCents, description: 'Test order' });
    return { orderId, amount: formatCents(BigInt(amountCents)) };
  };

  return { ...running, dataDir, config, json: jsonClient(running.url), order };
}
