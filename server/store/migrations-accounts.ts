/**
 * Schema steps 12 and 21 (`auditChainSteps`).
 *
 * Step 12: the back office's named users, their sessions and the audit trail (./accounts).
 *
 * - `admin_users.email` is stored lower-case (a CHECK says so), so its UNIQUE constraint is case-insensitive.
 * - `admin_sessions` keeps the SHA-256 of each session token, never the token itself.
 * - `audit_log` is append-only: triggers refuse every UPDATE and DELETE (and, in PostgreSQL, TRUNCATE), so neither a
 *   route nor a stray query can rewrite what was done. `seq` orders it (newest first is `seq DESC`).
 */
import { chainExisting } from './audit-chain';
import { sqlList, step, type Migration } from './migration-step';
import { addColumn, bigint, byDialect, createTable, identity, index, instant, integer, json, text } from './sql/ddl';

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

/** Step 12's trigger, as it wrote it. */
const NO_UPDATE = `CREATE TRIGGER audit_log_no_update BEFORE UPDATE ON audit_log
        BEGIN SELECT RAISE(ABORT, 'the audit trail is append-only'); END`;

/**
 * Step 21: the audit trail's hash chain (./audit-chain.ts). Each entry gets `prev_hash` and `hash`, and
 * `audit_chain` names the last one. The entries already there are chained in seq order in the step's own
 * transaction, their UPDATE trigger set aside for it and put back before it commits (SQLite drops and recreates it;
 * PostgreSQL disables and enables it, which no other session sees): nothing else can write the trail meanwhile, the
 * step holding its table's lock (PostgreSQL's ALTER TABLE) or the write lock (SQLite). An instance of an older
 * version still running appends entries without a hash: `audit verify` names the first of them.
 */
export const auditChainSteps: readonly Migration[] = [
  step({
    version: 21,
    name: "the audit trail's hash chain: each entry's prev_hash and hash, the chain's head, the entries already there chained",
    ddl: [
      addColumn('audit_log', 'prev_hash', text()),
      addColumn('audit_log', 'hash', text()),
      createTable('audit_chain', {
        id: integer().primaryKey().check('id = 1'),
        seq: bigint().notNull(),
        hash: text().notNull(),
      }),
      byDialect({
        sqlite: ['DROP TRIGGER audit_log_no_update'],
        postgres: ['ALTER TABLE audit_log DISABLE TRIGGER audit_log_no_change'],
      }),
    ],
    backfill: {
      work: chainExisting,
      then: [
        byDialect({
          sqlite: [NO_UPDATE],
          postgres: ['ALTER TABLE audit_log ENABLE TRIGGER audit_log_no_change'],
        }),
      ],
    },
  }),
];
