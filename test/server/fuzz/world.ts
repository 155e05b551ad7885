/**
 * The system under fuzz: one demo process (the BFF at /api, the console at /admin and the emulator at /sandbox, on
 * real sockets) on SQLite or on a fresh PostgreSQL database, with a few real things to aim at (orders with their
 * tokens, live, completed and failed checkouts, an OpenFinance bank page, a payment request with documents, the
 * demo's console users, a refund waiting for approval, the console's built files) and a snapshot of what is stored.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import pg from 'pg';
import { parseDemoUsers } from '../../../demo/demo-users';
import { signOrderToken } from '../../../server/bff/order-token';
import { keptSecret } from '../../../server/config';
import { SANDBOX_ACCESS_KEY, SANDBOX_SECRET } from '../../../server/sandbox/defaults';
import { startTestServer, type TestServer } from '../helpers/server';
import { createTestDatabase, TEST_DATABASE_URL, type TestDatabase } from '../store/pg-test-database';

export type DatabaseKind = 'sqlite' | 'postgres';

export const VALID_CPF = '52998224725';
/** Refunds and cash-outs above R$ 50,00 wait for an owner's approval: the world's pending refund is one. */
const APPROVAL_ABOVE = '50.00';
const PENDING_REFUND = '60.00';
/** Where the server reads the console's build from (server/server.ts), and so the names of its files. */
const CONSOLE_MANIFEST = fileURLToPath(new URL('../../../dist/console/manifest.json', import.meta.url));
const SEED_RECEIVER = 'c0a000000000000000000001';
const SEED_ACCOUNT = 'acc000000000000000000001';

export interface Known {
  /** Demo orders with a valid token; the first has no checkout yet. */
  orders: { orderId: string; orderToken: string }[];
  /** More orders without a checkout, so that many creations really insert (the first success per order does). */
  freshOrders: { orderId: string; orderToken: string }[];
  checkoutIds: string[];
  /** The completed checkout (among `checkoutIds`) and what was paid for it. */
  paidCheckout: { id: string; amount: string };
  /** A live checkout no fuzz target names, so it is still live (its event stream still open) when the suite ends. */
  quietCheckoutId: string;
  transactionIds: string[];
  /** OpenFinance bank pages: the uuid and transaction id of their address. */
  bankPages: { uuid: string; transactionId: string }[];
  cobIds: string[];
  receiverIds: string[];
  accountIds: string[];
  paymentRequestIds: string[];
  documentIds: string[];
  uploadTokens: string[];
  /** A console user of the demo (its operator) and its password, from DATA_DIR/demo-users.txt. */
  consoleUser: { email: string; password: string };
  /** Users the fuzz may change (the demo's viewer): never the one that signs in, never an owner. */
  userIds: string[];
  /** The idempotency key of the refund that waits for an owner's approval (asked for by `consoleUser`). */
  pendingApprovalKeys: string[];
  /** A payment request waiting for an owner's decision. */
  pendingPaymentKeys: string[];
  /** The console's built files under /admin/assets (none when dist/console is not built). */
  consoleAssets: string[];
}

export interface World {
  kind: DatabaseKind;
  server: TestServer;
  url: string;
  adminToken: string;
  webhookSecret: string;
  sandboxToken: string;
  /** The key of /sandbox/admin when the emulator has one. */
  sandboxAdminKey: string | undefined;
  /** The key order tokens are signed with. */
  orderTokenKey: string;
  /** Origins the BFF accepts as OpenFinance return addresses. */
  allowedOrigin: string;
  known: Known;
  /** The port of the PostgreSQL server the BFF uses (on postgres): a real service on loopback to aim endpoints at. */
  databasePort: number | undefined;
  /** Every stored row of the emulator and of the BFF's tables a refusal must not touch, as one comparable text. */
  snapshot(): Promise<string>;
  close(): Promise<void>;
}

