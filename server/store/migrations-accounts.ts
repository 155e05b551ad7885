/**
 * Schema step 12: the back office's named users, their sessions and the audit trail (./accounts).
 *
 * - `admin_users.email` is stored lower-case (a CHECK says so), so its UNIQUE constraint is case-insensitive.
 * - `admin_sessions` keeps the SHA-256 of each session token, never the token itself.
 * - `audit_log` is append-only: triggers refuse every UPDATE and DELETE (and, in PostgreSQL, TRUNCATE), so neither a
 *   route nor a stray query can rewrite what was done. `seq` orders it (newest first is `seq DESC`).
 */
import { sqlList, step, type Migration } from './migration-step';
import { byDialect, createTable, identity, index, instant, json, text } from './sql/ddl';

const ROLES = sqlList(['viewer', 'operator', 'owner']);
const OUTCOMES = sqlList(['ok', 'pending_approval', 'refused', 'failed']);

export const accountSteps: readonly Migration[] = [
  step({
    version: 12,
    name: "the back office's users (e-mail, role, scrypt hash, disabled), their sessions (token hashes) and the append-only audit trail",
    ddl: [
      createTable(
        'admin_users',
        {
          id: text().primaryKey(),
          email: text().notNull().unique().check('email = lower(email)'),
          role: text().notNull().check(`role IN (${ROLES})`),
          password_hash: text().notNull(),
          disabled_at: instant(),
          created_at: instant().notNull(),
          last_sign_in_at: instant(),
        },
        { withoutRowid: true },
      ),
      createTable(
        'admin_sessions',
        {
          token_hash: text().primaryKey(),
          user_id: text().notNull().references('admin_users', 'id'),
          created_at: instant().notNull(),
          expires_at: instant().notNull(),
          last_seen_at: instant().notNull(),
        },
        { withoutRowid: true },
      ),
      index('admin_sessions_of_user', 'admin_sessions', ['user_id']),
      createTable('audit_log', {
        seq: identity(),
        at: instant().notNull(),
        actor: text().notNull(),
        role: text().check(`role IN (${ROLES})`),
        ip: text(),
        action: text().notNull(),
        target: text(),
        outcome: text().notNull().check(`outcome IN (${OUTCOMES})`),
        details: json().notNull().default(`'{}'`),
      }),
      index('audit_log_by_at', 'audit_log', ['at']),
      // Each database's triggers: SQLite's body is SQL, PostgreSQL's a function, and only PostgreSQL has TRUNCATE.
      byDialect({
        sqlite: [
          `CREATE TRIGGER audit_log_no_update BEFORE UPDATE ON audit_log
        BEGIN SELECT RAISE(ABORT, 'the audit trail is append-only'); END`,
          `CREATE TRIGGER audit_log_no_delete BEFORE DELETE ON audit_log
        BEGIN SELECT RAISE(ABORT, 'the audit trail is append-only'); END`,
        ],
        postgres: [
          `CREATE FUNCTION audit_log_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN RAISE EXCEPTION 'the audit trail is append-only'; END $$`,
          `CREATE TRIGGER audit_log_no_change BEFORE UPDATE OR DELETE ON audit_log
        FOR EACH ROW EXECUTE FUNCTION audit_log_append_only()`,
          `CREATE TRIGGER audit_log_no_truncate BEFORE TRUNCATE ON audit_log
        FOR EACH STATEMENT EXECUTE FUNCTION audit_log_append_only()`,
        ],
      }),
    ],
  }),
];
