/**
 * The checks of `npm run doctor` (server/doctor.ts runs them in order and prints them): each returns one PASS or FAIL
 * with a detail that names variables, never their values.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { WEBHOOK_HEADER } from './bff/app';
import type { Config } from './config';
import { ProviderConfigError, ProviderError, ProviderNetworkError, type ProviderClient } from './provider';
import { readJwtExpiry } from './provider/token';
import { estimateSecretBits, signWebhook, WEBHOOK_SIGNATURE_HEADER } from './provider/webhook-signature';
import { migrations } from './store/migrations';

export interface CheckResult {
  name: string;
  ok: boolean;
  detail: string;
}

/** A secret's estimated strength below this fails. */
export const MIN_SECRET_BITS = 128;
/** Clock skew against the provider above this fails (signed webhooks allow 5 minutes, tokens are renewed a minute early). */
export const MAX_CLOCK_SKEW_SECONDS = 60;
const LATEST_MIGRATION = Math.max(...migrations.map((m) => m.version));

export const pass = (name: string, detail: string): CheckResult => ({ name, ok: true, detail });
export const fail = (name: string, detail: string): CheckResult => ({ name, ok: false, detail });
export const why = (error: unknown) => (error instanceof Error ? error.message : String(error));

export async function checkLogin(provider: ProviderClient): Promise<CheckResult> {
  const name = 'provider login';
  try {
    const token = await provider.login();
    const expiry = readJwtExpiry(token);
    if (expiry === undefined) return pass(name, 'logged in with the key pair; the token is opaque, renewed every 55 minutes');
    const minutes = Math.round((expiry - Date.now()) / 60_000);
    if (minutes < 5) return fail(name, `logged in, but the token lasts ${minutes} minutes: check the clocks (see clock skew)`);
    return pass(name, `logged in with the key pair; the token is valid for ${minutes} minutes`);
  } catch (error) {
    if (error instanceof ProviderConfigError)
      return fail(name, 'the provider refused the key pair (invalid, pending or expired): check PROVIDER_ACCESS_KEY and PROVIDER_SECRET');
    if (error instanceof ProviderNetworkError) return fail(name, `no answer from PROVIDER_BASE_URL (${error.message})`);
    if (error instanceof ProviderError) return fail(name, `the login was refused: HTTP ${error.status} ${error.errorName ?? ''}`.trim());
    return fail(name, why(error));
  }
}

export async function checkBalance(provider: ProviderClient): Promise<CheckResult> {
  try {
    const balance = await provider.balance.retrieve();
    return pass('balance', `readable${balance.currency ? ` (${balance.currency})` : ''}`);
  } catch (error) {
    const status = error instanceof ProviderError && error.status ? `HTTP ${error.status}: ` : '';
    return fail('balance', `not readable: ${status}${why(error)}`);
  }
}

export function checkSkew(skews: number[], asked: boolean): CheckResult {
  if (!asked) return fail('clock skew', 'no provider answer to compare with');
  if (skews.length === 0) return fail('clock skew', "the provider's answers carry no Date header to compare with");
  // The Date header has whole seconds: the smallest difference seen is the best estimate.
  const skew = skews.reduce((best, s) => (Math.abs(s) < Math.abs(best) ? s : best));
  const seconds = Math.round(Math.abs(skew));
  const side = skew > 0 ? 'ahead of' : 'behind';
  if (seconds > MAX_CLOCK_SKEW_SECONDS)
    return fail(
      'clock skew',
      `the provider's clock is ${seconds} s ${side} ours (over ${MAX_CLOCK_SKEW_SECONDS} s): synchronise this machine's clock (NTP)`,
    );
  return pass('clock skew', seconds <= 1 ? "within a second of the provider's Date header" : `${seconds} s ${side} ours`);
}

