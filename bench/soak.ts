/**
 * `npm run soak [-- --orders 1000 --concurrency 24]`: two BFF instances on one PostgreSQL, an emulator behind a
 * fault-injecting proxy, and at least a thousand checkouts driven through them; then our store is compared with the
 * provider's records. Not part of `npm test`: it takes a few minutes and its point is the figures it prints.
 *
 * - PostgreSQL: TEST_DATABASE_URL (a fresh database is made on it and dropped), else a throw-away cluster
 *   (scripts/throwaway-postgres.mjs).
 * - The emulator (`createSandbox`) on its own port. The BFFs reach it through the provider proxy (5xx bursts, 5xx
 *   before and after it acts, delays past their provider timeout); its webhooks reach the BFFs through the webhook
 *   proxy, their public address (dropped after an acknowledgement, duplicated, delayed), load-balanced over both.
 * - BFF A runs in this process; BFF B is a child process (`test/server/helpers/bff-process.ts`) that the provider proxy kills with
 *   SIGKILL while one of its creations is in flight, and that is started again on the same DATA_DIR, DATABASE_URL and
 *   port.
 * - Orders come from a stub of the order contract (ORDERS_URL); each shopper posts the order with its order token to
 *   one instance (sometimes to both at once), retries on failure like the element does, sometimes reloads, and the
 *   payer completes, fails or cancels a share of the payments at the emulator.
 * - The merchant's backend (bench/soak/merchant.ts, MERCHANT_WEBHOOK_URL of both instances, one secret) gets the
 *   signed webhooks, verifies every copy with `standardwebhooks`, and answers some with a 5xx, past the BFF's 10 s
 *   timeout, slowly, or by dropping the connection; and has B killed while B's delivery waits for its answer.
 *   Short retry waits (`merchantWebhookRetryDelaysMs`) let the retries finish while the system settles.
 * - The back office's operators (bench/soak/money-out.ts) refund part of some paid checkouts and make PIX cash-outs
 *   on either instance, through the same provider faults (and B killed while a cash-out call is in flight), one
 *   Idempotency-Key per intent across retries; some walk away after a failure, leaving their key to the reconciler.
 * - Then faults stop, the reconcilers run, and every provider transaction of our orders is checked against our
 *   store (bench/soak/compare.ts), the webhooks the merchant got against the provider's paid orders and our
 *   store's events (every paid order's checkout.completed, one webhook-id per event, every copy verified; the delay
 *   from the provider's completion to the first copy), and every refund and cash-out against the provider's
 *   cash-outs of its order id (none lost, none doubled, none left unknown). Exit status 1 when there is any mismatch.
 */
import { serve, type ServerType } from '@hono/node-server';
import { Hono } from 'hono';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { signOrderToken } from '../server/bff/order-token';
import { loadConfig } from '../server/config';
import { createSandbox } from '../server/sandbox';
import { ADMIN_KEY_HEADER } from '../server/sandbox/company/routes/admin';
import { SANDBOX_ACCESS_KEY, SANDBOX_SECRET } from '../server/sandbox/defaults';
import { startServer, type Tuning } from '../server/server';
import { freePort } from '../test/server/helpers/http';
import { createTestDatabase } from '../test/server/store/pg-test-database';
import type { Summary } from './lib/stats';
import { compare, mismatchCount, type Comparison } from './soak/compare';
import { compareMerchant, merchantMismatchCount, owed, startMerchantReceiver, type MerchantComparison } from './soak/merchant';
import {
  compareMoneyOut,
  moneyOutMismatchCount,
  moneyOutOperators,
  newMoneyOutStats,
  type MoneyOutComparison,
  type MoneyOutStats,
} from './soak/money-out';
import { FAULT_KINDS, Faults, sleep, startProviderProxy, startWebhookProxy } from './soak/proxy';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

