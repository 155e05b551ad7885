/**
 * Secrets at rest, on the product as it runs (SQLite, the embedded key): an endpoint's secret, an API key and a
 * console user's TOTP seed, each answered once, are in neither the database file, its WAL, nor `npm run admin --
 * backup`; `rotate-secrets-key` with the server stopped re-seals under a new key, and the restarted server signs with
 * the same secret, verified by the Standard Webhooks library, and takes a code of the same seed. On PostgreSQL
 * (TEST_DATABASE_URL), a pg_dump holds none of them.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Secret, TOTP } from 'otpauth';
import { Webhook } from 'standardwebhooks';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { keyIdOf, parseSecretsKey } from '../../../server/lib/sealer';
import { runAdminCli } from '../helpers/admin-cli';
import { startRecordingServer } from '../helpers/http';
import { startTestServer, tempDir, type TestServer } from '../helpers/server';
import { createTestDatabase, TEST_DATABASE_URL, pgDump, type TestDatabase } from '../store/pg-test-database';

const TOKEN = 'admin-token-for-secrets-at-rest-0123';
const SLOW = 90_000;

/** The CLI on `dataDir`'s SQLite store, whatever the suite's database. */
function admin(dataDir: string, args: string[]) {
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, ADMIN_TOKEN: TOKEN };
  delete env.DATABASE_URL;
  delete env.SECRETS_KEY;
  return runAdminCli(args, env);
}

const PASSWORD = 'a long enough password';

/** A code of the TOTP `secret`, `steps` time steps (of 30 s) from now: the BFF takes one step either side. */
const codeOf = (secret: string, steps = 0) =>
  new TOTP({ secret: Secret.fromBase32(secret) }).generate({ timestamp: Date.now() + steps * 30_000 });

/** A console user made with the bearer token, signed in, with the TOTP turned on: its e-mail and TOTP seed. */
async function totpUser(server: TestServer) {
  const email = `totp-${Math.random().toString(36).slice(2)}@example.com`;
  const bearer = { authorization: `Bearer ${TOKEN}` };
  expect((await server.json('POST', '/api/admin/users', { email, role: 'owner', password: PASSWORD }, bearer)).status).toBe(201);
  const signedIn = await server.json('POST', '/api/admin/session', { email, password: PASSWORD });
  const headers = { cookie: (signedIn.headers.get('set-cookie') ?? '').split(';')[0]!, origin: server.url };
  const { secret } = (await server.json('POST', '/api/admin/me/mfa/totp', {}, headers)).body as { secret: string };
  const confirmed = await server.json('POST', '/api/admin/me/mfa/totp/confirm', { code: codeOf(secret) }, headers);
  expect(confirmed.status, confirmed.text).toBe(200);
  return { email, secret };
}

/** Whether a TOTP code of `secret` (the next step's: this one was spent) still opens the sign-in of `email`. */
async function totpOpens(server: TestServer, email: string, secret: string) {
  const first = await server.json('POST', '/api/admin/session', { email, password: PASSWORD });
  const cookie = /(pix_sign_in=[^;]*)/.exec(first.headers.get('set-cookie') ?? '')![1]!;
  const second = await server.json('POST', '/api/admin/session/mfa', { code: codeOf(secret, 1) }, { cookie, origin: server.url });
  return second.status === 200;
}

/** Every byte of the files, as text that holds any ASCII secret as it is. */
const bytesOf = (...files: string[]) =>
  files
    .filter(existsSync)
    .map((file) => readFileSync(file).toString('latin1'))
    .join('');

