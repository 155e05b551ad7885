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
 * - BFF A runs in this process; BFF B is a child process (bench/soak/instance-b.ts) that the provider proxy kills with
 *   SIGKILL while one of its creations is in flight, and that is started again on the same DATA_DIR, DATABASE_URL and
 *   port.
 * - Orders come from a stub of the order contract (ORDERS_URL, bench/soak/services.ts); each shopper
 *   (bench/soak/shoppers.ts) posts the order with its order token to one instance (sometimes to both at once), retries
 *   on failure like the element does, sometimes reloads, and the payer completes, fails or cancels a share of the
 *   payments at the emulator.
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
 *   cash-outs of its order id (none lost, none doubled, none left unknown); bench/soak/report.ts prints the figures.
 *   Exit status 1 when there is any mismatch.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { signOrderToken } from '../server/bff/order-token';
import { loadConfig } from '../server/config';
import { ADMIN_KEY_HEADER } from '../server/sandbox/company/routes/admin';
import { SANDBOX_ACCESS_KEY, SANDBOX_SECRET } from '../server/sandbox/defaults';
import { startServer, type Tuning } from '../server/server';
import { freePort } from '../test/server/helpers/http';
import { compare, mismatchCount } from './soak/compare';
import { instanceB } from './soak/instance-b';
import { startMerchantReceiver } from './soak/merchant';
import { compareMerchant, merchantMismatchCount, owed } from './soak/merchant-compare';
import { compareMoneyOut, moneyOutMismatchCount, moneyOutOperators, newMoneyOutStats } from './soak/money-out';
import { between, chance } from './soak/odds';
import { Faults, sleep, startProviderProxy, startWebhookProxy } from './soak/proxy';
import { report } from './soak/report';
import { postgres, startEmulator, startOrderService, type Cleanups } from './soak/services';
import { newShopperStats, shopperOf } from './soak/shoppers';

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

const tuning: Tuning = Object.assign(
  { providerTimeoutMs: PROVIDER_TIMEOUT_MS, reconcileIntervalMs: 1_000, staleAfterMs: 3_000 },
  // Reservations left by a crash or a timeout are settled after this (a knob of the crash-safe creation).
  { settleAfterMs: 5_000 },
  // The merchant's webhooks are tried again within seconds, not minutes, so the retries end while the system settles
  // (past the list the product waits 12 h: the list is long enough that no event gets there).
  { merchantWebhookRetryDelaysMs: [200, 500, 1_000, 2_000, 2_000, 2_000, 2_000, 2_000, 2_000, 2_000, 2_000, 2_000] },
);

const say = (line: string) => console.log(`soak: ${line}`);

const cleanups: Cleanups = [];
async function cleanUp() {
  for (const cleanup of cleanups.splice(0).reverse()) {
    try {
      await cleanup();
    } catch (error) {
      say(`clean-up: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}

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
  const databaseUrl = await postgres(cleanups, say);
  const emulator = await startEmulator(join(root, 'emulator'), cleanups);
  const ordersToken = randomBytes(24).toString('base64url');
  const amounts = new Map<string, number>();
  const runId = randomUUID().slice(0, 8);
  const orders = Array.from({ length: ORDERS }, (_, i) => {
    const orderId = `S-${runId}-${i}`;
    amounts.set(orderId, 100 + Math.floor(Math.random() * 50_000));
    return { orderId, orderToken: signOrderToken(ordersToken, orderId, new Date(Date.now() + 6 * 3_600_000)) };
  });
  const orderServiceUrl = await startOrderService(ordersToken, amounts, cleanups);

  // Instance B is a child process; the provider proxy kills it mid-creation and it is started again.
  const faults = new Faults();
  const portB = await freePort();
  const b = instanceB({ port: portB, logFile, logPath, say });
  const urlB = b.url;
  let urlA = '';

  const merchantSecret = `whsec_${randomBytes(32).toString('base64')}`;
  const merchant = await startMerchantReceiver({ secret: merchantSecret, faults, kill: (instance) => instance === 'b' && b.kill() });
  cleanups.push(merchant.close);

  const webhookProxy = await startWebhookProxy({ faults, targets: () => [urlA, ...(b.up ? [urlB] : [])].filter(Boolean) });
  cleanups.push(webhookProxy.close);
  const providerProxy = await startProviderProxy({
    emulator: emulator.url,
    faults,
    providerTimeoutMs: PROVIDER_TIMEOUT_MS,
    killChance: 0.05,
    kill: (instance) => instance === 'b' && b.kill(),
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

  await b.start({
    ...process.env,
    ...common,
    PORT: String(portB),
    DATA_DIR: join(root, 'bff-b'),
    PROVIDER_BASE_URL: `${providerProxy.url}/b/sandbox/v1`,
    MERCHANT_WEBHOOK_URL: `${merchant.url}/b/hooks`,
    BFF_TUNING: JSON.stringify(tuning),
  });
  cleanups.push(() => b.stop());

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

  const stats = newShopperStats();
  const instance = () => (chance(0.5) ? urlA : urlB);

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

  const shopper = shopperOf({ stats, urlA, urlB, instance, emulatorUrl: emulator.url, sandboxToken, amounts, moneyOut });

  say(`driving: emulator ${emulator.url}, BFF A ${urlA} (in process), BFF B ${urlB} (child), logs in ${logPath}`);
  let next = 0;
  let done = 0;
  const progress = setInterval(
    () => say(`${done}/${ORDERS} shoppers done, B killed ${b.kills} times, ${merchant.receipts.length} webhooks at the merchant`),
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
  for (const deadline = Date.now() + 30_000; !b.up; await sleep(200)) {
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
    ...{ orders: ORDERS, result: result.store, stats, faults, kills: b.kills, restarts: b.restarts, driveSeconds, settleSeconds },
    ...{ logPath, webhooks: result.webhooks },
    ...{ money: result.money, moneyStats: moneyOutStats },
  });
  return result.count;
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
