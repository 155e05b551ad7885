/**
 * The back office's named API keys over HTTP, on SQLite and (with TEST_DATABASE_URL) PostgreSQL: a key made by an
 * owner is shown once and opens the API with its role (a viewer's gets 403 on a refund), lists never show it nor its
 * hash, a revoked or expired key gets 401, the last use is noted at most once a minute, every use is in the audit
 * trail under the key's name, and only owners manage keys.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DATABASES } from '../merchant-webhooks/databases';
import { consoleWorld } from './auth-helpers';

const MINUTE = 60_000;
let names = 0;
const freshName = () => `script-${Date.now().toString(36)}-${++names}`;

describe.each(DATABASES)('named API keys (%s)', (_name, database) => {
  const world = consoleWorld(database);

  /** Creates a key with the ADMIN_TOKEN; resolves with its id, key and name. */
  async function create(role: string, extra: Record<string, unknown> = {}) {
    const name = freshName();
    const response = await world.client.withToken('POST', '/api-keys', { name, role, ...extra });
    if (response.status !== 201) throw new Error(`create failed: ${response.status} ${response.text}`);
    const { id, key } = response.body as { id: string; key: string };
    return { id, key, name };
  }
  const withKey = (key: string, method: string, path: string, body?: unknown) =>
    world.server.json(method, `/api/admin${path}`, body, { authorization: `Bearer ${key}` });
  const trailOf = async (actor: string) =>
    (await world.client.withToken('GET', `/audit?actor=${encodeURIComponent(actor)}`)).body.data as { action: string; outcome: string }[];

  it('shows the key once, keeps only its hash, and lists it with its prefix, role, creator and no secret', async () => {
    const { id, key, name } = await create('viewer');
    expect(key).toMatch(/^pck_live_[A-Za-z0-9_-]{43}$/);
    const list = await world.client.withToken('GET', '/api-keys');
    expect(list.status).toBe(200);
    const listed = (list.body.data as { id: string }[]).find((k) => k.id === id);
    expect(listed).toEqual({
      id,
      name,
      role: 'viewer',
      prefix: key.slice(0, 17),
      createdAt: world.clock.now().toISOString(),
      createdBy: 'api-token',
      lastUsedAt: null,
      expiresAt: null,
      revokedAt: null,
    });
    expect(list.text).not.toContain(key);
    expect(list.text).not.toContain(createHash('sha256').update(key).digest('hex'));
    expect((await trailOf('api-token')).map((e) => e.action)).toContain('api_key.create');
    if (!world.db.env.DATABASE_URL) {
      // The SQLite store's files (the database, its WAL) hold the key's hash, never the key.
      const files = readdirSync(world.server.dataDir, { recursive: true, withFileTypes: true }).filter((f) => f.isFile());
      const contents = files.map((f) => readFileSync(join(f.parentPath, f.name)));
      expect(contents.some((bytes) => bytes.includes(createHash('sha256').update(key).digest('hex')))).toBe(true);
      for (const bytes of contents) expect(bytes.includes(key)).toBe(false);
    }
  });

  it('opens the API with the key role: a viewer key reads and gets 403 on a refund', async () => {
    const { key, name } = await create('viewer');
    expect((await withKey(key, 'GET', '/session')).body).toMatchObject({ actor: { kind: 'token', name: `key:${name}`, role: 'viewer' } });
    expect((await withKey(key, 'GET', '/checkouts')).status).toBe(200);
    const refund = await withKey(key, 'POST', '/checkouts/chk_nope/refunds', { amount: '1.00' });
    expect(refund).toMatchObject({ status: 403, body: { error: { code: 'admin_forbidden' } } });
    expect((await withKey(key, 'GET', '/api-keys')).status).toBe(403);
    const trail = await trailOf(`key:${name}`);
    expect(trail.map((e) => `${e.action}:${e.outcome}`)).toEqual(['access.denied:refused', 'api_key.use:ok']);
  });

  it('notes the last use at most once a minute', async () => {
    const { id, key, name } = await create('operator');
    const lastUse = async () =>
      ((await world.client.withToken('GET', '/api-keys')).body.data as { id: string; lastUsedAt: string | null }[]).find(
        (k) => k.id === id,
      )!.lastUsedAt;
    const first = world.clock.now().toISOString();
    await withKey(key, 'GET', '/checkouts');
    expect(await lastUse()).toBe(first);
    world.clock.advance(30_000);
    await withKey(key, 'GET', '/checkouts');
    expect(await lastUse()).toBe(first);
    world.clock.advance(MINUTE);
    await withKey(key, 'GET', '/checkouts');
    expect(await lastUse()).toBe(world.clock.now().toISOString());
    expect((await trailOf(`key:${name}`)).filter((e) => e.action === 'api_key.use')).toHaveLength(2);
  });

  it('refuses a revoked key and an expired one with 401 admin_unauthorized, and a wrong one', async () => {
    const revoked = await create('owner');
    expect((await withKey(revoked.key, 'GET', '/checkouts')).status).toBe(200);
    const revoke = await world.client.withToken('DELETE', `/api-keys/${revoked.id}`);
    expect(revoke).toMatchObject({ status: 200, body: { id: revoked.id, revokedAt: world.clock.now().toISOString() } });
    expect(await withKey(revoked.key, 'GET', '/checkouts')).toMatchObject({ status: 401, body: { error: { code: 'admin_unauthorized' } } });

    const expiring = await create('viewer', { expiresAt: new Date(world.clock.now().getTime() + MINUTE).toISOString() });
    expect((await withKey(expiring.key, 'GET', '/checkouts')).status).toBe(200);
    world.clock.advance(MINUTE);
    expect((await withKey(expiring.key, 'GET', '/checkouts')).status).toBe(401);
    expect((await withKey(`${expiring.key.slice(0, -1)}A`, 'GET', '/checkouts')).status).toBe(401);
    expect((await withKey('pck_live_', 'GET', '/checkouts')).status).toBe(401);
  });

  it('lets only owners manage keys, and never above their own role', async () => {
    const operator = await create('operator');
    const refused = await withKey(operator.key, 'POST', '/api-keys', { name: freshName(), role: 'viewer' });
    expect(refused).toMatchObject({ status: 403, body: { error: { code: 'admin_forbidden' } } });
    const owner = await create('owner');
    const made = await withKey(owner.key, 'POST', '/api-keys', { name: freshName(), role: 'owner' });
    expect(made.status).toBe(201);
    const listed = (await world.client.withToken('GET', '/api-keys')).body.data as { id: string; createdBy: string }[];
    expect(listed.find((k) => k.id === made.body.id)?.createdBy).toBe(`key:${owner.name}`);
    const { email } = await world.client.user('operator');
    const cookie = await world.client.session(email);
    expect((await world.client.withCookie(cookie, 'GET', '/api-keys')).status).toBe(403);
  });

  it('refuses a bad name, a past expiry, a taken name and an unknown key, with the error envelope', async () => {
    const bad = await world.client.withToken('POST', '/api-keys', { name: 'no spaces here', role: 'viewer' });
    expect(bad).toMatchObject({ status: 400, body: { error: { code: 'invalid_request' } } });
    const past = await world.client.withToken('POST', '/api-keys', { name: freshName(), role: 'viewer', expiresAt: '2001-01-01' });
    expect(past).toMatchObject({ status: 400, body: { error: { code: 'invalid_request' } } });
    const { id, name } = await create('viewer');
    const taken = await world.client.withToken('POST', '/api-keys', { name, role: 'viewer' });
    expect(taken).toMatchObject({ status: 409, body: { error: { code: 'api_key_exists' } } });
    await world.client.withToken('DELETE', `/api-keys/${id}`);
    // Once revoked, its name is free again; the revoked key stays listed.
    expect((await world.client.withToken('POST', '/api-keys', { name, role: 'viewer' })).status).toBe(201);
    const unknown = await world.client.withToken('DELETE', '/api-keys/key_nothere');
    expect(unknown).toMatchObject({ status: 404, body: { error: { code: 'api_key_not_found' } } });
    expect((await world.client.withToken('DELETE', '/api-keys/../users')).status).toBe(404);
  });
});
