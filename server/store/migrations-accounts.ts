/**
 * Schema step 12: the back office's named users, their sessions and the audit trail (./accounts).
 *
 * - `admin_users.email` is stored lower-case (a CHECK says so), so its UNIQUE constraint is case-insensitive.
 * - `admin_sessions` keeps the SHA-256 of each session token, never the token itself.
 * - `audit_log` is append-only: triggers refuse every UPDATE and DELETE (and, in PostgreSQL, TRUNCATE), so neither a
 *   route nor a stray query can rewrite what was done. `seq` orders it (newest first is `seq DESC`).
 */
import { sqlList, type Migration } from './migration-step';

const ROLES = sqlList(['viewer', 'operator', 'owner']);
const OUTCOMES = sqlList(['ok', 'pending_approval', 'refused', 'failed']);

export const accountSteps: readonly Migration[] = [
  {
    version: 12,
    name: "the back office's users (e-mail, role, scrypt hash, disabled), their sessions (token hashes) and the append-only audit trail",
    sqlite: `
      CREATE TABLE admin_users (
        id TEXT PRIMARY KEY,
        email TEXT NOT NULL UNIQUE CHECK (email = lower(email)),
        role TEXT NOT NULL CHECK (role IN (${ROLES})),
        password_hash TEXT NOT NULL,
        disabled_at TEXT,
        created_at TEXT NOT NULL,
        last_sign_in_at TEXT
      ) STRICT, WITHOUT ROWID;
      CREATE TABLE admin_sessions (
        token_hash TEXT PRIMARY KEY,
        user_id TEXT NOT NULL REFERENCES admin_users (id),
        created_at TEXT NOT NULL,
        expires_at TEXT NOT NULL,
        last_seen_at TEXT NOT NULL
      ) STRICT, WITHOUT ROWID;
      CREATE INDEX admin_sessions_of_user ON admin_sessions (user_id);
      CREATE TABLE audit_log (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        at TEXT NOT NULL,
        actor TEXT NOT NULL,
        role TEXT CHECK (role IN (${ROLES})),
        ip TEXT,
        action TEXT NOT NULL,
        target TEXT,
        outcome TEXT NOT NULL CHECK (outcome IN (${OUTCOMES})),
        details TEXT NOT NULL DEFAULT '{}'
      ) STRICT;
      CREATE INDEX audit_log_by_at ON audit_log (at);
      CREATE TRIGGER audit_log_no_update BEFORE UPDATE ON audit_log
        BEGIN SELECT RAISE(ABORT, 'the audit trail is append-only'); END;
      CREATE TRIGGER audit_log_no_delete BEFORE DELETE ON audit_log
        BEGIN SELECT RAISE(ABORT, 'the audit trail is append-only'); END;
    `,
    postgres: `
      CREATE TABLE admin_users (
        id text PRIMARY KEY,
        email text NOT NULL UNIQUE CHECK (email = lower(email)),
        role text NOT NULL CHECK (role IN (${ROLES})),
        password_hash text NOT NULL,
        disabled_at timestamptz,
        created_at timestamptz NOT NULL,
        last_sign_in_at timestamptz
      );
      CREATE TABLE admin_sessions (
        token_hash text PRIMARY KEY,
        user_id text NOT NULL REFERENCES admin_users (id),
        created_at timestamptz NOT NULL,
        expires_at timestamptz NOT NULL,
        last_seen_at timestamptz NOT NULL
      );
      CREATE INDEX admin_sessions_of_user ON admin_sessions (user_id);
      CREATE TABLE audit_log (
        seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        at timestamptz NOT NULL,
        actor text NOT NULL,
        role text CHECK (role IN (${ROLES})),
        ip text,
        action text NOT NULL,
        target text,
        outcome text NOT NULL CHECK (outcome IN (${OUTCOMES})),
        details jsonb NOT NULL DEFAULT '{}'
      );
      CREATE INDEX audit_log_by_at ON audit_log (at);
      CREATE FUNCTION audit_log_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN RAISE EXCEPTION 'the audit trail is append-only'; END $$;
      CREATE TRIGGER audit_log_no_change BEFORE UPDATE OR DELETE ON audit_log
        FOR EACH ROW EXECUTE FUNCTION audit_log_append_only();
      CREATE TRIGGER audit_log_no_truncate BEFORE TRUNCATE ON audit_log
        FOR EACH STATEMENT EXECUTE FUNCTION audit_log_append_only();
    `,
  },
];
