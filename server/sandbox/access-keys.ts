/**
 * Access keys, as the provider's portal keeps them: each Active, Pending (a new key waits for approval) or Expired.
 * Only an Active key logs in; the others get the contract's 401 `AccessKeyUnauthorized`, and tokens already issued to
 * a key that stops being Active are refused from then on. The pair given to `createSandbox` (or the sandbox default)
 * is always there, Active unless an admin route changed it; the admin routes add others. Secrets are stored as HMACs.
 */
import { createHmac } from 'node:crypto';
import type Database from 'better-sqlite3';
import { z } from 'zod';
import type { Clock } from '../lib/clock';
import { safeEqual } from '../lib/secrets';

export const accessKeyStatus = z.enum(['Active', 'Pending', 'Expired']);
export type AccessKeyStatus = z.infer<typeof accessKeyStatus>;

/** What the admin routes show of a key: never its secret. */
export interface AccessKeyView {
  accessKey: string;
  /** The status in force: an Active key past its `expiresAt` is Expired. */
  status: AccessKeyStatus;
  createdAt: string;
  expiresAt: string | null;
  /** True for the pair given to `createSandbox`, which cannot be deleted. */
  configured: boolean;
}

export type LoginCheck = 'ok' | 'invalid' | 'pending' | 'expired';

type Row = {
  access_key: string;
  secret_mac: string;
  status: AccessKeyStatus;
  created_at: string;
  expires_at: string | null;
  origin: string;
};

export function createAccessKeys(options: { db: Database.Database; clock: Clock; macKey: string; accessKey: string; secret: string }) {
  const { db, clock } = options;
  const macOf = (secret: string) => createHmac('sha256', options.macKey).update(secret).digest('base64url');
  const q = {
    get: db.prepare('SELECT * FROM access_keys WHERE access_key = ?'),
    all: db.prepare('SELECT * FROM access_keys ORDER BY created_at, access_key'),
    insert: db.prepare(
      `INSERT INTO access_keys (access_key, secret_mac, status, created_at, expires_at, origin)
       VALUES (@accessKey, @secretMac, @status, @createdAt, @expiresAt, @origin)`,
    ),
    update: db.prepare('UPDATE access_keys SET status = @status, expires_at = @expiresAt WHERE access_key = @accessKey'),
    remove: db.prepare("DELETE FROM access_keys WHERE access_key = ? AND origin <> 'option'"),
  };

  // The configured pair: a previous run's pair gives way to this one; this one's status survives a restart.
  db.transaction(() => {
    db.prepare("DELETE FROM access_keys WHERE origin = 'option' AND access_key <> ?").run(options.accessKey);
    db.prepare(
      `INSERT INTO access_keys (access_key, secret_mac, status, created_at, expires_at, origin)
       VALUES (?, ?, 'Active', ?, NULL, 'option')
       ON CONFLICT (access_key) DO UPDATE SET secret_mac = excluded.secret_mac, origin = 'option'`,
    ).run(options.accessKey, macOf(options.secret), clock.now().toISOString());
  })();

  const statusOf = (row: Row): AccessKeyStatus =>
    row.status === 'Active' && row.expires_at !== null && row.expires_at <= clock.now().toISOString() ? 'Expired' : row.status;
  const view = (row: Row): AccessKeyView => ({
    accessKey: row.access_key,
    status: statusOf(row),
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    configured: row.origin === 'option',
  });
  const row = (accessKey: string) => q.get.get(accessKey) as Row | undefined;

  return {
    /** The pair, checked in constant time (an unknown key costs the same comparison). */
    check(accessKey: string, secret: string): LoginCheck {
      const found = row(accessKey);
      const secretMatches = safeEqual(macOf(secret), found?.secret_mac ?? macOf(`absent:${secret}`));
      if (!found || !secretMatches) return 'invalid';
      const status = statusOf(found);
      return status === 'Active' ? 'ok' : status === 'Pending' ? 'pending' : 'expired';
    },
    /** Whether tokens of this key are still accepted: it exists and is Active. */
    active(accessKey: string): boolean {
      const found = row(accessKey);
      return found !== undefined && statusOf(found) === 'Active';
    },
    list: () => (q.all.all() as Row[]).map(view),
    get: (accessKey: string) => {
      const found = row(accessKey);
      return found && view(found);
    },
    /** Undefined when the key exists already. */
    create(input: { accessKey: string; secret: string; status: AccessKeyStatus; expiresAt: string | null }): AccessKeyView | undefined {
      if (row(input.accessKey)) return undefined;
      q.insert.run({
        accessKey: input.accessKey,
        secretMac: macOf(input.secret),
        status: input.status,
        createdAt: clock.now().toISOString(),
        expiresAt: input.expiresAt,
        origin: 'admin',
      });
      return view(row(input.accessKey)!);
    },
    /** Undefined when there is no such key. `expiresAt: null` clears the expiry. */
    update(
      accessKey: string,
      change: { status?: AccessKeyStatus | undefined; expiresAt?: string | null | undefined },
    ): AccessKeyView | undefined {
      const found = row(accessKey);
      if (!found) return undefined;
      q.update.run({
        accessKey,
        status: change.status ?? found.status,
        expiresAt: change.expiresAt === undefined ? found.expires_at : change.expiresAt,
      });
      return view(row(accessKey)!);
    },
    /** False when there is no such key, or it is the configured pair (which stays; set it Expired instead). */
    remove: (accessKey: string) => q.remove.run(accessKey).changes > 0,
  };
}

export type AccessKeys = ReturnType<typeof createAccessKeys>;
