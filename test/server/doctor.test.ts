/**
 * `npm run doctor` against the emulator: a set-up ready to go live passes every check; a broken one fails each
 * check with one line that names the variable to fix, exits non-zero, and never prints a secret.
 */
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runDoctor } from '../../server/doctor';
import { SANDBOX_ACCESS_KEY, SANDBOX_SECRET } from '../../server/sandbox/defaults';
import { sendJson, startRecordingServer } from './helpers/http';
import { startSandbox } from './helpers/sandbox';
import { startTestBff, tempDir } from './helpers/server';

const secret = () => randomBytes(32).toString('base64url');
const PUBLIC = 'https://pay.shop.example';

let sandbox: Awaited<ReturnType<typeof startSandbox>>;
let bff: Awaited<ReturnType<typeof startTestBff>>;
let orders: Awaited<ReturnType<typeof startRecordingServer>>;
let env: Record<string, string>;

beforeAll(async () => {
  sandbox = await startSandbox();
  orders = await startRecordingServer((req, res) =>
    req.headers.authorization === `Bearer ${env.ORDERS_TOKEN}` ? sendJson(res, 404, {}) : sendJson(res, 401, {}),
  );
  env = {
    PROVIDER_BASE_URL: `${sandbox.url}/sandbox/v1`,
    PROVIDER_ACCESS_KEY: SANDBOX_ACCESS_KEY,
    PROVIDER_SECRET: SANDBOX_SECRET,
    PUBLIC_BASE_URL: PUBLIC,
    ALLOWED_ORIGINS: 'https://shop.example,https://www.shop.example',
    WEBHOOK_SECRET: secret(),
    WEBHOOK_SIGNING_KEY: secret(),
    ORDERS_URL: `${orders.url}/orders`,
    ORDERS_TOKEN: secret(),
    ADMIN_TOKEN: secret(),
  };
  // Its stored endpoint's receiver is on the loopback address, which the standalone BFF refuses unless told.
  bff = await startTestBff({ env, start: { endpointAddresses: { loopback: true } } });
  env.DATA_DIR = bff.dataDir;
});
afterAll(async () => {
  await bff.close();
  await orders.close();
  await sandbox.close();
});

/** The public address is the BFF behind an https proxy: the doctor's requests to it go to the BFF's loopback port. */
const viaProxy = (async (input: string | URL | Request, init?: RequestInit) => {
  const url = String(input instanceof Request ? input.url : input);
  return fetch(url.startsWith(PUBLIC) ? url.replace(PUBLIC, bff.url) : url, init);
}) as typeof fetch;

async function doctor(overrides: Record<string, string | undefined>) {
  const lines: string[] = [];
  const merged = { ...env, ...overrides };
  for (const [name, value] of Object.entries(merged)) if (value === undefined) delete merged[name];
  const { ok, results } = await runDoctor({ env: merged, fetch: viaProxy, print: (line) => lines.push(line), timeoutMs: 3_000 });
  return { ok, results, lines, output: lines.join('\n'), byName: Object.fromEntries(results.map((r) => [r.name, r])) };
}

const SECRET_NAMES = ['PROVIDER_SECRET', 'WEBHOOK_SECRET', 'WEBHOOK_SIGNING_KEY', 'ORDERS_TOKEN', 'ADMIN_TOKEN'];