export function checkPublicUrl(config: Config): CheckResult {
  const name = 'public address';
  if (!config.publicBaseUrl)
    return fail(name, 'PUBLIC_BASE_URL is not set: the provider and the shoppers need the https address of this server');
  const url = new URL(config.publicBaseUrl);
  if (url.protocol !== 'https:') return fail(name, `PUBLIC_BASE_URL ${url.origin} is not https`);
  return pass(name, `${url.origin}${url.pathname === '/' ? '' : url.pathname} is https`);
}

/**
 * A webhook with our secret (and signature) but an empty payload: the BFF behind the public address answers 400
 * `invalid_webhook` only once both were accepted, which proves it is reachable and shares this configuration.
 */
export async function checkWebhookRoute(config: Config, fetchImpl: typeof fetch, timeoutMs: number): Promise<CheckResult> {
  const name = 'webhook route';
  const address = `${config.publicBaseUrl}/api/webhooks/provider`;
  const body = JSON.stringify({ doctor: true });
  const headers: Record<string, string> = { 'content-type': 'application/json', [WEBHOOK_HEADER]: config.webhookSecret };
  if (config.webhookSigningKey)
    headers[WEBHOOK_SIGNATURE_HEADER] = signWebhook(config.webhookSigningKey, body, Date.now() / 1000, randomUUID());
  let response: Response;
  try {
    response = await fetchImpl(address, { method: 'POST', headers, body, signal: AbortSignal.timeout(timeoutMs), redirect: 'manual' });
  } catch (error) {
    return fail(name, `${address} did not answer (${why(error)})`);
  }
  const answer = (await response.json().catch(() => undefined)) as { error?: { code?: string } } | undefined;
  const code = answer?.error?.code;
  if (response.status === 400 && code === 'invalid_webhook')
    return pass(name, `${address} answers and accepts this WEBHOOK_SECRET${config.webhookSigningKey ? ' and WEBHOOK_SIGNING_KEY' : ''}`);
  if (code === 'webhook_unauthorized') return fail(name, `${address} answers, but the server there has another WEBHOOK_SECRET`);
  if (code?.startsWith('webhook_signature')) return fail(name, `${address} answers, but the server there has another WEBHOOK_SIGNING_KEY`);
  return fail(name, `${address} answered HTTP ${response.status}${code ? ` ${code}` : ''}, not the checkout's webhook route`);
}

export function checkWebhookSecret(config: Config, env: NodeJS.ProcessEnv): CheckResult {
  const name = 'webhook secret';
  if (!config.webhookSecretFromEnv) {
    if (env.DATABASE_URL)
      return fail(
        name,
        'WEBHOOK_SECRET is not set: with DATABASE_URL several instances share the checkouts, and each would generate its own',
      );
    return pass(name, 'generated and kept in DATA_DIR/webhook-secret (256 bits); set WEBHOOK_SECRET to share it between machines');
  }
  const bits = estimateSecretBits(config.webhookSecret);
  if (bits < MIN_SECRET_BITS)
    return fail(name, `WEBHOOK_SECRET is too guessable (about ${bits} bits; ${MIN_SECRET_BITS} needed): use 32 random bytes`);
  return pass(name, `WEBHOOK_SECRET is set, about ${bits} bits`);
}

export function checkSigningKey(config: Config): CheckResult {
  const name = 'signing key';
  const key = config.webhookSigningKey;
  if (!key)
    return fail(
      name,
      "WEBHOOK_SIGNING_KEY is not set: create the webhook signing key in the provider's portal, so unsigned webhooks are refused",
    );
  const bits = estimateSecretBits(key);
  if (bits < MIN_SECRET_BITS) return fail(name, `WEBHOOK_SIGNING_KEY is too guessable (about ${bits} bits; ${MIN_SECRET_BITS} needed)`);
  return pass(name, `WEBHOOK_SIGNING_KEY is set, about ${bits} bits`);
}

