/**
 * Secrets sealed at rest (server/store/sealed-columns.ts), on SQLite and (with TEST_DATABASE_URL) PostgreSQL: an
 * endpoint's secret is stored sealed and opens to sign a delivery the standardwebhooks library verifies; a clear value
 * left from before schema step 25 is sealed by the start's pass, once however often it runs; a rotation re-seals every
 * value, after which the old key is no longer needed; no secret is in the SQLite file (WAL too) or a pg_dump.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Webhook } from 'standardwebhooks';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createSealer, newSecretsKey, parseSecretsKey } from '../../../server/lib/sealer';
import { openSigningSecrets, sealEndpointSecret } from '../../../server/merchant-webhooks/endpoint-secrets';
import { signedHeaders } from '../../../server/merchant-webhooks/signing';
import { openPostgresStore } from '../../../server/store/postgres';
import { openSqliteStore } from '../../../server/store/sqlite';
import { sealAtStart } from '../../../server/sealed-start';
import type { Store } from '../../../server/store/types';
import { createTestDatabase, TEST_DATABASE_URL, pgDump, type TestDatabase } from './pg-test-database';

const dir = mkdtempSync(join(tmpdir(), 'sealed-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;
let pg: TestDatabase | undefined;
afterAll(async () => pg?.drop());

/** A store, a way to run raw SQL on it, and every byte it keeps (the SQLite file and its WAL, or a pg_dump). */
interface Backend {
  store: Store;
  sql(text: string): Promise<void>;
  /** Every byte it keeps once its WAL is checkpointed back (frames from before the sealing are reused by then). */
  bytes(): Promise<string>;
}
const backends: [string, () => Promise<Backend>][] = [
  [
    'SQLite',
    async () => {
      const file = join(dir, `store-${++files}.sqlite`);
      const store = openSqliteStore({ file });
      const raw = (await import('better-sqlite3')).default;
      const sql = async (text: string) => {
        const db = new raw(file);
        db.exec(text);
        db.close();
      };
      const bytes = async () => {
        await sql('PRAGMA wal_checkpoint(TRUNCATE)');
        return [file, `${file}-wal`]
          .filter(existsSync)
          .map((f) => readFileSync(f).toString('latin1'))
          .join('');
      };
      return { store, sql, bytes };
    },
  ],
  ...(TEST_DATABASE_URL
    ? ([
        [
          'PostgreSQL',
          async () => {
            pg ??= await createTestDatabase(TEST_DATABASE_URL!);
            const store = await openPostgresStore({ connectionString: pg.url });
            await pg.query('DELETE FROM webhook_endpoints');
            await pg.query('DELETE FROM sealed_canary');
            const sql = async (text: string) => void (await pg!.query(text));
            const bytes = async () => pgDump(pg!.url);
            return { store, sql, bytes };
          },
        ],
      ] as [string, () => Promise<Backend>][])
    : []),
];

const newKey = () => parseSecretsKey(newSecretsKey());
const clearSecret = (n: number) => `whsec_${Buffer.alloc(32, n).toString('base64')}`;
const at = '2026-01-01T00:00:00.000Z';

