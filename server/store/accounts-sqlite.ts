/** The accounts part of the SQLite store (see `accounts.ts`): users, sessions, the audit trail; writes run in BEGIN IMMEDIATE. */
import type Database from 'better-sqlite3';
import { instant, normalEmail, type AccountStore, type UserChange } from './accounts';
import { auditFromRow, endsSessions, SESSION_WITH_USER, sessionFromRow, takesLastOwner, userFromRow } from './accounts-rows';
import { toJson, type Row } from './rows';

export function accountsSqlite(db: Database.Database): AccountStore {
  const sql = {
    addUser: db.prepare(`
      INSERT INTO admin_users (id, email, role, password_hash, created_at) VALUES (@id, @email, @role, @passwordHash, @createdAt)
      ON CONFLICT (email) DO NOTHING
      RETURNING *`),
    user: db.prepare(`SELECT * FROM admin_users WHERE id = ?`),
    byEmail: db.prepare(`SELECT * FROM admin_users WHERE email = ?`),
    users: db.prepare(`SELECT * FROM admin_users ORDER BY created_at, id`),
    count: db.prepare(`SELECT count(*) FROM admin_users`).pluck(),
    otherOwners: db.prepare(`SELECT count(*) FROM admin_users WHERE role = 'owner' AND disabled_at IS NULL AND id <> ?`).pluck(),
    change: db.prepare(`
      UPDATE admin_users SET role = coalesce(@role, role), password_hash = coalesce(@passwordHash, password_hash),
        disabled_at = CASE WHEN @setDisabled THEN @disabledAt ELSE disabled_at END
      WHERE id = @id
      RETURNING *`),
    endUserSessions: db.prepare(`DELETE FROM admin_sessions WHERE user_id = ?`),
    startSession: db.prepare(`
      INSERT INTO admin_sessions (token_hash, user_id, created_at, expires_at, last_seen_at)
      VALUES (@tokenHash, @userId, @createdAt, @expiresAt, @lastSeenAt)`),
    signedIn: db.prepare(`UPDATE admin_users SET last_sign_in_at = ? WHERE id = ?`),
    session: db.prepare(`${SESSION_WITH_USER} WHERE s.token_hash = ?`),
    touch: db.prepare(`UPDATE admin_sessions SET last_seen_at = @at WHERE token_hash = @tokenHash AND last_seen_at < @at`),
    endSession: db.prepare(`DELETE FROM admin_sessions WHERE token_hash = ?`),
    prune: db.prepare(`DELETE FROM admin_sessions WHERE expires_at <= @now OR last_seen_at < @idleBefore`),
    append: db.prepare(`
      INSERT INTO audit_log (at, actor, role, ip, action, target, outcome, details)
      VALUES (@at, @actor, @role, @ip, @action, @target, @outcome, @details)
      RETURNING *`),
    // '' and '~' sort before and after every date; an action filter matches itself and the actions under it (`user.`).
    audit: db.prepare(`
      SELECT * FROM audit_log
      WHERE seq < @before AND at >= @from AND at < @to
        AND (@actor IS NULL OR actor = @actor)
        AND (@outcome IS NULL OR outcome = @outcome)
        AND (@action IS NULL OR action = @action OR substr(action, 1, length(@action) + 1) = @action || '.')
      ORDER BY seq DESC LIMIT @limit`),
  };
  const user = (row: unknown) => (row ? userFromRow(row as Row) : undefined);

  const change = db.transaction((id: string, { role, disabledAt, passwordHash }: UserChange) => {
    const current = user(sql.user.get(id));
    if (!current) return undefined;
    if (takesLastOwner(current, { role, disabledAt }, sql.otherOwners.get(id) as number)) return { refused: 'last_owner' as const };
    const row = sql.change.get({
      id,
      role: role ?? null,
      passwordHash: passwordHash ?? null,
      setDisabled: disabledAt === undefined ? 0 : 1,
      disabledAt: disabledAt ? instant(disabledAt) : null,
    });
    if (endsSessions({ disabledAt, passwordHash })) sql.endUserSessions.run(id);
    return { user: userFromRow(row as Row) };
  });
  const start = db.transaction((session: Record<string, string>) => {
    sql.startSession.run(session);
    sql.signedIn.run(session.createdAt, session.userId);
  });

  return {
    async addUser({ id, email, role, passwordHash, createdAt }) {
      return user(sql.addUser.get({ id, email: normalEmail(email), role, passwordHash, createdAt: instant(createdAt) }));
    },
    async getUser(id) {
      return user(sql.user.get(id));
    },
    async findUserByEmail(email) {
      return user(sql.byEmail.get(normalEmail(email)));
    },
    async listUsers() {
      return (sql.users.all() as Row[]).map(userFromRow);
    },
    async countUsers() {
      return sql.count.get() as number;
    },
    async changeUser(id, userChange) {
      return change.immediate(id, userChange);
    },
    async startSession({ tokenHash, userId, createdAt, expiresAt, lastSeenAt }) {
      start.immediate({
        tokenHash,
        userId,
        createdAt: instant(createdAt),
        expiresAt: instant(expiresAt),
        lastSeenAt: instant(lastSeenAt),
      });
    },
    async findSession(tokenHash) {
      const row = sql.session.get(tokenHash) as Row | undefined;
      return row && { session: sessionFromRow(row), user: userFromRow(row) };
    },
    async touchSession(tokenHash, at) {
      sql.touch.run({ tokenHash, at: instant(at) });
    },
    async endSession(tokenHash) {
      sql.endSession.run(tokenHash);
    },
    async pruneSessions(now, idleBefore) {
      return sql.prune.run({ now: instant(now), idleBefore: instant(idleBefore) }).changes;
    },
    async appendAudit({ at, actor, role, ip, action, target, outcome, details }) {
      const row = sql.append.get({ at: instant(at), actor, role, ip, action, target, outcome, details: toJson(details) });
      return auditFromRow(row as Row, 'text');
    },
    async listAudit({ before, limit, actor, action, outcome, from, to }) {
      const rows = sql.audit.all({
        before: before ?? Number.MAX_SAFE_INTEGER,
        limit,
        actor: actor ?? null,
        action: action ?? null,
        outcome: outcome ?? null,
        from: from ? instant(from) : '',
        to: to ? instant(to) : '~',
      });
      return (rows as Row[]).map((row) => auditFromRow(row, 'text'));
    },
  };
}
