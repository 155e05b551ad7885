/**
 * The default store: one SQLite file through better-sqlite3. The driver is synchronous; the async `Store` surface
 * lets the BFF swap in PostgreSQL without changes. Every write runs in a BEGIN IMMEDIATE transaction, so a second
 * process on the same file waits for the write lock (busy_timeout) instead of failing or reading a stale row.
 */
import Database from 'better-sqlite3';
import { checkpointInBackground } from '../lib/wal-checkpointer';
import { LIVE_STATES, RESERVING_STATES, type StoredState } from '../../core/states';
import { accountsPart } from './accounts-part';
import { backOfficePart } from './back-office-part';
import { companyPaymentsPart } from './company-payments-part';
import { deliveriesPart } from './deliveries';
import { deliveryLogPart } from './delivery-log';
import { endpointsPart } from './endpoints';
import { migrateSqlite } from './migrate';
import { startOnlineMigrations } from './sqlite-online';
import { sqlList } from './migrations';
import { reconcilePart } from './reconcile';
import { activationSteps, insertSteps, supersedingInsertSteps, transitionSteps, type Insert, type Step, type StepResults } from './plans';
import { sqliteReader } from './sqlite-reader';
import { sqliteDb } from './sql/sqlite-executor';
import { driveSync } from './sql/work';
import { checkoutFromRow as fromRow, eventFromRow, merchantEventFromRow, toJson, type Row } from './rows';
import {
  ActivationSchema,
  EventSourceSchema,
  InstantSchema,
  NewCheckoutSchema,
  type CheckoutState,
  type EventSource,
  type Store,
  type TransitionChanges,
} from './types';
import { checkoutStateOf, eventSourceOf, instantOf } from './input-checks';
import { takeWriteTurns, writeTurnsOf, type WriteTurns } from './write-turns';

export interface SqliteStoreOptions {
  file: string;
  /** How long a write waits for another connection's lock before failing. */
  busyTimeoutMs?: number;
  /** The online half of the pending schema steps starts after this (tests hold it); a second after opening by default. */
  onlineMigrationsAfter?: Promise<void>;
  /** Whose turn it is to write (./write-turns.ts): the request thread's, with this process's counters of `file`, by default. */
  writeTurns?: WriteTurns;
}

const RESERVING = sqlList(RESERVING_STATES);
const LIVE = sqlList(LIVE_STATES);

/** One move's UPDATE, with `extra` assignments (an activation's transaction id and window) before the bookkeeping. */
const moveSql = (extra: string) => `
  UPDATE checkouts SET state = @to, seq = seq + 1, updated_at = @at, details = json_patch(details, @details),
    duplicate_of = @duplicateOf, ${extra}
    last_checked_at = coalesce(max(coalesce(last_checked_at, ''), @checkedAt), last_checked_at),
    last_webhook_at = coalesce(max(coalesce(last_webhook_at, ''), @webhookAt), last_webhook_at)
  WHERE id = @id AND state = @from
  RETURNING *`;

