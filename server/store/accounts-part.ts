/**
 * The accounts part of the store (see `accounts.ts`): users, sessions, the audit trail, written once for both
 * databases (`accountsPart`). A change of a user, a sign-in and an audit entry (chained to the one before,
 * ./audit-chain.ts) are each one write transaction (SQLite's BEGIN IMMEDIATE; PostgreSQL's BEGIN … COMMIT). On PostgreSQL a change of a user takes one advisory transaction lock
 * first, so two changes (two owners demoting each other, on two instances) are decided one after the other and the
 * last enabled owner is always kept; SQLite's write lock already orders them. Its own module rather than beside the
 * interface, as `deliveries.ts` is: the row mappers (./accounts-rows) check the interface's schemas.
 */
import { instant, normalEmail, type AccountStore, type UserChange, type UserChangeResult } from './accounts';
import { appendChained, verifyChain } from './audit-chain';
import { auditFromRow, endsSessions, SESSION_WITH_USER, sessionFromRow, takesLastOwner, userFromRow } from './accounts-rows';
import type { Row } from './rows';
import type { Db } from './sql/db';
import { pick } from './sql/dialect';
import { all, get, run, type Work } from './sql/work';

export function accountsPart(db: Db): AccountStore {
  const d = db.dialect;
  const sql = {
    addUser: `
      INSERT INTO admin_users (id, email, role, password_hash, created_at) VALUES (@id, @email, @role, @passwordHash, @createdAt)
      ON CONFLICT (email) DO NOTHING
      RETURNING *`,
    user: `SELECT * FROM admin_users WHERE id = @id`,
    byEmail: `SELECT * FROM admin_users WHERE email = @email`,
    users: `SELECT * FROM admin_users ORDER BY created_at, ${d.textOrder('id')}`,
    count: `SELECT count(*) AS n FROM admin_users`,
    usersLock: pick(d, { sqlite: undefined, postgres: `SELECT pg_advisory_xact_lock(hashtext('admin_users'))` }),
    otherOwners: `SELECT count(*) AS n FROM admin_users WHERE role = 'owner' AND disabled_at IS NULL AND id <> @id`,
    change: `
      UPDATE admin_users SET role = coalesce(@role, role), password_hash = coalesce(@passwordHash, password_hash),
        disabled_at = CASE WHEN @setDisabled THEN ${d.instant('disabledAt')} ELSE disabled_at END
      WHERE id = @id
      RETURNING *`,
    endUserSessions: `DELETE FROM admin_sessions WHERE user_id = @id`,
    startSession: `
      INSERT INTO admin_sessions (token_hash, user_id, created_at, expires_at, last_seen_at, id, device, address)
      VALUES (@tokenHash, @userId, @createdAt, @expiresAt, @lastSeenAt, @id, @device, @address)`,
    signedIn: `UPDATE admin_users SET last_sign_in_at = @createdAt WHERE id = @userId`,
    session: `${SESSION_WITH_USER} WHERE s.token_hash = @tokenHash`,
    touch: `UPDATE admin_sessions SET last_seen_at = @at WHERE token_hash = @tokenHash AND last_seen_at < @at`,
    endSession: `DELETE FROM admin_sessions WHERE token_hash = @tokenHash`,
    prune: `DELETE FROM admin_sessions WHERE expires_at <= @now OR last_seen_at < @idleBefore`,
    // An absent bound is one that sorts before or after every date (@from, @to), and an absent cursor one past every
    // seq, so the statement keeps the ranges SQLite reads by index. An action filter matches itself and the actions
    // under it (`user.`). Each optional filter is compared before it is tested for NULL: PostgreSQL takes a
    // parameter's type from its first use, and `@actor IS NULL` alone tells it none.
    audit: `
      SELECT * FROM audit_log
      WHERE seq < @before AND at >= ${d.instant('from')} AND at < ${d.instant('to')}
        AND (actor = @actor OR @actor IS NULL)
        AND (outcome = @outcome OR @outcome IS NULL)
        AND (action = @action OR @action IS NULL OR substr(action, 1, length(@action) + 1) = @action || '.')
      ORDER BY seq DESC LIMIT @limit`,
  };
  // '' and '~' sort before and after every ISO date in SQLite's text; PostgreSQL's timestamptz has its infinities.
  const always = pick(d, { sqlite: { from: '', to: '~' }, postgres: { from: '-infinity', to: 'infinity' } });
  const user = (row: Row | undefined) => (row ? userFromRow(row) : undefined);
  const count = (row: Row | undefined) => Number(row!.n);
  const appendAudit = appendChained(d);

  function* changeUser(id: string, change: UserChange): Work<UserChangeResult> {
    const { role, disabledAt, passwordHash } = change;
    if (sql.usersLock) yield* get(sql.usersLock);
    const current = user(yield* get(sql.user, { id }));
    if (!current) return undefined;
    if (takesLastOwner(current, change, count(yield* get(sql.otherOwners, { id })))) return { refused: 'last_owner' as const };
    const row = yield* get(sql.change, {
      id,
      role,
      passwordHash,
      setDisabled: disabledAt !== undefined,
      disabledAt: disabledAt ? instant(disabledAt) : null,
    });
    if (endsSessions(change)) yield* run(sql.endUserSessions, { id });
    return { user: userFromRow(row!) };
  }

  return {
    async addUser({ id, email, role, passwordHash, createdAt }) {
      const params = { id, email: normalEmail(email), role, passwordHash, createdAt: instant(createdAt) };
      return user(await db.read(() => get(sql.addUser, params)));
    },
    async getUser(id) {
      return user(await db.read(() => get(sql.user, { id })));
    },
    async findUserByEmail(email) {
      return user(await db.read(() => get(sql.byEmail, { email: normalEmail(email) })));
    },
    async listUsers() {
      return (await db.read(() => all(sql.users))).map(userFromRow);
    },
    async countUsers() {
      return count(await db.read(() => get(sql.count)));
    },
    changeUser: (id, change) => db.write(() => changeUser(id, change)),
    async startSession({ tokenHash, userId, createdAt, expiresAt, lastSeenAt, id, device, address }) {
      const params = {
        tokenHash,
        id,
        device,
        address,
        userId,
        createdAt: instant(createdAt),
        expiresAt: instant(expiresAt),
        lastSeenAt: instant(lastSeenAt),
      };
      await db.write(function* () {
        yield* run(sql.startSession, params);
        yield* run(sql.signedIn, params);
      });
    },
    async findSession(tokenHash) {
      const row = await db.read(() => get(sql.session, { tokenHash }));
      return row && { session: sessionFromRow(row), user: userFromRow(row) };
    },
    async touchSession(tokenHash, at) {
      const params = { tokenHash, at: instant(at) };
      await db.read(() => run(sql.touch, params));
    },
    async endSession(tokenHash) {
      await db.read(() => run(sql.endSession, { tokenHash }));
    },
    async pruneSessions(now, idleBefore) {
      const params = { now: instant(now), idleBefore: instant(idleBefore) };
      return db.read(() => run(sql.prune, params));
    },
    async appendAudit(entry) {
      const stored = { ...entry, at: instant(entry.at) };
      return db.write(() => appendAudit(stored));
    },
    verifyAudit: () => db.read(() => verifyChain(d)),
    async listAudit({ before, limit, actor, action, outcome, from, to }) {
      const params = {
        before: before ?? Number.MAX_SAFE_INTEGER,
        limit,
        actor,
        action,
        outcome,
        from: from ? instant(from) : always.from,
        to: to ? instant(to) : always.to,
      };
      return (await db.read(() => all(sql.audit, params))).map((row) => auditFromRow(row, d.rows));
    },
  };
}