describe('secrets at rest (SQLite, the embedded key)', () => {
  const dataDir = tempDir('secrets-at-rest-');
  const database = join(dataDir, 'checkout.sqlite');
  let server: TestServer | undefined;
  const start = async () => {
    server = await startTestServer({ dataDir, env: { ADMIN_TOKEN: TOKEN } });
    return server;
  };
  const call = (method: string, path: string, body?: unknown) =>
    server!.json(method, `/api/admin${path}`, body, { authorization: `Bearer ${TOKEN}` });
  afterAll(async () => server?.close());

  it(
    'keeps no endpoint secret, API key or TOTP seed in the file, its WAL or a backup, and signs and takes codes the same after a key rotation',
    async () => {
      const receiver = await startRecordingServer((_req, res) => void res.writeHead(204).end());
      try {
        await start();
        const endpoint = await call('POST', '/webhook-endpoints', { url: `${receiver.url}/hooks` });
        expect(endpoint.status, endpoint.text).toBe(201);
        const { id, secret } = endpoint.body as { id: string; secret: string };
        const key = await call('POST', '/api-keys', { name: 'at-rest', role: 'viewer' });
        expect(key.status, key.text).toBe(201);
        const apiKey = (key.body as { key: string }).key;
        const totp = await totpUser(server!);
        const needles = { secret, secretBody: secret.slice('whsec_'.length), apiKey, totpSeed: totp.secret };

        // While the server runs: the file and the WAL beside it, as a copy of the folder would take them.
        const live = bytesOf(database, `${database}-wal`);
        expect(live).toContain(id);
        for (const [name, needle] of Object.entries(needles)) expect(live.includes(needle), name).toBe(false);

        const backupFile = join(tempDir('secrets-backup-'), 'store.sqlite');
        const backup = await admin(dataDir, ['backup', backupFile]);
        expect(backup.code, backup.stderr).toBe(0);
        const copied = bytesOf(backupFile);
        expect(copied).toContain(id);
        for (const [name, needle] of Object.entries(needles)) expect(copied.includes(needle), name).toBe(false);

        // The rotation, with the server stopped, as the docs say for the embedded key.
        const oldKey = readFileSync(join(dataDir, 'secrets-key'), 'utf8').trim();
        await server!.close();
        server = undefined;
        const rotated = await admin(dataDir, ['rotate-secrets-key']);
        expect(rotated.code, rotated.stderr).toBe(0);
        expect(rotated.stdout).toMatch(/A new key was generated .* [1-9]\d* re-sealed/s);
        expect(readFileSync(join(dataDir, 'secrets-key'), 'utf8').trim()).not.toBe(oldKey);
        expect(readFileSync(join(dataDir, 'secrets-key.previous'), 'utf8').trim()).toBe(oldKey);
        // The TOTP seed is one of the re-sealed values (server/store/sealed-columns.ts), not left under the old key.
        const newKeyId = keyIdOf(parseSecretsKey(readFileSync(join(dataDir, 'secrets-key'), 'utf8').trim()));
        const raw = new (await import('better-sqlite3')).default(database, { readonly: true });
        const { seed } = raw.prepare('SELECT seed FROM admin_totp').get() as { seed: string };
        raw.close();
        expect(seed.startsWith(`sealed:v1:${newKeyId}:`)).toBe(true);

        await start();
        const test = await call('POST', `/webhook-endpoints/${id}/test`);
        expect(test.body).toMatchObject({ delivered: true });
        await vi.waitFor(() => expect(receiver.requests.length).toBeGreaterThan(0));
        const delivered = receiver.requests.at(-1)!;
        expect(new Webhook(secret).verify(delivered.body, delivered.headers as Record<string, string>)).toMatchObject({
          type: expect.any(String),
        });
        expect(await totpOpens(server!, totp.email, totp.secret)).toBe(true);
        // The rotation is in the trail, and still no secret is in the file.
        const audit = await call('GET', '/audit?limit=50');
        expect(JSON.stringify(audit.body)).toContain('secrets_key.rotate');
        const after = bytesOf(database, `${database}-wal`);
        for (const [name, needle] of Object.entries(needles)) expect(after.includes(needle), name).toBe(false);
      } finally {
        await receiver.close();
      }
    },
    SLOW,
  );
});

describe.skipIf(!TEST_DATABASE_URL)('secrets at rest (PostgreSQL, SECRETS_KEY)', () => {
  let database: TestDatabase | undefined;
  let server: TestServer | undefined;
  afterAll(async () => {
    await server?.close();
    await database?.drop();
  });

  it(
    'keeps no endpoint secret, API key or TOTP seed in a pg_dump',
    async () => {
      database = await createTestDatabase(TEST_DATABASE_URL!);
      server = await startTestServer({ env: { ADMIN_TOKEN: TOKEN, DATABASE_URL: database.url } });
      const call = (method: string, path: string, body?: unknown) =>
        server!.json(method, `/api/admin${path}`, body, { authorization: `Bearer ${TOKEN}` });
      const endpoint = await call('POST', '/webhook-endpoints', { url: 'https://shop.example/hooks' });
      expect(endpoint.status, endpoint.text).toBe(201);
      const { id, secret } = endpoint.body as { id: string; secret: string };
      const key = await call('POST', '/api-keys', { name: 'at-rest', role: 'viewer' });
      expect(key.status, key.text).toBe(201);
      const totp = await totpUser(server);
      const dump = pgDump(database.url);
      expect(dump).toContain(id);
      for (const needle of [secret, secret.slice('whsec_'.length), (key.body as { key: string }).key, totp.secret]) {
        expect(dump.includes(needle)).toBe(false);
      }
    },
    SLOW,
  );
});