export function openSqliteStore({ file, busyTimeoutMs = 5_000, onlineMigrationsAfter, writeTurns }: SqliteStoreOptions): Store {
  const db = new Database(file, { timeout: busyTimeoutMs });
  if (!db.memory) takeWriteTurns(db, writeTurns ?? { buffer: writeTurnsOf(file), role: 'request' });
  db.pragma('journal_mode = WAL');
  // WAL with synchronous=NORMAL: a commit is atomic and survives a crash of the process, but the last commits
  // before a power loss or an OS crash may be rolled back (WAL is synced at checkpoints, not at every commit). That
  // is safe here because the provider is the source of truth: a checkout whose activation is lost that way is
  // found again (its reservation is settled against the provider, a webhook of an unknown transaction of ours is
  // adopted) and a lost state change is re-read by the reconciler. See docs/architecture.md, "Durability".
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  const online = startOnlineMigrations(db, migrateSqlite(db), onlineMigrationsAfter);
  // Checkpoints (copying the WAL back and its fsync) run in a worker thread, not inside a request's commit.
  const releaseCheckpoints = checkpointInBackground(db);
  // The back office's long reads run in a thread of their own (./sqlite-reader), so they never hold a shopper's request.
  const reader = sqliteReader(db, { timeoutMs: busyTimeoutMs });
  const parts = sqliteDb(db, reader, online.built);

  const sql = {
    reserve: db.prepare(`
      INSERT INTO checkouts (id, order_id, method, state, amount_cents, currency, description, payer_cpf, payer_name,
        details, seq, expires_at, created_at, updated_at)
      VALUES (@id, @orderId, @method, 'Creating', @amountCents, @currency, @description, @payerCpf, @payerName,
        @details, 0, @expiresAt, @createdAt, @createdAt)
      ON CONFLICT (order_id) WHERE state IN (${RESERVING}) AND duplicate_of IS NULL DO NOTHING
      RETURNING *`),
    reserving: db.prepare(`SELECT * FROM checkouts WHERE order_id = ? AND state IN (${RESERVING}) AND duplicate_of IS NULL`),
    // No conflict target: a stored transaction id and a taken one-per-order place both make it insert nothing.
    insertActive: db.prepare(`
      INSERT INTO checkouts (id, order_id, method, state, amount_cents, currency, description, payer_cpf, payer_name,
        details, transaction_id, duplicate_of, seq, expires_at, created_at, updated_at)
      VALUES (@id, @orderId, @method, @state, @amountCents, @currency, @description, @payerCpf, @payerName,
        @details, @transactionId, @duplicateOf, 1, @expiresAt, @createdAt, @at)
      ON CONFLICT DO NOTHING
      RETURNING *`),
    discard: db.prepare(`DELETE FROM checkouts WHERE id = ? AND state = 'Creating'`),
    byId: db.prepare(`SELECT * FROM checkouts WHERE id = ?`),
    byTransaction: db.prepare(`SELECT * FROM checkouts WHERE transaction_id = ?`),
    byOrder: db.prepare(`SELECT * FROM checkouts WHERE order_id = ? ORDER BY created_at, id`),
    // One move of the state machine's plan (see ./plans): guarded by the state it was decided from. SQLite rewrites
    // every index over a column an UPDATE names, changed or not: a move that sets no transaction id and no window
    // (every one but an activation, `moveActivating`) names neither, which spares each payment's commit the page of
    // the transaction ids' unique index.
    move: db.prepare(moveSql('')),
    moveActivating: db.prepare(
      moveSql('transaction_id = coalesce(@transactionId, transaction_id), expires_at = coalesce(@expiresAt, expires_at),'),
    ),
    // The order's other checkout in its one-per-order place.
    placeHolder: db.prepare(`
      SELECT id, state FROM checkouts
      WHERE order_id = (SELECT order_id FROM checkouts WHERE id = @id) AND id <> @id
        AND state IN (${RESERVING}) AND duplicate_of IS NULL
      LIMIT 1`),
    insertEvent: db.prepare(`
      INSERT INTO checkout_events (checkout_id, seq, state, source, at, data)
      VALUES (@checkoutId, @seq, @state, @source, @at, @data)
      RETURNING *`),
    eventsAfter: db.prepare(`SELECT * FROM checkout_events WHERE checkout_id = ? AND seq > ? ORDER BY seq`),
    insertMerchantEvent: db.prepare(`INSERT INTO merchant_events (id, type, created_at, data) VALUES (@id, @type, @createdAt, @data)`),
    merchantEventsAfter: db.prepare(`
      SELECT * FROM merchant_events
      WHERE seq > @after AND (@types IS NULL OR type IN (SELECT value FROM json_each(@types)))
      ORDER BY seq LIMIT @limit`),
    // max() keeps the later date when a slow request finishes after a newer one; '' sorts before any date.
    webhookSeen: db.prepare(`UPDATE checkouts SET last_webhook_at = max(coalesce(last_webhook_at, ''), @at) WHERE id = @id`),
    checked: db.prepare(`UPDATE checkouts SET last_checked_at = max(coalesce(last_checked_at, ''), @at) WHERE id = @id`),
    expired: db.prepare(`
      SELECT * FROM checkouts INDEXED BY checkouts_expiring
      WHERE state IN (${LIVE}) AND expires_at <= @now ORDER BY expires_at, id LIMIT @limit`),
  };
  const one = (statement: Database.Statement, ...params: unknown[]) => statement.get(...params) as Row | undefined;
  const all = (statement: Database.Statement, ...params: unknown[]) => statement.all(...params) as Row[];

  const checkoutFromRow = (row: Row) => fromRow(row, 'text');
  const maybeCheckout = (row: Row | undefined) => (row ? checkoutFromRow(row) : undefined);

  const reserve = db.transaction((draft: ReturnType<typeof NewCheckoutSchema.parse>) => {
    const inserted = one(sql.reserve, { ...draft, details: toJson(draft.details) });
    if (inserted) return { created: true as const, checkout: checkoutFromRow(inserted) };
    const existing = one(sql.reserving, draft.orderId);
    if (!existing) throw new Error(`order ${draft.orderId} conflicted but has no reserving checkout`);
    return { created: false as const, checkout: checkoutFromRow(existing) };
  });

  /** A move's optional fields, bound as NULL when the plan leaves them out (SQLite wants every named parameter). */
  const UNSET_MOVE_FIELDS = { transactionId: null, expiresAt: null, checkedAt: null, webhookAt: null };
  /** Carries out one step of the state machine's plan (./plans) inside the current transaction. */
  const runStep = (step: Step): StepResults[Step['step']] => {
    switch (step.step) {
      case 'read':
        return maybeCheckout(one(sql.byId, step.id));
      case 'holder':
        return one(sql.placeHolder, { id: step.id }) as { id: string; state: StoredState } | undefined;
      case 'move': {
        const { move } = step;
        const activating = move.transactionId !== undefined || move.expiresAt !== undefined;
        return maybeCheckout(
          one(activating ? sql.moveActivating : sql.move, { ...UNSET_MOVE_FIELDS, ...move, details: toJson(move.details) }),
        );
      }
      case 'insert': {
        const { draft, fields, duplicateOf, at } = step.insert;
        const row = one(sql.insertActive, {
          ...draft,
          state: fields.state,
          transactionId: fields.transactionId,
          details: toJson({ ...draft.details, ...fields.details }),
          duplicateOf,
          expiresAt: fields.expiresAt ?? draft.expiresAt,
          at,
        });
        return row && checkoutFromRow(row);
      }
      case 'merchant':
        sql.insertMerchantEvent.run({ ...step.event, data: toJson(step.event.data) });
        return undefined;
      case 'event':
        return eventFromRow(one(sql.insertEvent, { ...step.event, data: toJson(step.event.data) })!, 'text');
    }
  };
  const activate = db.transaction((id: string, fields: ReturnType<typeof ActivationSchema.parse>, at: string) =>
    driveSync(activationSteps(id, fields, at), runStep),
  );
  const transition = db.transaction(
    (
      id: string,
      from: CheckoutState[],
      to: CheckoutState,
      source: EventSource,
      data: Record<string, unknown>,
      at: string,
      changes: TransitionChanges,
    ) => driveSync(transitionSteps(id, from, to, source, data, at, changes), runStep),
  );

  const insertActive = db.transaction(
    (draft: Insert['draft'], fields: Insert['fields'], source: EventSource, duplicateOf: string | null, at: string) =>
      driveSync(insertSteps(draft, fields, source, duplicateOf, at), runStep),
  );
  const insertSuperseding = db.transaction(
    (draft: Insert['draft'], fields: Insert['fields'], source: EventSource, holderId: string, at: string) =>
      driveSync(supersedingInsertSteps(draft, fields, source, holderId, at), runStep),
  );

  return {
    ...backOfficePart(parts),
    ...companyPaymentsPart(parts),
    ...deliveriesPart(parts),
    ...endpointsPart(parts),
    ...deliveryLogPart(parts),
    ...accountsPart(parts),
    ...reconcilePart(parts),
    async reserveCheckout(draft) {
      return reserve.immediate(NewCheckoutSchema.parse(draft));
    },
    async activateCheckout(id, fields, at) {
      return activate.immediate(id, ActivationSchema.parse(fields), InstantSchema.parse(at));
    },
    async discardCheckout(id) {
      sql.discard.run(id);
    },
    async getCheckout(id) {
      return maybeCheckout(one(sql.byId, id));
    },
    async findCheckoutByTransaction(transactionId) {
      return maybeCheckout(one(sql.byTransaction, transactionId));
    },
    async findCheckoutsByOrder(orderId) {
      return all(sql.byOrder, orderId).map(checkoutFromRow);
    },
    async transition(id, from, to, source, data, at, changes = {}) {
      const states = from.map(checkoutStateOf);
      const next = checkoutStateOf(to);
      return transition.immediate(id, states, next, eventSourceOf(source), data, instantOf(at), changes);
    },
    async merchantEventsAfter(afterSeq, limit, types) {
      const rows = all(sql.merchantEventsAfter, { after: afterSeq, limit, types: types?.length ? JSON.stringify(types) : null });
      return rows.map((row) => merchantEventFromRow(row, 'text'));
    },
    async eventsAfter(checkoutId, afterSeq) {
      return all(sql.eventsAfter, checkoutId, afterSeq).map((row) => eventFromRow(row, 'text'));
    },
    async markWebhookSeen(id, at) {
      sql.webhookSeen.run({ id, at: instantOf(at) });
    },
    async markChecked(id, at) {
      sql.checked.run({ id, at: instantOf(at) });
    },
    async claimWebhookNonce(nonce, atInput, forgetBeforeInput) {
      const seenAt = InstantSchema.parse(atInput);
      const forgetBefore = InstantSchema.parse(forgetBeforeInput);
      return db
        .transaction(() => {
          db.prepare('DELETE FROM webhook_nonces WHERE seen_at < ?').run(forgetBefore);
          return (
            db.prepare('INSERT INTO webhook_nonces (nonce, seen_at) VALUES (?, ?) ON CONFLICT (nonce) DO NOTHING').run(nonce, seenAt)
              .changes === 1
          );
        })
        .immediate();
    },
    async releaseWebhookNonce(nonce) {
      db.prepare('DELETE FROM webhook_nonces WHERE nonce = ?').run(nonce);
    },
    async insertActive(draft, fields, source, duplicateOf, at) {
      return insertActive.immediate(
        NewCheckoutSchema.parse(draft),
        ActivationSchema.parse(fields),
        EventSourceSchema.parse(source),
        duplicateOf,
        InstantSchema.parse(at),
      );
    },
    async insertSuperseding(draft, fields, source, holderId, at) {
      return insertSuperseding.immediate(
        NewCheckoutSchema.parse(draft),
        ActivationSchema.parse(fields),
        EventSourceSchema.parse(source),
        holderId,
        InstantSchema.parse(at),
      );
    },
    async listExpiredCheckouts(now, limit) {
      return all(sql.expired, { now: InstantSchema.parse(now), limit }).map(checkoutFromRow);
    },
    async close() {
      await online.stop();
      await reader.close();
      db.close();
      releaseCheckpoints();
    },
  };
}
