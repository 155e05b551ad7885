/**
 * The audit trail's hash chain (schema step 21, ./migrations-accounts.ts), written once for both databases: each
 * entry keeps the hash of the one before it (`prev_hash`, the first one's being `GENESIS`) and its own (`hash`), the
 * SHA-256 of its fields in a canonical form (`auditHash`) and of `prev_hash`. A one-row table, `audit_chain`, names
 * the last entry and its hash, so an entry cut off the end is missed too.
 *
 * - An append (`appendChained`) reads the chain's head, inserts the entry with the next seq and moves the head, in one
 *   write transaction: SQLite's BEGIN IMMEDIATE orders them, and on PostgreSQL the head's row is locked (`FOR
 *   UPDATE`) before the seq is drawn, so two instances appending at once add to one chain, never fork it, and seqs
 *   grow in the chain's order. The entry read back is hashed again before commit: what verifies later is what was
 *   written.
 * - A check (`verifyChain`) walks the trail in seq order and names the first entry that does not fit: its content no
 *   longer gives its hash (edited behind the triggers' back), or its `prev_hash` is not the hash of the entry before
 *   it (one deleted in between, or inserted); and the head's entry must be met on the way (the end cut off). Seq gaps
 *   mean nothing (PostgreSQL's sequence skips the seqs of rolled-back appends).
 *
 * The chain shows a change made around the store; it does not stop one made by someone who can also compute the
 * hashes again: keep copies of the head (`audit verify` prints it) where they cannot reach.
 */
import { createHash } from 'node:crypto';
import type { AuditEntry, AuditVerification, NewAuditEntry } from './accounts';
import { auditFromRow } from './accounts-rows';
import type { Row } from './rows';
import { pick, type Dialect } from './sql/dialect';
import { all, get, run, type Work } from './sql/work';

/** The `prev_hash` of the first entry. */
export const GENESIS = '0'.repeat(64);

/** JSON with every object's keys in order (by UTF-16 code units), so a value has one text whatever its keys' order. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
    entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** The hash of `entry` chained after `prevHash`: SHA-256 (hex) of its fields, in a fixed order, as canonical JSON. */
export function auditHash(entry: AuditEntry, prevHash: string): string {
  const { seq, at, actor, role, ip, action, target, outcome, details } = entry;
  const fields = [seq, at, actor, role, ip, action, target, outcome, details, prevHash];
  return createHash('sha256')
    .update(`audit-chain-v1 ${canonicalJson(fields)}`)
    .digest('hex');
}

/** How many entries a walk reads per statement. */
const PAGE = 500;

const sql = {
  page: `SELECT * FROM audit_log WHERE seq > @after ORDER BY seq LIMIT ${PAGE}`,
  link: `UPDATE audit_log SET prev_hash = @prevHash, hash = @hash WHERE seq = @seq`,
  startHead: `INSERT INTO audit_chain (id, seq, hash) VALUES (1, @seq, @hash)`,
  moveHead: `UPDATE audit_chain SET seq = @seq, hash = @hash WHERE id = 1`,
};

type Head = { seq: number; hash: string };

function* readHead(d: Dialect, lock: boolean): Work<Head> {
  const row = yield* get(`SELECT seq, hash FROM audit_chain WHERE id = 1${lock ? d.forUpdate : ''}`);
  if (!row) throw new Error('the audit trail has no chain head (schema step 21 is missing)');
  return { seq: Number(row.seq), hash: String(row.hash) };
}

/** The entries after seq `after`, a page of them, in seq order. */
const page = (after: number): Work<Row[]> => all(sql.page, { after });
const lastSeq = (rows: readonly Row[]) => (rows.length < PAGE ? undefined : Number(rows.at(-1)!.seq));

/** The back-fill of step 21: chains the entries written before it, in seq order, and starts the head. */
export function* chainExisting(d: Dialect): Work<void> {
  const head: Head = { seq: 0, hash: GENESIS };
  for (let after: number | undefined = 0; after !== undefined;) {
    const rows = yield* page(after);
    for (const row of rows) {
      const entry = auditFromRow(row, d.rows);
      const hash = auditHash(entry, head.hash);
      yield* run(sql.link, { seq: entry.seq, prevHash: head.hash, hash });
      Object.assign(head, { seq: entry.seq, hash });
    }
    after = lastSeq(rows);
  }
  yield* run(sql.startHead, head);
}

/** The statements of an append that differ: the next seq, and PostgreSQL's leave to give an identity column one. */
const nextSeq = (d: Dialect) =>
  pick(d, {
    sqlite: `SELECT coalesce((SELECT seq FROM sqlite_sequence WHERE name = 'audit_log'), 0) + 1 AS seq`,
    postgres: `SELECT nextval(pg_get_serial_sequence('audit_log', 'seq')) AS seq`,
  });
const insert = (d: Dialect) => `
  INSERT INTO audit_log (seq, at, actor, role, ip, action, target, outcome, details, prev_hash, hash)
  ${pick(d, { sqlite: '', postgres: 'OVERRIDING SYSTEM VALUE' })}
  VALUES (@seq, @at, @actor, @role, @ip, @action, @target, @outcome, ${d.json('details')}, @prevHash, @hash)
  RETURNING *`;

/** The append's work, for a write transaction: `entry`'s fields already in their stored form (`at` an instant). */
export function appendChained(d: Dialect): (entry: NewAuditEntry) => Work<AuditEntry> {
  const statements = { nextSeq: nextSeq(d), insert: insert(d) };
  return function* (entry) {
    const head = yield* readHead(d, true);
    const seq = Number((yield* get(statements.nextSeq))!.seq);
    // The details as they come back from the database: JSON's text, without what JSON drops (undefined).
    const details = JSON.parse(JSON.stringify(entry.details ?? {})) as Record<string, unknown>;
    const { at, actor, action, outcome } = entry;
    const fields = {
      seq,
      at,
      actor,
      role: entry.role ?? null,
      ip: entry.ip ?? null,
      action,
      target: entry.target ?? null,
      outcome,
      details,
    };
    const hash = auditHash(fields, head.hash);
    const row = yield* get(statements.insert, { ...fields, details: JSON.stringify(details), prevHash: head.hash, hash });
    const written = auditFromRow(row!, d.rows);
    if (auditHash(written, head.hash) !== hash) throw new Error('audit trail: the entry read back does not give the hash written');
    yield* run(sql.moveHead, { seq, hash });
    return written;
  };
}

/** Walks the chain; reads only, so the store's appends go on meanwhile (the head is read first, and only grows). */
export function* verifyChain(d: Dialect): Work<AuditVerification> {
  const head = yield* readHead(d, false);
  let prevHash = GENESIS;
  let count = 0;
  let metHead = head.seq === 0 && head.hash === GENESIS;
  for (let after: number | undefined = 0; after !== undefined;) {
    const rows = yield* page(after);
    for (const row of rows) {
      const entry = auditFromRow(row, d.rows);
      const first = { seq: entry.seq, at: entry.at };
      if (row.prev_hash !== prevHash) return { ok: false, count, first: { ...first, reason: 'unlinked' } };
      if (row.hash !== auditHash(entry, prevHash)) return { ok: false, count, first: { ...first, reason: 'changed' } };
      prevHash = String(row.hash);
      count += 1;
      if (entry.seq === head.seq) metHead = prevHash === head.hash;
    }
    after = lastSeq(rows);
  }
  if (!metHead) return { ok: false, count, first: { seq: head.seq, at: null, reason: 'cut' } };
  return { ok: true, count, head };
}
