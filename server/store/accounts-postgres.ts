/**
 * The accounts part of the PostgreSQL store (see `accounts.ts`); same behaviour as SQLite's. A change of a user takes
 * one advisory transaction lock first, so two changes (two owners demoting each other, on two instances) are decided
 * one after the other and the last enabled owner is always kept.
 */
import type pg from 'pg';
import { instant, normalEmail, type AccountStore } from './accounts';
import { auditFromRow, endsSessions, SESSION_WITH_USER, sessionFromRow, takesLastOwner, userFromRow } from './accounts-rows';
import { inTransaction } from './pg-transaction';
import type { Row } from './rows';

const USERS_LOCK = `SELECT pg_advisory_xact_lock(hashtext('admin_users'))`;

export function accountsPostgres(pool: pg.Pool): AccountStore {
  const first = async (text: string, values: unknown[], client: pg.Pool | pg.PoolClient = pool) =>
    (await client.query<Row>(text, values)).rows[0];
  const user = (row: Row | undefined) => (row ? userFromRow(row) : undefined);

  return {
    async addUser({ id, email, role, passwordHash, createdAt }) {
      return user(
        await first(
          `INSERT INTO admin_users (id, email, role, password_hash, created_at) VALUES ($1, $2, $3, $4, $5)
           ON CONFLICT (email) DO NOTHING
           RETURNING *`,
          [id, normalEmail(email), role, passwordHash, instant(createdAt)],
        ),
      );
    },
    async getUser(id) {
      return user(await first('SELECT * FROM admin_users WHERE id = $1', [id]));
    },
    async findUserByEmail(email) {
      return user(await first('SELECT * FROM admin_users WHERE email = $1', [normalEmail(email)]));
    },
    async listUsers() {
      return (await pool.query<Row>('SELECT * FROM admin_users ORDER BY created_at, id COLLATE "C"')).rows.map(userFromRow);
    },
    async countUsers() {
      return Number((await first('SELECT count(*) AS n FROM admin_users', []))!.n);
    },
    async changeUser(id, change) {
      const { role, disabledAt, passwordHash } = change;
      return inTransaction(pool, async (client) => {
        await client.query(USERS_LOCK);
        const current = user(await first('SELECT * FROM admin_users WHERE id = $1', [id], client));
        if (!current) return undefined;
        const others = await first(
          `SELECT count(*) AS n FROM admin_users WHERE role = 'owner' AND disabled_at IS NULL AND id <> $1`,
          [id],
          client,
        );
        if (takesLastOwner(current, change, Number(others!.n))) return { refused: 'last_owner' as const };
        const row = await first(
          `UPDATE admin_users SET role = coalesce($2, role), password_hash = coalesce($3, password_hash),
             disabled_at = CASE WHEN $4 THEN $5::timestamptz ELSE disabled_at END
           WHERE id = $1
           RETURNING *`,
          [id, role ?? null, passwordHash ?? null, disabledAt !== undefined, disabledAt ? instant(disabledAt) : null],
          client,
        );
        if (endsSessions(change)) await client.query('DELETE FROM admin_sessions WHERE user_id = $1', [id]);
        return { user: userFromRow(row!) };
      });
    },
    async startSession({ tokenHash, userId, createdAt, expiresAt, lastSeenAt }) {
      await inTransaction(pool, async (client) => {
        await client.query(
          `INSERT INTO admin_sessions (token_hash, user_id, created_at, expires_at, last_seen_at) VALUES ($1, $2, $3, $4, $5)`,
          [tokenHash, userId, instant(createdAt), instant(expiresAt), instant(lastSeenAt)],
        );
        await client.query('UPDATE admin_users SET last_sign_in_at = $2 WHERE id = $1', [userId, instant(createdAt)]);
      });
    },
    async findSession(tokenHash) {
      const row = await first(`${SESSION_WITH_USER} WHERE s.token_hash = $1`, [tokenHash]);
      return row && { session: sessionFromRow(row), user: userFromRow(row) };
    },
    async touchSession(tokenHash, at) {
      await pool.query('UPDATE admin_sessions SET last_seen_at = $2 WHERE token_hash = $1 AND last_seen_at < $2', [tokenHash, instant(at)]);
    },
    async endSession(tokenHash) {
      await pool.query('DELETE FROM admin_sessions WHERE token_hash = $1', [tokenHash]);
    },
    async pruneSessions(now, idleBefore) {
      const deleted = await pool.query('DELETE FROM admin_sessions WHERE expires_at <= $1 OR last_seen_at < $2', [
        instant(now),
        instant(idleBefore),
      ]);
      return deleted.rowCount ?? 0;
    },
    async appendAudit({ at, actor, role, ip, action, target, outcome, details }) {
      const row = await first(
        `INSERT INTO audit_log (at, actor, role, ip, action, target, outcome, details)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8::jsonb)
         RETURNING *`,
        [instant(at), actor, role, ip, action, target, outcome, JSON.stringify(details ?? {})],
      );
      return auditFromRow(row!, 'parsed');
    },
    async listAudit({ before, limit, actor, action, outcome, from, to }) {
      const { rows } = await pool.query<Row>(
        `SELECT * FROM audit_log
         WHERE ($1::bigint IS NULL OR seq < $1)
           AND ($3::text IS NULL OR actor = $3)
           AND ($4::text IS NULL OR action = $4 OR left(action, length($4) + 1) = $4 || '.')
           AND ($5::text IS NULL OR outcome = $5)
           AND ($6::timestamptz IS NULL OR at >= $6)
           AND ($7::timestamptz IS NULL OR at < $7)
         ORDER BY seq DESC LIMIT $2`,
        [before ?? null, limit, actor ?? null, action ?? null, outcome ?? null, from ? instant(from) : null, to ? instant(to) : null],
      );
      return rows.map((row) => auditFromRow(row, 'parsed'));
    },
  };
}