describe('npm run doctor', () => {
  it('passes every check on a set-up ready to go live, one line each', async () => {
    const run = await doctor({});
    expect(
      run.results.filter((r) => !r.ok),
      run.output,
    ).toEqual([]);
    expect(run.ok).toBe(true);
    expect(run.results.map((r) => r.name)).toEqual([
      'configuration',
      'provider login',
      'balance',
      'clock skew',
      'public address',
      'webhook route',
      'webhook secret',
      'signing key',
      'order source',
      'database',
      'secrets key',
      'allowed origins',
      'merchant webhook',
    ]);
    expect(run.lines.slice(0, -1).every((line) => line.startsWith('PASS  '))).toBe(true);
    expect(run.byName['provider login']!.detail).toMatch(/token is valid for 60 minutes/);
    expect(run.byName['webhook route']!.detail).toContain('accepts this WEBHOOK_SECRET and WEBHOOK_SIGNING_KEY');
    expect(run.byName.database!.detail).toMatch(/schema version \d+, the latest/);
    expect(run.byName['merchant webhook']!.detail).toContain('MERCHANT_WEBHOOK_URL is not set');
    expect(run.lines.at(-1)).toBe('All 13 checks passed.');
    for (const name of SECRET_NAMES) expect(run.output).not.toContain(env[name]);
  });

  it('fails each check of a broken set-up, names what to fix, and prints no secret', async () => {
    const weak = 'a'.repeat(40);
    const run = await doctor({
      PROVIDER_SECRET: 'not-the-secret',
      PUBLIC_BASE_URL: 'http://pay.shop.example',
      ALLOWED_ORIGINS: undefined,
      WEBHOOK_SECRET: weak,
      WEBHOOK_SIGNING_KEY: undefined,
      ORDERS_URL: 'http://127.0.0.1:9/orders',
      DATA_DIR: tempDir(),
    });
    expect(run.ok).toBe(false);
    const failed = Object.fromEntries(run.results.filter((r) => !r.ok).map((r) => [r.name, r.detail]));
    expect(Object.keys(failed).sort()).toEqual(
      [
        'provider login',
        'balance',
        'public address',
        'webhook route',
        'webhook secret',
        'signing key',
        'order source',
        'database',
        'allowed origins',
      ].sort(),
    );
    // The refusal still carried the provider's Date header.
    expect(run.byName['clock skew']!.ok).toBe(true);
    expect(failed['provider login']).toContain('check PROVIDER_ACCESS_KEY and PROVIDER_SECRET');
    expect(failed['public address']).toContain('is not https');
    expect(failed['webhook secret']).toContain('too guessable');
    expect(failed['signing key']).toContain('WEBHOOK_SIGNING_KEY is not set');
    expect(failed['order source']).toContain('ORDERS_URL did not answer');
    expect(failed.database).toContain('start the server once');
    expect(failed['allowed origins']).toContain('ALLOWED_ORIGINS is not set');
    expect(run.lines.at(-1)).toBe('9 of 13 checks failed.');
    for (const value of ['not-the-secret', weak, env.ORDERS_TOKEN!, env.ADMIN_TOKEN!]) expect(run.output).not.toContain(value);
  });

  it('tells a server with other webhook settings, a refused order token and a pending key apart', async () => {
    await fetch(`${sandbox.url}/sandbox/admin/access-keys`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-sandbox-admin-key': sandbox.sandbox.adminKey },
      body: JSON.stringify({ accessKey: 'new-live-key', secret: 'new-live-secret' }),
    });
    const otherSecret = await doctor({ WEBHOOK_SECRET: secret(), ORDERS_TOKEN: secret() });
    expect(otherSecret.byName['webhook route']).toMatchObject({ ok: false, detail: expect.stringContaining('another WEBHOOK_SECRET') });
    expect(otherSecret.byName['order source']).toMatchObject({ ok: false, detail: expect.stringContaining('refused ORDERS_TOKEN') });
    const otherKey = await doctor({ WEBHOOK_SIGNING_KEY: secret() });
    expect(otherKey.byName['webhook route']).toMatchObject({ ok: false, detail: expect.stringContaining('another WEBHOOK_SIGNING_KEY') });
    const pending = await doctor({ PROVIDER_ACCESS_KEY: 'new-live-key', PROVIDER_SECRET: 'new-live-secret' });
    expect(pending.byName['provider login']).toMatchObject({ ok: false, detail: expect.stringContaining('invalid, pending or expired') });
    expect(pending.output).not.toContain('new-live-secret');
  });

  it("sends the merchant's endpoint a signed webhook.test: a 2xx passes, anything else fails with what came back", async () => {
    const whsec = `whsec_${randomBytes(32).toString('base64')}`;
    const answers = [204, 500];
    const backend = await startRecordingServer((_req, res) => void res.writeHead(answers.shift() ?? 204).end());
    try {
      const merchant = { MERCHANT_WEBHOOK_URL: `${backend.url}/hooks`, MERCHANT_WEBHOOK_SECRET: whsec };
      const ok = await doctor(merchant);
      expect(ok.byName['merchant webhook']).toMatchObject({ ok: true, detail: expect.stringContaining('answered 204') });
      const [request] = backend.requests;
      expect(request).toMatchObject({ method: 'POST', url: '/hooks' });
      const event = new Webhook(whsec).verify(request!.body, request!.headers as Record<string, string>) as { id: string; type: string };
      expect(event).toMatchObject({ id: request!.headers['webhook-id'], type: 'webhook.test' });
      expect(ok.output).not.toContain(whsec);

      const refused = await doctor(merchant);
      expect(refused.byName['merchant webhook']).toMatchObject({ ok: false, detail: expect.stringContaining('HTTP 500') });
      const down = await doctor({ ...merchant, MERCHANT_WEBHOOK_URL: 'http://127.0.0.1:9/hooks' });
      expect(down.byName['merchant webhook']).toMatchObject({ ok: false, detail: expect.stringContaining('did not answer') });
      expect(refused.output + down.output).not.toContain(whsec);
    } finally {
      await backend.close();
    }
  });

  it('sends each enabled endpoint kept in the store a signed webhook.test, one line each', async () => {
    const answers = [204, 500];
    const backend = await startRecordingServer((_req, res) => void res.writeHead(answers.shift() ?? 204).end());
    const auth = { authorization: `Bearer ${env.ADMIN_TOKEN}` };
    const added = (await bff.json('POST', '/api/admin/webhook-endpoints', { url: `${backend.url}/stored` }, auth)).body;
    try {
      const name = `webhook ${added.id}`;
      const ok = await doctor({});
      expect(ok.byName[name]).toMatchObject({ ok: true, detail: expect.stringContaining('answered 204') });
      const request = backend.requests.find((r) => r.url === '/stored')!;
      expect(new Webhook(added.secret).verify(request.body, request.headers as Record<string, string>)).toMatchObject({
        type: 'webhook.test',
      });
      expect(ok.output).not.toContain(added.secret);
      expect((await doctor({})).byName[name]).toMatchObject({ ok: false, detail: expect.stringContaining('HTTP 500') });
      await bff.json('POST', `/api/admin/webhook-endpoints/${added.id}/disable`, {}, auth);
      expect((await doctor({})).byName[name]).toBeUndefined();
    } finally {
      await bff.json('DELETE', `/api/admin/webhook-endpoints/${added.id}`, undefined, auth);
      await backend.close();
    }
  });

  it('runs as `npm run doctor` and exits non-zero when a check fails', () => {
    const child = spawnSync('npm', ['run', '--silent', 'doctor'], {
      cwd: new URL('../..', import.meta.url).pathname,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, DATA_DIR: tempDir(), WEBHOOK_SECRET: env.WEBHOOK_SECRET },
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(child.status).toBe(1);
    expect(child.stdout).toContain('FAIL  provider login');
    expect(child.stdout).toContain('PASS  configuration');
    expect(child.stdout).not.toContain(env.WEBHOOK_SECRET);
  });
});