const json = async (response: Response): Promise<any> => {
  const text = await response.text();
  if (!response.ok) throw new Error(`fuzz set-up: HTTP ${response.status}: ${text.slice(0, 500)}`);
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
};

export async function startWorld(kind: DatabaseKind): Promise<World> {
  let database: TestDatabase | undefined;
  if (kind === 'postgres') database = await createTestDatabase(TEST_DATABASE_URL!);
  // Creation is rate-limited per address, and every fuzz request comes from 127.0.0.1: without the limit, hostile
  // creations reach the store and the provider instead of stopping at a 429. The stream limits are low, so that the
  // suite can send more HEADs than they allow (none may hold a slot).
  const server = await startTestServer({
    env: {
      CHECKOUT_RATE_PER_MINUTE: '0',
      SSE_MAX_PER_CLIENT: '8',
      SSE_MAX_TOTAL: '16',
      // Bodies short of their Content-Length wait this long for their 408, so a few of them fit each property's time.
      BODY_TIMEOUT_MS: '300',
      APPROVAL_ABOVE,
      ...(database ? { DATABASE_URL: database.url } : {}),
    },
  });
  const url = server.url;
  const sandboxAdminKey = (server.sandbox as { adminKey?: string } | undefined)?.adminKey;
  const sandboxToken = (await json(
    await fetch(`${url}/sandbox/v1/partners-int/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        accessKey: server.config.sandboxKeys.accessKey ?? SANDBOX_ACCESS_KEY,
        secret: server.config.sandboxKeys.secret ?? SANDBOX_SECRET,
      }),
    }),
  )) as string;
  const partner = (method: string, path: string, body?: unknown) =>
    fetch(`${url}/sandbox/v1/partners-int${path}`, {
      method,
      headers: { authorization: `Bearer ${sandboxToken}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    }).then(json);

  // Orders and their tokens, as the shop gives them to the page.
  const orderTokenKey = server.ordersToken ?? keptSecret(server.dataDir, 'orders-token');
  const placeOrder = async () => {
    const placed = (await server.order()) as { orderId: string; orderToken?: string };
    return {
      orderId: placed.orderId,
      orderToken: placed.orderToken ?? signOrderToken(orderTokenKey, placed.orderId, new Date(Date.now() + 3_600_000)),
    };
  };
  const orders: Known['orders'] = [];
  for (let i = 0; i < 6; i++) orders.push(await placeOrder());
  const freshOrders: Known['orders'] = [];
  for (let i = 0; i < 80; i++) freshOrders.push(await placeOrder());
  const create = (index: number, body: Record<string, unknown>) =>
    fetch(`${url}/api/checkouts`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ...orders[index]!, ...body }),
    }).then(json) as Promise<{ id: string; transactionId: string; amount: string; qrCode?: string; checkoutUrl?: string }>;

  // orders[0] stays without a checkout; 1 live PIX, 2 completed PIX, 3 failed PIX, 4 live OpenFinance, 5 identified PIX.
  const live = await create(1, { method: 'pix' });
  const completed = await create(2, { method: 'pix' });
  await partner('POST', `/sandbox/transactions/complete/${completed.transactionId}`, { name: 'Maria', taxNumber: VALID_CPF });
  const failed = await create(3, { method: 'pix' });
  await partner('POST', `/sandbox/transactions/error/${failed.transactionId}`);
  const bank = await create(4, { method: 'openfinance', payer: { cpf: VALID_CPF } });
  const identified = await create(5, { method: 'pix', payer: { cpf: VALID_CPF, name: 'Maria' } });
  const quiet = (await fetch(`${url}/api/checkouts`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ ...(await placeOrder()), method: 'pix' }),
  }).then(json)) as { id: string };
  const checkouts = [live, completed, failed, bank, identified];
  const page = /\/init\/([^/]+)\/([^/?#]+)/.exec(bank.checkoutUrl ?? '');
  const cob = /QR\/cob\/([0-9a-f]+)/i.exec(live.qrCode ?? '');

  // A payment request with two documents: one waiting for its file, one uploaded.
  const request = (await partner('POST', '/accounts/transaction-requests', {
    amount: '10.00',
    description: 'Fuzz',
    refReceiver: SEED_RECEIVER,
    refBankAccount: SEED_ACCOUNT,
  })) as { data: { id: string } };
  const paymentRequestId = request.data.id;
  const uploadTokens: string[] = [];
  for (const fileName of ['nota.pdf', 'outra.pdf']) {
    const address = (await partner('POST', '/documents', {
      properties: { name: fileName },
      ownerType: 'Transaction',
      owner: paymentRequestId,
      type: 'Invoice',
      fileName,
    })) as { data: string };
    uploadTokens.push(decodeURIComponent(new URL(address.data).pathname.split('/').pop()!));
  }
  await fetch(`${url}/sandbox/v1/uploads/${uploadTokens[1]}`, {
    method: 'PUT',
    headers: { 'content-type': 'application/pdf' },
    body: '%PDF-1.4\n%%EOF\n',
  }).then(json);
  const documents = (await partner('GET', `/documents?type=Invoice&ownerType=Transaction&owner=${paymentRequestId}`)) as {
    data: { items: { id: string }[] };
  };

  // The demo's console users (added at its first start): the operator asks for a refund and a payment request above
  // the threshold, which wait for an owner (the bearer token is one, and not their maker: it may reject them, and its
  // approval is refused, since it is no second person).
  const users = parseDemoUsers(readFileSync(server.demoUsers!.file, 'utf8'));
  const operator = users.find((u) => u.role === 'operator')!;
  const viewer = users.find((u) => u.role === 'viewer')!;
  const origin = new URL(server.publicBaseUrl).origin;
  const signIn = await fetch(`${url}/api/admin/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin },
    body: JSON.stringify({ email: operator.email, password: operator.password }),
  });
  await json(signIn);
  const cookie = /pix_admin=[^;]*/.exec(signIn.headers.get('set-cookie') ?? '')![0];
  const pendingKey = 'fuzz-pending-refund';
  const pending = (await fetch(`${url}/api/admin/checkouts/${completed.id}/refunds`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie, origin, 'idempotency-key': pendingKey },
    body: JSON.stringify({ amount: PENDING_REFUND }),
  }).then(json)) as { state: string };
  if (pending.state !== 'PendingApproval') throw new Error(`fuzz set-up: the refund is ${pending.state}, not waiting for approval`);
  const pendingPaymentKey = 'fuzz-pending-payment';
  const pendingPayment = (await fetch(`${url}/api/admin/payment-requests`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie, origin, 'idempotency-key': pendingPaymentKey },
    body: JSON.stringify({ amount: PENDING_REFUND, description: 'Fuzz pending', receiverId: SEED_RECEIVER, accountId: SEED_ACCOUNT }),
  }).then(json)) as { state: string };
  if (pendingPayment.state !== 'PendingApproval') {
    throw new Error(`fuzz set-up: the payment request is ${pendingPayment.state}, not waiting for approval`);
  }
  const manifest = existsSync(CONSOLE_MANIFEST) ? (JSON.parse(readFileSync(CONSOLE_MANIFEST, 'utf8')) as { assets: object }) : undefined;

  const known: Known = {
    orders,
    freshOrders,
    checkoutIds: checkouts.map((c) => c.id),
    paidCheckout: { id: completed.id, amount: completed.amount },
    quietCheckoutId: quiet.id,
    transactionIds: checkouts.map((c) => c.transactionId),
    bankPages: page ? [{ uuid: decodeURIComponent(page[1]!), transactionId: decodeURIComponent(page[2]!) }] : [],
    cobIds: cob ? [cob[1]!] : [],
    receiverIds: ['c0a000000000000000000001', 'c0a000000000000000000002', 'c0a000000000000000000003', 'c0a000000000000000000004'],
    accountIds: [SEED_ACCOUNT, 'acc000000000000000000002', 'acc000000000000000000003', 'acc000000000000000000004'],
    paymentRequestIds: [paymentRequestId],
    documentIds: documents.data.items.map((d) => d.id),
    uploadTokens: [uploadTokens[0]!],
    consoleUser: { email: operator.email, password: operator.password },
    userIds: [(await server.store.findUserByEmail(viewer.email))!.id],
    pendingApprovalKeys: [pendingKey],
    pendingPaymentKeys: [pendingPaymentKey],
    consoleAssets: manifest ? Object.keys(manifest.assets) : [],
  };

  const snapshots = await openSnapshots(server.dataDir, database?.url);
  return {
    kind,
    server,
    url,
    adminToken: server.config.adminToken,
    webhookSecret: server.config.webhookSecret,
    sandboxToken,
    sandboxAdminKey,
    orderTokenKey,
    allowedOrigin: server.allowedOrigins[0]!,
    known,
    databasePort: database ? Number(new URL(database.url).port) || 5432 : undefined,
    snapshot: snapshots.take,
    async close() {
      await snapshots.close();
      await server.close();
      await database?.drop();
    },
  };
}

const EMULATOR_TABLES = ['transactions', 'receivers', 'receiver_accounts', 'payment_requests', 'approval_steps', 'documents'];
/**
 * An invoice upload is two calls to the provider: an upload address (which the emulator lists as a document awaiting
 * its file), then the file. An upload that passed every check of the BFF and then stopped halfway (408) has used an
 * address the provider lets expire (300 s); what it must not leave is a file. So the documents compared are those that
 * hold one: a refusal that stored a file, or changed a stored one, is still caught.
 */
const EMULATOR_READS: Record<string, string> = { documents: 'SELECT * FROM documents WHERE uploaded_at IS NOT NULL' };
/**
 * The BFF's tables a refusal must leave alone: payments, cash-outs and refunds, payment requests, the console's users and sessions. Not
 * the audit trail, which records refusals by design, nor the delivery worker's tables, which move by themselves.
 */
const STORE_TABLES = ['checkouts', 'checkout_events', 'cashouts', 'company_payments', 'admin_users', 'admin_sessions'];

/** Rows as text; blobs as their length and hash, so a snapshot stays small and exact. */
function rowsText(table: string, rows: unknown[]): string {
  const plain = rows.map((row) =>
    Object.fromEntries(
      Object.entries(row as Record<string, unknown>).map(([k, v]) => [
        k,
        Buffer.isBuffer(v) ? `blob:${v.length}:${createHash('sha256').update(v).digest('hex')}` : v instanceof Date ? v.toISOString() : v,
      ]),
    ),
  );
  const sorted = plain.map((row) => JSON.stringify(row)).sort();
  return `${table}\n${sorted.join('\n')}`;
}

async function openSnapshots(dataDir: string, databaseUrl: string | undefined) {
  const emulator = new Database(join(dataDir, 'sandbox.sqlite'), { readonly: true, fileMustExist: true });
  const sqliteStore = databaseUrl ? undefined : new Database(join(dataDir, 'checkout.sqlite'), { readonly: true, fileMustExist: true });
  const pgStore = databaseUrl ? new pg.Client({ connectionString: databaseUrl }) : undefined;
  await pgStore?.connect();
  return {
    async take(): Promise<string> {
      const parts = EMULATOR_TABLES.map((table) =>
        rowsText(`sandbox.${table}`, emulator.prepare(EMULATOR_READS[table] ?? `SELECT * FROM ${table}`).all()),
      );
      for (const table of STORE_TABLES) {
        const rows = pgStore ? (await pgStore.query(`SELECT * FROM ${table}`)).rows : sqliteStore!.prepare(`SELECT * FROM ${table}`).all();
        parts.push(rowsText(`store.${table}`, rows));
      }
      return parts.join('\n\n');
    },
    async close() {
      emulator.close();
      sqliteStore?.close();
      await pgStore?.end();
    },
  };
}