describe.each(backends)('secrets sealed at rest (%s)', (_name, open) => {
  let backend: Backend;
  beforeEach(async () => {
    backend = await open();
  });
  afterEach(async () => {
    await backend.store.close();
  });

  it('stores a secret sealed, opens it to sign a delivery the receiver verifies, and keeps it out of the bytes', async () => {
    const sealer = createSealer(newKey());
    const id = `we_${Math.random().toString(36).slice(2)}`;
    const { secret, hint } = sealEndpointSecret(sealer, id, clearSecret(1));
    const stored = await backend.store.addWebhookEndpoint({
      id,
      url: 'https://shop.example/h',
      types: [],
      secret,
      secretHint: hint,
      createdAt: at,
    });
    expect(stored.secret.startsWith(`sealed:v1:${sealer.keyId}:`)).toBe(true);
    const secrets = openSigningSecrets(sealer, stored, new Date(at));
    expect(secrets).toEqual([clearSecret(1)]);
    const body = JSON.stringify({ id: 'evt_1', type: 'webhook.test' });
    const headers = signedHeaders(secrets, 'evt_1', Math.floor(Date.now() / 1000), body);
    expect(new Webhook(clearSecret(1)).verify(body, headers)).toMatchObject({ id: 'evt_1' });
    // Another row's id as context does not open it.
    expect(() => sealer.open(stored.secret, 'we_other')).toThrow();
    await backend.store.sealClearValues(sealer);
    expect(await backend.bytes()).not.toContain(clearSecret(1));
    expect(await backend.bytes()).not.toContain(clearSecret(1).slice(6));
    await expect(
      backend.store.addWebhookEndpoint({
        id: `${id}x`,
        url: 'https://a.example',
        types: [],
        secret: clearSecret(2),
        secretHint: 'x',
        createdAt: at,
      }),
    ).rejects.toThrow(/must be sealed/);
  });

  it('seals the clear values left from before sealing, once however often the pass runs', async () => {
    const sealer = createSealer(newKey());
    await backend.sql(
      `INSERT INTO webhook_endpoints (id, url, types, secret, previous_secret, previous_until, created_at)
       VALUES ('we_legacy', 'https://shop.example/h', '[]', '${clearSecret(3)}', '${clearSecret(4)}', '2099-01-01T00:00:00.000Z', '${at}')`,
    );
    const legacy = (await backend.store.getWebhookEndpoint('we_legacy'))!;
    // Read as they are until the pass seals them.
    expect(openSigningSecrets(sealer, legacy, new Date(at))).toEqual([clearSecret(3), clearSecret(4)]);
    expect(await backend.store.sealClearValues(sealer)).toBe(2);
    expect(await backend.store.sealClearValues(sealer)).toBe(0);
    const sealed = (await backend.store.getWebhookEndpoint('we_legacy'))!;
    expect(sealed.secret.startsWith('sealed:v1:')).toBe(true);
    expect(openSigningSecrets(sealer, sealed, new Date(at))).toEqual([clearSecret(3), clearSecret(4)]);
    expect(await backend.bytes()).not.toContain(clearSecret(3));
    expect(await backend.bytes()).not.toContain(clearSecret(4));
  });

  it('re-seals every value under the new key, after which the old key is no longer needed', async () => {
    const old = newKey();
    const before = createSealer(old);
    const id = `we_${Math.random().toString(36).slice(2)}`;
    const { secret, hint } = sealEndpointSecret(before, id, clearSecret(5));
    await backend.store.addWebhookEndpoint({ id, url: 'https://shop.example/h', types: [], secret, secretHint: hint, createdAt: at });
    await backend.store.sealClearValues(before);
    const fresh = newKey();
    const count = await backend.store.resealValues(createSealer(fresh, [old]));
    expect(count.unopened).toEqual([]);
    expect(count.resealed).toBeGreaterThanOrEqual(2);
    const alone = createSealer(fresh);
    const check = await backend.store.checkSealedValues(alone);
    expect(check.canary).toBe('opens');
    expect(check.values.every((value) => value.keyId === alone.keyId)).toBe(true);
    expect(openSigningSecrets(alone, (await backend.store.getWebhookEndpoint(id))!, new Date(at))).toEqual([clearSecret(5)]);
    // The old key alone opens nothing now; the doctor's check says so.
    expect((await backend.store.checkSealedValues(createSealer(old))).canary).toBe('refused');
  });
});

describe('the start on SQLite', () => {
  it('leaves no clear form of a value it sealed in the WAL', async () => {
    const file = join(dir, `store-${++files}.sqlite`);
    const store = openSqliteStore({ file });
    try {
      const raw = new (await import('better-sqlite3')).default(file);
      raw.exec(
        `INSERT INTO webhook_endpoints (id, url, types, secret, created_at)
         VALUES ('we_wal', 'https://shop.example/h', '[]', '${clearSecret(6)}', '${at}')`,
      );
      raw.close();
      const quiet = { log: () => {}, error: () => {} };
      await sealAtStart(store, createSealer(newKey()), quiet);
      // Read as a copy of the folder would take them now, with no checkpoint of the test's own.
      const bytes = [file, `${file}-wal`]
        .filter(existsSync)
        .map((f) => readFileSync(f).toString('latin1'))
        .join('');
      expect(bytes).toContain('we_wal');
      expect(bytes).not.toContain(clearSecret(6));
    } finally {
      await store.close();
    }
  });
});