function option(name: string, fallback: number): number {
  const index = process.argv.indexOf(`--${name}`);
  const value = Number(index >= 0 ? process.argv[index + 1] : process.env[`SOAK_${name.toUpperCase()}`]);
  return Number.isFinite(value) && value > 0 ? value : fallback;
}

const ORDERS = option('orders', 1_000);
const CONCURRENCY = option('concurrency', 24);
/** Longest wait for the system to settle once the faults stop. */
const SETTLE_MS = option('settle-ms', 60_000);
const PROVIDER_TIMEOUT_MS = 1_500;
const VALID_CPF = '52998224725';

const tuning: Tuning = Object.assign(
  { providerTimeoutMs: PROVIDER_TIMEOUT_MS, reconcileIntervalMs: 1_000, staleAfterMs: 3_000 },
  // Reservations left by a crash or a timeout are settled after this (a knob of the crash-safe creation).
  { settleAfterMs: 5_000 },
  // The merchant's webhooks are tried again within seconds, not minutes, so the retries end while the system settles
  // (past the list the product waits 12 h: the list is long enough that no event gets there).
  { merchantWebhookRetryDelaysMs: [200, 500, 1_000, 2_000, 2_000, 2_000, 2_000, 2_000, 2_000, 2_000, 2_000, 2_000] },
);

const say = (line: string) => console.log(`soak: ${line}`);
const chance = (p: number) => Math.random() < p;
const between = (min: number, max: number) => min + Math.random() * (max - min);

