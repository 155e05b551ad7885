/**
 * The doctor's check of SECRETS_KEY (server/doctor-secrets.ts) on a SQLite store: it passes with the key the store's
 * values are sealed under, fails naming the canary's key with another, names a value under a key not held, and tells
 * of values still clear.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/config';
import { checkSecretsKey } from '../../server/doctor-secrets';
import { createSealer, keyIdOf } from '../../server/lib/sealer';
import { sealEndpointSecret } from '../../server/merchant-webhooks/endpoint-secrets';
import { openSqliteStore } from '../../server/store/sqlite';

const dirs: string[] = [];
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));
const key = (n: number) => Buffer.alloc(32, n);
const configWith = (dir: string, current: number, previous?: number) =>
  loadConfig({
    DATA_DIR: dir,
    SECRETS_KEY: key(current).toString('hex'),
    ...(previous ? { SECRETS_KEY_PREVIOUS: key(previous).toString('hex') } : {}),
  });

/** A data directory whose store's canary and one endpoint are sealed under key `n`. */
async function storeSealedUnder(n: number) {
  const dir = mkdtempSync(join(tmpdir(), 'doctor-secrets-'));
  dirs.push(dir);
  const store = openSqliteStore({ file: join(dir, 'checkout.sqlite') });
  const sealer = createSealer(key(n));
  await store.sealClearValues(sealer);
  const { secret, hint } = sealEndpointSecret(sealer, 'we_one', `whsec_${Buffer.alloc(32, 3).toString('base64')}`);
  await store.addWebhookEndpoint({
    id: 'we_one',
    url: 'https://a.example/h',
    types: [],
    secret,
    secretHint: hint,
    createdAt: new Date().toISOString(),
  });
  await store.close();
  return dir;
}

describe('the doctor on SECRETS_KEY', () => {
  it('passes with the key the values are sealed under, and fails naming the key of the canary with another', async () => {
    const dir = await storeSealedUnder(1);
    expect(await checkSecretsKey(configWith(dir, 1))).toMatchObject({ ok: true, detail: expect.stringContaining('opens the store') });
    const wrong = await checkSecretsKey(configWith(dir, 2));
    expect(wrong.ok).toBe(false);
    expect(wrong.detail).toContain(`sealed under key ${keyIdOf(key(1))}`);
    // During a rotation the previous key opens them; the check says a re-sealing is due.
    expect(await checkSecretsKey(configWith(dir, 2, 1))).toMatchObject({ ok: true, detail: expect.stringContaining('rotate-secrets-key') });
  });

  it('names a value under a key it does not hold', async () => {
    const dir = await storeSealedUnder(1);
    const store = openSqliteStore({ file: join(dir, 'checkout.sqlite') });
    const { secret, hint } = sealEndpointSecret(createSealer(key(5)), 'we_two', `whsec_${Buffer.alloc(32, 4).toString('base64')}`);
    await store.addWebhookEndpoint({
      id: 'we_two',
      url: 'https://b.example/h',
      types: [],
      secret,
      secretHint: hint,
      createdAt: new Date().toISOString(),
    });
    await store.close();
    const result = await checkSecretsKey(configWith(dir, 1));
    expect(result.ok).toBe(false);
    expect(result.detail).toContain(`webhook_endpoints.secret we_two (key ${keyIdOf(key(5))})`);
  });
});
