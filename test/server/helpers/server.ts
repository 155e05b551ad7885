/** Starts the whole process (emulator + BFF + demo API) on 127.0.0.1 with a fresh data directory. */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../../server/config';
import { startServer, type StartOptions } from '../../../server/server';

export const quietLog = { log: () => undefined, warn: () => undefined, error: () => undefined };

export function tempDir(prefix = 'pix-test-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

export async function startTestServer(options: { dataDir?: string; env?: Record<string, string>; start?: StartOptions } = {}) {
  const dataDir = options.dataDir ?? tempDir();
  const config = loadConfig({ PORT: '0', DATA_DIR: dataDir, ...options.env });
  const running = await startServer(config, { log: quietLog, manualReconcile: true, ...options.start });

  const json = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const response = await fetch(running.url + path, {
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

  /** Places a demo order (priced on the server) and returns its id. */
  const order = async (items = [{ sku: 'cafe-especial', quantity: 2 }]) => {
    const response = await json('POST', '/demo/api/orders', { items });
    if (response.status !== 201) throw new Error(`order failed: ${response.text}`);
    return response.body as { orderId: string; amount: string };
  };

  return { ...running, dataDir, config, json, order };
}

export type TestServer = Awaited<ReturnType<typeof startTestServer>>;
