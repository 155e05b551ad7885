/**
 * `npm run serve` on the production build (scripts/build-server.mjs → dist/server, started by scripts/serve.mjs with
 * plain Node): the built server answers and takes a payment whose merchant webhook leaves from the built delivery
 * thread (a worker file found at run time), and the launcher refuses a build that is missing or older than its
 * sources, in one line naming `npm run build`.
 */
import { spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signOrderToken } from '../../../server/bff/order-token';
import { freePort, sendJson, startRecordingServer } from '../helpers/http';
import { ensureServerBuild, plainNodeEnv, ROOT, until } from '../helpers/server-build';
import { jsonClient, startTestServer, tempDir, type TestServer } from '../helpers/server';
import { createTestDatabase, TEST_DATABASE_URL, type TestDatabase } from '../store/pg-test-database';

const ORDERS_TOKEN = 'orders-token-of-the-build-test';
const MERCHANT_SECRET = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;

/** Runs `node <script>` in `cwd` with `env`; its output and exit code once it exits, and the child meanwhile. */
function node(script: string, { cwd = ROOT, env = {} }: { cwd?: string; env?: Record<string, string> } = {}) {
  const child = spawn(process.execPath, [script], { cwd, env: plainNodeEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, exited, output: () => output };
}

/** SQLite always; PostgreSQL too when the run has one (TEST_DATABASE_URL), in a database of its own. */
const databases = [{ name: 'SQLite', base: undefined }, ...(TEST_DATABASE_URL ? [{ name: 'PostgreSQL', base: TEST_DATABASE_URL }] : [])];

describe.each(databases)('the built server (npm run serve) on $name', ({ base }) => {
  let database: TestDatabase | undefined;
  let provider: TestServer;
  let orders: Awaited<ReturnType<typeof startRecordingServer>>;
  let merchant: Awaited<ReturnType<typeof startRecordingServer>>;
  let served: ReturnType<typeof node>;
  let url: string;

  beforeAll(async () => {
    ensureServerBuild();
    database = base ? await createTestDatabase(base) : undefined;
    provider = await startTestServer();
    orders = await startRecordingServer((req, res) =>
      req.url === '/orders/B-1' ? sendJson(res, 200, { amountCents: 1_234, description: 'Pedido B-1' }) : sendJson(res, 404, {}),
    );
    merchant = await startRecordingServer((_req, res) => sendJson(res, 200, {}));
    const port = await freePort();
    url = `http://127.0.0.1:${port}`;
    served = node('scripts/serve.mjs', {
      env: {
        PORT: String(port),
        DATA_DIR: tempDir(),
        DATABASE_URL: database?.url ?? '',
        SECRETS_KEY: Buffer.alloc(32, 7).toString('base64url'),
        // Shared by the process's own secrets and every instance on PostgreSQL.
        WEBHOOK_SECRET: 'webhook-secret-of-the-build-test-0123456789',
        PROVIDER_BASE_URL: `${provider.url}/sandbox/v1`,
        PROVIDER_ACCESS_KEY: 'sandbox-access-key',
        PROVIDER_SECRET: 'sandbox-secret',
        ORDERS_URL: `${orders.url}/orders`,
        ORDERS_TOKEN,
        MERCHANT_WEBHOOK_URL: `${merchant.url}/hooks`,
        MERCHANT_WEBHOOK_SECRET: MERCHANT_SECRET,
      },
    });
    await until('the built server to be ready', async () => {
      if (served.child.exitCode !== null) throw new Error(`serve stopped:\n${served.output()}`);
      const answer = await fetch(`${url}/readyz`).catch(() => undefined);
      return answer?.status === 200 ? true : undefined;
    });
  }, 60_000);

  afterAll(async () => {
    if (served?.child.exitCode === null) {
      served.child.kill('SIGTERM');
      await served.exited;
    }
    await merchant?.close();
    await orders?.close();
    await provider?.close();
    await database?.drop();
  });

  it('answers /readyz and /healthz', async () => {
    const json = jsonClient(url);
    expect((await json('GET', '/readyz')).status).toBe(200);
    expect(await json('GET', '/healthz')).toMatchObject({ status: 200, body: { status: 'ok', provider: 'remote' } });
  });

  it("takes a payment, and the merchant's webhook leaves from the built delivery thread", async () => {
    const json = jsonClient(url);
    const orderToken = signOrderToken(ORDERS_TOKEN, 'B-1', new Date(Date.now() + 3_600_000));
    const created = await json('POST', '/api/checkouts', { orderId: 'B-1', orderToken, method: 'pix' });
    expect(created).toMatchObject({ status: 201, body: { orderId: 'B-1', amount: '12.34', state: 'Registered' } });
    await provider.provider.sandbox.pix.complete(created.body.transactionId, { name: 'Maria Pagadora', taxNumber: '52998224725' });
    const delivered = await until('the checkout.completed webhook', () =>
      merchant.requests.find((request) => request.body.includes('checkout.completed') && request.body.includes(created.body.id)),
    );
    expect(delivered.headers['webhook-signature']).toMatch(/^v1,/);
    expect(served.output()).not.toMatch(/delivery thread (could not start|failed)/);
  });
});

describe('the server build', () => {
  beforeAll(ensureServerBuild, 60_000);

  it('lists the sources it was built from, the worker entry among them', () => {
    const { inputs } = JSON.parse(readFileSync(join(ROOT, 'dist/server/build.json'), 'utf8')) as { inputs: string[] };
    expect(inputs).toEqual(expect.arrayContaining(['server/main.ts', 'server/merchant-webhooks/thread-entry.ts', 'core/money.ts']));
    expect(inputs.some((input) => input.includes('node_modules'))).toBe(false);
  });
});

describe("npm run serve's check of the build", () => {
  /** A folder laid out as the repository, with the launcher and a stand-in build whose main.js prints a line. */
  function layout({ built, sourceAge }: { built: boolean; sourceAge?: 'older' | 'newer' }) {
    const root = tempDir('pix-serve-check-');
    mkdirSync(join(root, 'scripts'));
    for (const script of ['serve.mjs', 'server-build.mjs']) copyFileSync(join(ROOT, 'scripts', script), join(root, 'scripts', script));
    mkdirSync(join(root, 'server'));
    writeFileSync(join(root, 'server/main.ts'), '');
    if (built) {
      const builtAt = Date.now();
      mkdirSync(join(root, 'dist/server'), { recursive: true });
      writeFileSync(join(root, 'dist/server/main.js'), "console.log('the built server started');\n");
      writeFileSync(join(root, 'dist/server/build.json'), JSON.stringify({ builtAt, inputs: ['server/main.ts'] }));
      const mtime = new Date(builtAt + (sourceAge === 'newer' ? 60_000 : -60_000));
      utimesSync(join(root, 'server/main.ts'), mtime, mtime);
    }
    return root;
  }

  it('refuses to start without a build, in one line naming npm run build', async () => {
    const run = node('scripts/serve.mjs', { cwd: layout({ built: false }) });
    expect(await run.exited).toBe(1);
    expect(run.output().trim()).toBe('serve: no server build (dist/server); run `npm run build` first.');
  });

  it('refuses a build older than one of its sources, naming that source and npm run build', async () => {
    const run = node('scripts/serve.mjs', { cwd: layout({ built: true, sourceAge: 'newer' }) });
    expect(await run.exited).toBe(1);
    expect(run.output().trim()).toBe('serve: the server build (dist/server) is older than server/main.ts; run `npm run build` again.');
  });

  it('starts a build newer than all its sources', async () => {
    const run = node('scripts/serve.mjs', { cwd: layout({ built: true, sourceAge: 'older' }) });
    expect(await run.exited).toBe(0);
    expect(run.output().trim()).toBe('the built server started');
  });
});
