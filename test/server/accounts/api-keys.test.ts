/**
 * The named API keys' logic and store (server/accounts/api-keys.ts, server/store/api-keys.ts), on SQLite and (with
 * TEST_DATABASE_URL) PostgreSQL: only the key's SHA-256 is kept, a creator's role caps the key's, a revocation holds
 * and keeps its first time, and two uses at once note the last use once.
 */
import { createHash, randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createApiKey, revokeApiKey, useApiKey } from '../../../server/accounts/api-keys';
import { ManualClock } from '../../../server/lib/clock';
import { accountStores, noAudit } from './stores';

const cli = { name: 'cli', role: null };

describe.each(accountStores())('API keys in the store (%s)', (_name, open) => {
  const name = () => `k-${randomUUID().slice(0, 8)}`;

  it('keeps the SHA-256 of the key, never the key, and finds it by that hash', async () => {
    const { store } = await open();
    const clock = new ManualClock(new Date('2026-03-01T12:00:00Z'));
    const { id, key } = await createApiKey({ store, clock }, { name: name(), role: 'viewer' }, cli, noAudit);
    const [stored] = (await store.listApiKeys()).filter((k) => k.id === id);
    expect(stored!.keyHash).toBe(createHash('sha256').update(key).digest('hex'));
    expect(JSON.stringify(await store.listApiKeys())).not.toContain(key);
    expect((await useApiKey({ store, clock }, key))?.key.id).toBe(id);
    await store.close();
  });

  it('caps the role of a key by its creator, and refuses an expiry that is not in the future', async () => {
    const { store } = await open();
    const clock = new ManualClock(new Date('2026-03-01T12:00:00Z'));
    const deps = { store, clock };
    const operator = { name: 'op@example.com', role: 'operator' as const };
    await expect(createApiKey(deps, { name: name(), role: 'owner' }, operator, noAudit)).rejects.toMatchObject({ code: 'admin_forbidden' });
    const made = await createApiKey(deps, { name: name(), role: 'operator', expiresAt: '2026-03-02' }, operator, noAudit);
    expect(made.apiKey).toMatchObject({ role: 'operator', createdBy: 'op@example.com', expiresAt: '2026-03-02T00:00:00.000Z' });
    await expect(
      createApiKey(deps, { name: name(), role: 'viewer', expiresAt: clock.now().toISOString() }, cli, noAudit),
    ).rejects.toMatchObject({
      code: 'invalid_request',
    });
    await store.close();
  });

  it('keeps the first revocation time, and finds no live key after it', async () => {
    const { store } = await open();
    const clock = new ManualClock(new Date('2026-03-01T12:00:00Z'));
    const { id, key } = await createApiKey({ store, clock }, { name: name(), role: 'owner' }, cli, noAudit);
    const first = await revokeApiKey({ store, clock }, id, noAudit);
    clock.advance(60_000);
    const second = await revokeApiKey({ store, clock }, id, noAudit);
    expect(second.revokedAt).toBe(first.revokedAt);
    expect(await useApiKey({ store, clock }, key)).toBeUndefined();
    await store.close();
  });

  it('notes one use when two come at once', async () => {
    const { store } = await open();
    const clock = new ManualClock(new Date('2026-03-01T12:00:00Z'));
    const { key } = await createApiKey({ store, clock }, { name: name(), role: 'viewer' }, cli, noAudit);
    const uses = await Promise.all([1, 2, 3].map(() => useApiKey({ store, clock }, key)));
    expect(uses.filter((use) => use?.noted)).toHaveLength(1);
    await store.close();
  });
});