/** Asks for an order that cannot exist: the order contract answers 404 (or 410) for it. */
export async function checkOrders(config: Config, fetchImpl: typeof fetch, timeoutMs: number): Promise<CheckResult> {
  const name = 'order source';
  if (!config.orders) return fail(name, 'ORDERS_URL is not set: the BFF prices every order with it');
  const probe = `doctor-${randomBytes(6).toString('hex')}`;
  const address = `${config.orders.url.replace(/\/+$/, '')}/${probe}`;
  let response: Response;
  try {
    response = await fetchImpl(address, {
      headers: { accept: 'application/json', authorization: `Bearer ${config.orders.token}` },
      signal: AbortSignal.timeout(Math.min(timeoutMs, 5_000)),
    });
  } catch (error) {
    return fail(name, `ORDERS_URL did not answer within 5 s (${why(error)})`);
  }
  await response.body?.cancel();
  if (response.status === 404 || response.status === 410)
    return pass(name, `ORDERS_URL answers (${response.status} for an unknown order, as the contract says)`);
  if (response.status === 401 || response.status === 403) return fail(name, `ORDERS_URL refused ORDERS_TOKEN (HTTP ${response.status})`);
  return fail(name, `ORDERS_URL answered HTTP ${response.status} for an unknown order; the contract says 404`);
}

export async function checkDatabase(config: Config): Promise<CheckResult> {
  const name = 'database';
  const verdict = (where: string, version: number) => {
    if (version === LATEST_MIGRATION) return pass(name, `${where} is reachable and at schema version ${version}, the latest`);
    if (version < LATEST_MIGRATION)
      return fail(name, `${where} is at schema version ${version} of ${LATEST_MIGRATION}: start the server once (it migrates at start)`);
    return fail(name, `${where} is at schema version ${version}, newer than this code (${LATEST_MIGRATION})`);
  };
  if (config.databaseUrl) {
    const client = new pg.Client({ connectionString: config.databaseUrl, connectionTimeoutMillis: 5_000 });
    try {
      await client.connect();
      const table = await client.query<{ found: string | null }>("SELECT to_regclass('schema_migrations')::text AS found");
      if (!table.rows[0]?.found) return verdict('DATABASE_URL', 0);
      const row = await client.query<{ version: number | null }>('SELECT MAX(version) AS version FROM schema_migrations');
      return verdict('DATABASE_URL', Number(row.rows[0]?.version ?? 0));
    } catch (error) {
      return fail(name, `DATABASE_URL is not reachable (${why(error)})`);
    } finally {
      await client.end().catch(() => undefined);
    }
  }
  const file = join(config.dataDir, 'checkout.sqlite');
  if (!existsSync(file))
    return fail(name, `no database at DATA_DIR/checkout.sqlite yet: start the server once (it creates and migrates it)`);
  let db: Database.Database | undefined;
  try {
    db = new Database(file, { readonly: true, fileMustExist: true });
    const table = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'").get();
    if (!table) return verdict('DATA_DIR/checkout.sqlite', 0);
    const row = db.prepare('SELECT MAX(version) AS version FROM schema_migrations').get() as { version: number | null };
    return verdict('DATA_DIR/checkout.sqlite', row.version ?? 0);
  } catch (error) {
    return fail(name, `DATA_DIR/checkout.sqlite cannot be read (${why(error)})`);
  } finally {
    db?.close();
  }
}

export function checkOrigins(env: NodeJS.ProcessEnv): CheckResult {
  const name = 'allowed origins';
  const origins = (env.ALLOWED_ORIGINS ?? '')
    .split(',')
    .map((o) => o.trim())
    .filter(Boolean)
    .map((o) => new URL(o).origin);
  if (origins.length === 0) return fail(name, 'ALLOWED_ORIGINS is not set: list the storefront origins that embed the checkout');
  const plain = origins.filter((o) => o.startsWith('http:'));
  if (plain.length > 0) return fail(name, `ALLOWED_ORIGINS has origins without https: ${plain.join(', ')}`);
  return pass(name, origins.join(', '));
}
