/**
 * The go-live checks of the merchant's webhook endpoints: the environment's (MERCHANT_WEBHOOK_URL) and each enabled
 * one kept in the store. Each must answer a `webhook.test` event, signed as every delivery is (Standard Webhooks, with
 * each of its current secrets), with a 2xx, as a delivery must.
 */
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import type { Config } from './config';
import { fail, pass, why, type CheckResult } from './doctor-checks';
import { createSealer, isSealed } from './lib/sealer';
import { signedHeaders } from './merchant-webhooks/signing';

/** Sends a signed `webhook.test` to `url`: the HTTP status, or why none came. */
async function sendTest(url: string, secrets: readonly string[], fetchImpl: typeof fetch, timeoutMs: number) {
  const now = new Date();
  const id = `evt_${randomBytes(16).toString('base64url')}`;
  const body = JSON.stringify({ id, seq: 0, type: 'webhook.test', createdAt: now.toISOString(), data: { source: 'doctor' } });
  const headers = signedHeaders(secrets, id, Math.floor(now.getTime() / 1000), body);
  try {
    const response = await fetchImpl(url, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json', 'user-agent': 'pix-checkout-webhooks/1' },
      body,
      redirect: 'manual',
      signal: AbortSignal.timeout(timeoutMs),
    });
    await response.body?.cancel();
    return { status: response.status };
  } catch (error) {
    return { error: why(error) };
  }
}

/** The verdict on one endpoint's answer to the test event. */
function verdict(name: string, label: string, answer: { status?: number; error?: string }, secretName: string): CheckResult {
  if (answer.status === undefined) return fail(name, `${label} did not answer a signed webhook.test (${answer.error})`);
  if (answer.status >= 200 && answer.status <= 299) return pass(name, `${label} answered ${answer.status} to a signed webhook.test`);
  const hint = answer.status === 400 || answer.status === 401 ? `: does the receiver verify with ${secretName}?` : '';
  return fail(name, `${label} answered HTTP ${answer.status} to a signed webhook.test; a delivery needs a 2xx${hint}`);
}

/**
 * The merchant's webhook endpoint (MERCHANT_WEBHOOK_URL), when there is one: a `webhook.test` event signed as every
 * delivery is (Standard Webhooks, with each secret of MERCHANT_WEBHOOK_SECRET) must get a 2xx, as a delivery must.
 */
export async function checkMerchantWebhook(config: Config, fetchImpl: typeof fetch, timeoutMs: number): Promise<CheckResult> {
  const name = 'merchant webhook';
  const endpoint = config.merchantWebhook;
  if (!endpoint)
    return pass(name, 'MERCHANT_WEBHOOK_URL is not set: no webhooks to your backend (it may read GET /api/admin/webhook-events)');
  const answer = await sendTest(endpoint.url, endpoint.secrets, fetchImpl, timeoutMs);
  return verdict(name, 'MERCHANT_WEBHOOK_URL', answer, 'MERCHANT_WEBHOOK_SECRET');
}

interface StoredEndpoint {
  id: string;
  url: string;
  secrets: string[];
}

/** The enabled endpoints kept in the store, with their current secrets; none when there is no store (yet). */
async function storedEndpoints(config: Config): Promise<StoredEndpoint[]> {
  const now = new Date().toISOString();
  const sealer = createSealer(config.secretsKey, config.secretsKeysPrevious);
  const of = (row: Record<string, unknown>): StoredEndpoint => {
    const until = row.previous_until instanceof Date ? row.previous_until.toISOString() : (row.previous_until as string | null);
    const previous = row.previous_secret && until && until > now ? [row.previous_secret as string] : [];
    const id = row.id as string;
    // Opened to sign the test event only (a clear one, not yet sealed by a start, as it is).
    const open = (value: string) => (isSealed(value) ? sealer.open(value, id) : value);
    return { id, url: row.url as string, secrets: [row.secret as string, ...previous].map(open) };
  };
  const query =
    'SELECT id, url, secret, previous_secret, previous_until FROM webhook_endpoints WHERE disabled_reason IS NULL ORDER BY created_at';
  if (config.databaseUrl) {
    const client = new pg.Client({ connectionString: config.databaseUrl, connectionTimeoutMillis: 5_000 });
    try {
      await client.connect();
      const table = await client.query<{ found: string | null }>("SELECT to_regclass('webhook_endpoints')::text AS found");
      return table.rows[0]?.found ? (await client.query<Record<string, unknown>>(query)).rows.map(of) : [];
    } finally {
      await client.end().catch(() => undefined);
    }
  }
  const file = join(config.dataDir, 'checkout.sqlite');
  if (!existsSync(file)) return [];
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    const table = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'webhook_endpoints'").get();
    return table ? (db.prepare(query).all() as Record<string, unknown>[]).map(of) : [];
  } finally {
    db.close();
  }
}

/** Each enabled endpoint kept in the store (added under /api/admin/webhook-endpoints): one check each. */
export async function checkStoredWebhookEndpoints(config: Config, fetchImpl: typeof fetch, timeoutMs: number): Promise<CheckResult[]> {
  let endpoints: StoredEndpoint[];
  try {
    endpoints = await storedEndpoints(config);
  } catch (error) {
    return [fail('webhook endpoints', `the stored endpoints cannot be read (${why(error)})`)];
  }
  return Promise.all(
    endpoints.map(async (endpoint) =>
      verdict(`webhook ${endpoint.id}`, endpoint.url, await sendTest(endpoint.url, endpoint.secrets, fetchImpl, timeoutMs), 'its secret'),
    ),
  );
}