const cleanups: (() => unknown)[] = [];
async function cleanUp() {
  for (const cleanup of cleanups.splice(0).reverse()) {
    try {
      await cleanup();
    } catch (error) {
      say(`clean-up: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}

async function postgres(): Promise<string> {
  let base = process.env.TEST_DATABASE_URL;
  if (!base) {
    // Plain JavaScript shared with `npm test`; imported by address so TypeScript does not look for its types.
    const { startThrowawayPostgres } = (await import(pathToFileURL(here('../scripts/throwaway-postgres.mjs')).href)) as {
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
async function startEmulator(dataDir: string) {
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
async function startOrderService(token: string, orders: Map<string, number>) {
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

interface Stats {
  answers: Map<string, number>;
  gotCheckout: number;
  gaveUp: number;
  doubleSubmits: number;
  reloads: number;
  reloadsWithAnotherTransaction: number;
  actions: Map<string, number>;
  actionRetries: number;
  actionFailures: Map<string, number>;
}

const bump = (map: Map<string, number>, key: string, by = 1) => map.set(key, (map.get(key) ?? 0) + by);

async function main() {
  const started = Date.now();
  const root = mkdtempSync(join(tmpdir(), 'pix-soak-'));
  if (!process.env.SOAK_KEEP) cleanups.push(() => rmSync(root, { recursive: true, force: true }));
  const logPath = join(root, 'bff.log');
  const logFile = createWriteStream(logPath);
  cleanups.push(() => new Promise((resolve) => logFile.end(resolve)));
  const fileLog = (name: string) => {
    const write = (...args: unknown[]) =>
      logFile.write(`[${name}] ${args.map((a) => (a instanceof Error ? (a.stack ?? a.message) : String(a))).join(' ')}\n`);
    return { log: write, warn: write, error: write };
  };

  say(`${ORDERS} orders, ${CONCURRENCY} shoppers at a time, two BFF instances on one PostgreSQL`);
  const databaseUrl = await postgres();
  const emulator = await startEmulator(join(root, 'emulator'));
  const ordersToken = randomBytes(24).toString('base64url');
  const amounts = new Map<string, number>();
  const runId = randomUUID().slice(0, 8);
  const orders = Array.from({ length: ORDERS }, (_, i) => {
    const orderId = `S-${runId}-${i}`;
    amounts.set(orderId, 100 + Math.floor(Math.random() * 50_000));
    return { orderId, orderToken: signOrderToken(ordersToken, orderId, new Date(Date.now() + 6 * 3_600_000)) };
  });
  const orderServiceUrl = await startOrderService(ordersToken, amounts);

  // Instance B is a child process; the provider proxy kills it mid-creation and it is started again.
  const faults = new Faults();
  const portB = await freePort();
  const urlB = `http://127.0.0.1:${portB}`;
  let urlA = '';
  let child: ChildProcess | undefined;
  let bUp = false;
  let lastKill = 0;
  let kills = 0;
  let restarts = 0;

  /** Kills B (the child) now and starts it again shortly; false when it is down or was killed under 4 s ago. */
  function killB(): boolean {
    if (!bUp || !child || Date.now() - lastKill < 4_000) return false;
    lastKill = Date.now();
    bUp = false;
    kills++;
    child.kill('SIGKILL');
    setTimeout(() => void startB().catch((error: unknown) => say(`B did not restart: ${String(error)}`)), between(300, 1_500));
    return true;
  }

  const merchantSecret = `whsec_${randomBytes(32).toString('base64')}`;
  const merchant = await startMerchantReceiver({ secret: merchantSecret, faults, kill: (instance) => instance === 'b' && killB() });
  cleanups.push(merchant.close);

  const webhookProxy = await startWebhookProxy({ faults, targets: () => [urlA, ...(bUp ? [urlB] : [])].filter(Boolean) });
  cleanups.push(webhookProxy.close);
  const providerProxy = await startProviderProxy({
    emulator: emulator.url,
    faults,
    providerTimeoutMs: PROVIDER_TIMEOUT_MS,
    killChance: 0.05,
    kill: (instance) => instance === 'b' && killB(),
  });
  cleanups.push(providerProxy.close);

  const common = {
    HOST: '127.0.0.1',
    DATABASE_URL: databaseUrl,
    PROVIDER_ACCESS_KEY: SANDBOX_ACCESS_KEY,
    PROVIDER_SECRET: SANDBOX_SECRET,
    WEBHOOK_SECRET: randomBytes(32).toString('base64url'),
    ADMIN_TOKEN: randomBytes(32).toString('base64url'),
    ORDERS_URL: `${orderServiceUrl}/orders`,
    ORDERS_TOKEN: ordersToken,
    // The provider posts webhooks here: the webhook proxy, which spreads them over both instances.
    PUBLIC_BASE_URL: webhookProxy.url,
    // Shoppers come through a load balancer: each is its own address in X-Forwarded-For, as the limits expect.
    TRUST_PROXY: '1',
    MERCHANT_WEBHOOK_SECRET: merchantSecret,
    // Refunds and cash-outs are sent at once, none kept for an owner's approval.
    APPROVAL_ABOVE: '1000000.00',
  };

  const a = await startServer(
    loadConfig({
      ...common,
      PORT: '0',
      DATA_DIR: join(root, 'bff-a'),
      PROVIDER_BASE_URL: `${providerProxy.url}/a/sandbox/v1`,
      // Each instance posts to its own path of the one receiver, so the receiver knows who is sending.
      MERCHANT_WEBHOOK_URL: `${merchant.url}/a/hooks`,
    }),
    { tuning, log: fileLog('a') },
  );
  urlA = a.url;
  cleanups.push(() => a.close());

  function startB(): Promise<void> {
    const env = {
      ...process.env,
      ...common,
      PORT: String(portB),
      DATA_DIR: join(root, 'bff-b'),
      PROVIDER_BASE_URL: `${providerProxy.url}/b/sandbox/v1`,
      MERCHANT_WEBHOOK_URL: `${merchant.url}/b/hooks`,
      BFF_TUNING: JSON.stringify(tuning),
    };
    const proc = spawn(process.execPath, ['--import', 'tsx', here('../test/server/helpers/bff-process.ts')], {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child = proc;
    proc.stderr.on('data', (chunk: Buffer) => logFile.write(`[b] ${chunk.toString()}`));
    return new Promise<void>((resolve, reject) => {
      let out = '';
      proc.stdout.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        if (out.includes('ready ')) {
          bUp = true;
          restarts++;
          resolve();
        }
      });
      proc.once('exit', (code, signal) => {
        if (!bUp) reject(new Error(`B exited before it was ready (${signal ?? code}); see ${logPath}`));
      });
    });
  }
  await startB();
  restarts = 0;
  cleanups.push(() => {
    if (child && child.exitCode === null) child.kill('SIGTERM');
  });

  // The emulator's own sandbox operations (the payer), straight to it: they are not the BFF's traffic.
  const sandboxToken = await (
    await fetch(`${emulator.url}/sandbox/v1/partners-int/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ accessKey: SANDBOX_ACCESS_KEY, secret: SANDBOX_SECRET }),
    })
  ).text();

  // 5xx bursts: every 12–25 s, 1–2.5 s during which the provider refuses everything.
  let nextBurst = Date.now() + between(5_000, 12_000);
  const burstTimer = setInterval(() => {
    if (faults.enabled && Date.now() > nextBurst) {
      faults.burstUntil = Date.now() + between(1_000, 2_500);
      faults.bursts++;
      nextBurst = Date.now() + between(12_000, 25_000);
    }
  }, 250);
  cleanups.push(() => clearInterval(burstTimer));

  const stats: Stats = {
    answers: new Map(),
    gotCheckout: 0,
    gaveUp: 0,
    doubleSubmits: 0,
    reloads: 0,
    reloadsWithAnotherTransaction: 0,
    actions: new Map(),
    actionRetries: 0,
    actionFailures: new Map(),
  };

  type View = { id: string; transactionId: string; state: string; method: string };
  const post = async (base: string, body: unknown, address: string): Promise<View | undefined> => {
    try {
      const response = await fetch(`${base}/api/checkouts`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': address },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(30_000),
      });
      const text = await response.text();
      bump(stats.answers, String(response.status));
      if (response.status !== 200 && response.status !== 201) return undefined;
      return JSON.parse(text) as View;
    } catch {
      bump(stats.answers, 'no answer (instance down)');
      return undefined;
    }
  };
  const instance = () => (chance(0.5) ? urlA : urlB);

  /**
   * The payer's move at the emulator; a 424 means its webhook was not accepted: the change stands all the same and the
   * emulator retries the webhook in the background.
   */
  async function act(view: View, action: 'complete' | 'error' | 'cancel') {
    const area = view.method === 'openfinance' ? 'payment-initiation' : 'transactions';
    // An anonymous PIX is completed with its payer named, as the contract wants.
    const named = view.method === 'pix' && action === 'complete';
    const response = await fetch(`${emulator.url}/sandbox/v1/partners-int/sandbox/${area}/${action}/${view.transactionId}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${sandboxToken}`, ...(named && { 'content-type': 'application/json' }) },
      ...(named && { body: JSON.stringify({ name: 'Pagador Soak', taxNumber: '52998224725' }) }),
    });
    await response.body?.cancel();
    if (response.status === 424) stats.actionRetries++;
    if (response.ok || response.status === 424) return bump(stats.actions, action);
    if (response.status === 409) return bump(stats.actionFailures, `${action}: already final (409)`);
    bump(stats.actionFailures, `${action}: HTTP ${response.status}`);
  }

  // The back office's operators: refunds of paid checkouts and cash-outs, on either instance (bench/soak/money-out.ts).
  const moneyOutStats = newMoneyOutStats();
  const moneyOut = moneyOutOperators({
    stats: moneyOutStats,
    adminToken: common.ADMIN_TOKEN,
    instance,
    async completeAtBank(transactionId) {
      const response = await fetch(`${emulator.url}/sandbox/admin/cashouts/${transactionId}/complete`, {
        method: 'POST',
        headers: { [ADMIN_KEY_HEADER]: emulator.adminKey },
      });
      await response.body?.cancel();
      // 424: the webhook of the change was not accepted (an instance down); the change stands and is retried.
      return response.ok || response.status === 424;
    },
  });

  async function shopper(order: { orderId: string; orderToken: string }, index: number) {
    const address = `10.${(index >> 16) & 255}.${(index >> 8) & 255}.${index & 255}`;
    const method = chance(0.85) ? 'pix' : 'openfinance';
    const body = { ...order, method, ...(method === 'openfinance' ? { payer: { cpf: VALID_CPF } } : {}) };
    let view: View | undefined;
    for (let attempt = 0; attempt < 8 && !view; attempt++) {
      if (attempt > 0) await sleep(between(200, 600) * attempt);
      if (chance(0.1)) {
        stats.doubleSubmits++;
        const both = await Promise.all([post(urlA, body, address), post(urlB, body, address)]);
        view = both.find(Boolean);
      } else view = await post(instance(), body, address);
    }
    if (!view) return void stats.gaveUp++;
    stats.gotCheckout++;
    if (chance(0.1)) {
      // A reload: the element posts the order again and must get the same checkout.
      await sleep(between(0, 2_000));
      stats.reloads++;
      const again = await post(instance(), body, address);
      if (again && again.transactionId !== view.transactionId) stats.reloadsWithAnotherTransaction++;
    }
    const roll = Math.random();
    const action = roll < 0.5 ? 'complete' : roll < 0.65 ? 'error' : roll < 0.7 && method === 'pix' ? 'cancel' : undefined;
    if (action) {
      await sleep(between(0, 1_500));
      const done = await act(view, action);
      if (done && action === 'complete' && chance(0.3)) await moneyOut.refund(view.id, amounts.get(order.orderId)!);
    }
    if (chance(0.1)) await moneyOut.payout();
  }

  say(`driving: emulator ${emulator.url}, BFF A ${urlA} (in process), BFF B ${urlB} (child), logs in ${logPath}`);
  let next = 0;
  let done = 0;
  const progress = setInterval(
    () => say(`${done}/${ORDERS} shoppers done, B killed ${kills} times, ${merchant.receipts.length} webhooks at the merchant`),
    15_000,
  );
  cleanups.push(() => clearInterval(progress));
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < orders.length) {
        const index = next++;
        await shopper(orders[index]!, index);
        done++;
      }
    }),
  );
  clearInterval(progress);
  const driveSeconds = (Date.now() - started) / 1_000;

  // The outage ends: no more faults; B comes back if it is down; the reconcilers catch up.
  faults.enabled = false;
  faults.burstUntil = 0;
  for (const deadline = Date.now() + 30_000; !bUp; await sleep(200)) {
    if (Date.now() > deadline) throw new Error(`B did not come back within 30 s; see ${logPath}`);
  }
  say(`driven in ${driveSeconds.toFixed(0)} s; faults off, letting the reconcilers settle (at most ${SETTLE_MS / 1_000} s)`);
  const orderIds = new Set(orders.map((o) => o.orderId));
  const measure = async () => {
    const store = await compare({ sandboxFile: emulator.file, databaseUrl, orderIds });
    const webhooks = await compareMerchant({ ...merchant, sandboxFile: emulator.file, databaseUrl, orderIds });
    const money = await compareMoneyOut({ sandboxFile: emulator.file, databaseUrl, intents: moneyOutStats.intents });
    return { store, webhooks, money, count: mismatchCount(store) + merchantMismatchCount(webhooks) + moneyOutMismatchCount(money) };
  };
  const settleStart = Date.now();
  await sleep(Math.min(12_000, SETTLE_MS));
  let result = await measure();
  let steady = 0;
  // Deliveries still owed (a lease of a killed instance runs 30 s) are progress to wait for, not a steady state.
  while ((result.count > 0 || owed(result.webhooks) > 0) && Date.now() - settleStart < SETTLE_MS && steady < 3) {
    await sleep(3_000);
    const previous = result.count;
    result = await measure();
    steady = result.count === previous && owed(result.webhooks) === 0 ? steady + 1 : 0;
  }
  const settleSeconds = (Date.now() - settleStart) / 1_000;

  report({
    ...{ result: result.store, stats, faults, kills, restarts, driveSeconds, settleSeconds, logPath, webhooks: result.webhooks },
    ...{ money: result.money, moneyStats: moneyOutStats },
  });
  return result.count;
}

function report(r: {
  result: Comparison;
  stats: Stats;
  faults: Faults;
  kills: number;
  restarts: number;
  driveSeconds: number;
  settleSeconds: number;
  logPath: string;
  webhooks: MerchantComparison;
  money: MoneyOutComparison;
  moneyStats: MoneyOutStats;
}) {
  const { result, stats, faults, webhooks, money } = r;
  const list = (map: Map<string, number>) =>
    [...map.entries()]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([k, v]) => `${k}: ${v}`)
      .join(', ') || 'none';
  const lines = [
    '',
    `checkouts (${r.driveSeconds.toFixed(0)} s driving, ${r.settleSeconds.toFixed(0)} s settling)`,
    `  shoppers: ${ORDERS}; got a checkout: ${stats.gotCheckout}; gave up after 8 tries: ${stats.gaveUp}; double submits: ${stats.doubleSubmits}; reloads: ${stats.reloads} (another transaction: ${stats.reloadsWithAnotherTransaction})`,
    `  POST /api/checkouts answers: ${list(stats.answers)}`,
    `  payer actions: ${list(stats.actions)}; webhook left to the emulator's retries (424): ${stats.actionRetries}; not done: ${list(stats.actionFailures)}`,
    `  our store: ${result.checkouts} checkouts (${list(result.byState)}), ${result.duplicates} kept as duplicates`,
    `  provider: ${result.providerTransactions} transactions for our orders (${list(result.providerByState)})`,
    `faults injected`,
    ...FAULT_KINDS.map((kind) => `  ${kind}: ${faults.counts.get(kind) ?? 0}`),
    `  5xx bursts: ${faults.bursts}; B restarted ${r.restarts} times after ${r.kills} kills`,
    `mismatches`,
    `  lost final states: ${result.mismatches.lost.length}`,
    `  regressed states: ${result.mismatches.regressed.length}`,
    `  duplicated final states: ${result.mismatches.duplicatedFinal.length}`,
    `  orders with two live transactions at the provider: ${result.mismatches.twoLive.length}`,
    `  total: ${mismatchCount(result)}`,
    `  (not counted: live provider transactions no checkout holds: ${result.untrackedLive.length}; live OpenFinance initiations whose bank address reached no payer, followed as duplicates: ${result.unreachableLive.length})`,
    ...merchantLines(webhooks, list),
    ...moneyOutLines(money, r.moneyStats, list),
    `total mismatches: ${mismatchCount(result) + merchantMismatchCount(webhooks) + moneyOutMismatchCount(money)}`,
  ];
  const examples = [
    ['lost', result.mismatches.lost],
    ['regressed', result.mismatches.regressed],
    ['duplicated', result.mismatches.duplicatedFinal],
    ['two live', result.mismatches.twoLive],
    ['untracked live', result.untrackedLive],
    ...Object.entries(webhooks.mismatches).map(([name, items]) => [`merchant webhooks, ${name}`, items] as const),
    ...Object.entries(money.mismatches).map(([name, items]) => [`money out, ${name}`, items] as const),
  ] as const;
  for (const [name, items] of examples) {
    if (items.length) lines.push(`examples, ${name}:`, ...items.slice(0, 5).map((item) => `  ${item}`));
  }
  lines.push(`BFF logs: ${r.logPath}${process.env.SOAK_KEEP ? '' : ' (deleted on exit; set SOAK_KEEP=1 to keep them)'}`);
  for (const line of lines) console.log(line);
}

const showMs = (s: Summary) =>
  s.n === 0 ? 'none' : `p50 ${s.p50.toFixed(0)} ms, p99 ${s.p99.toFixed(0)} ms, max ${s.max.toFixed(0)} ms (n ${s.n})`;

/** The merchant's side: what arrived, how, and the mismatches (counted in the total). */
function merchantLines(w: MerchantComparison, list: (map: Map<string, number>) => string): string[] {
  const m = w.mismatches;
  return [
    `merchant webhooks (one receiver, both instances, every copy verified with standardwebhooks)`,
    `  requests: ${w.requests} (from ${list(w.byInstance)}); copies with a body: ${w.copies}; answers: ${list(w.byOutcome)}`,
    `  distinct events received: ${w.events} (${list(w.byType)}); our store wrote ${w.storeEvents}; deliveries in our store: ${list(w.deliveries)}; not yet queued: ${w.notQueued}`,
    `  repeated copies (same webhook-id, at least once): ${w.repeats}; most copies of one event: ${w.mostCopies}`,
    `  provider: ${w.paidOrders} paid orders, ${w.paidTransactions} Completed transactions`,
    `  provider completion → merchant's first copy: ${showMs(w.firstReceipt)}`,
    `  provider completion → first copy answered 2xx in time: ${showMs(w.firstAcknowledged)}`,
    `  our store's commit of the payment (the event's createdAt) → merchant's first copy: ${showMs(w.commitToFirst)}`,
    `  deliveries in flight from B when it was killed: ${w.killedDuring}; delivered again after the kill: ${w.redeliveredAfterKill}`,
    `  paid orders without a checkout.completed: ${m.missingCompleted.length}`,
    `  Completed transactions without a paid event: ${m.missingPaidEvent.length}`,
    `  events of our store never received: ${m.neverReceived.length}`,
    `  events never answered 2xx in time (at least once not met): ${m.unacknowledged.length}`,
    `  copies that did not verify: ${m.unverifiable.length}`,
    `  events under two or more webhook-ids: ${m.twoIds.length}`,
    `  webhook-id not the event's id, or one id with two bodies: ${m.idMismatch.length}`,
    `  received events our store never wrote: ${m.unknown.length}`,
  ];
}

/** The back office's side: the refunds and cash-outs asked for, what became of them, and the mismatches (counted). */
function moneyOutLines(m: MoneyOutComparison, s: MoneyOutStats, list: (map: Map<string, number>) => string): string[] {
  const refunds = s.intents.filter((i) => i.kind === 'refund').length;
  return [
    `money out (refunds and cash-outs through the back office, one key per intent, nobody retrying those walked away from)`,
    `  intents: ${m.intents} (${refunds} refunds, ${m.intents - refunds} cash-outs); retries under the same key: ${s.retries}; walked away after a failure: ${s.walkedAway}; completed at the bank: ${s.completedAtBank}`,
    `  answers: ${list(s.answers)}`,
    `  provider: ${list(m.providerByState)}; our store: ${list(m.storeByState)}`,
    `  lost money out (made at the provider, not held as such by our store): ${m.mismatches.lost.length}`,
    `  doubled money out (two cash-outs for one intent, or refunds past what was paid): ${m.mismatches.doubled.length}`,
    `  left unknown (still Sending): ${m.mismatches.unknown.length}`,
  ];
}

let status: number;
process.once('SIGINT', () => {
  void cleanUp().finally(() => process.exit(130));
});
try {
  status = (await main()) > 0 ? 1 : 0;
} catch (error) {
  console.error(error instanceof Error ? (error.stack ?? error.message) : error);
  status = 2;
} finally {
  if (process.env.SOAK_KEEP) say('SOAK_KEEP is set: the temporary directory stays');
  await cleanUp();
}
process.exit(status);
