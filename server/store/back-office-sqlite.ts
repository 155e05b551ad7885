/**
 * The back-office part of the SQLite store (see `back-office.ts`); writes run in BEGIN IMMEDIATE transactions, a
 * cash-out's change with the merchant's events it makes (./merchant-events).
 */
import type Database from 'better-sqlite3';
import { COMPLETED } from '../../core/states';
import {
  CASH_OUT_PENDING_APPROVAL,
  CASH_OUT_REJECTED,
  CASH_OUT_SENDING,
  CheckoutWebhookSchema,
  ForeignTransactionSchema,
  NewCashOutSchema,
  type BackOfficeStore,
  type CashOut,
  type CheckoutFilter,
  type ReserveCashOutResult,
} from './back-office';
import {
  AWAITING_ANSWER,
  AWAITING_DECISION,
  adoptedRow,
  CASH_OUT_COLUMNS,
  checkoutListQuery,
  FOLLOWED,
  HOLDING,
  LATE_ANSWER,
  REOPENED_FROM,
  UNSETTLED,
} from './back-office-sql';
import { merchantEventsOfCashOut } from './merchant-events';
import { PAID_LATE } from './migrations-indexes';
import { cashOutFromRow, checkoutFromRow, foreignFromRow, toJson, webhookFromRow, type Row } from './rows';
import { mapInSlices } from './slices';
import type { SqliteReader } from './sqlite-reader';

/** What a cash-out's change returns besides the row: the refunded checkout's order, which a refund's events carry. */
const RETURNING = `RETURNING *, (SELECT order_id FROM checkouts WHERE checkouts.id = refund_of) AS checkout_order_id`;

/**
 * The payments list's query (./back-office-sql) as this store runs it: named parameters, its index named when
 * `built` says it exists (an online step may still be building it: the query then reads the same rows without it).
 */
export function sqliteCheckoutList(
  filter: CheckoutFilter,
  limit: number,
  built: (index: string) => boolean = () => true,
): { text: string; params: Record<string, unknown> } {
  const params: Record<string, unknown> = {};
  const text = checkoutListQuery(filter, limit, {
    param: (value) => {
      const name = `p${Object.keys(params).length}`;
      params[name] = value;
      return `@${name}`;
    },
    paidAfterWindow: PAID_LATE.sqlite,
    checkoutsBy: (index) => (built(index) ? `checkouts INDEXED BY ${index}` : 'checkouts'),
  });
  return { text, params };
}

/** Checkout ids per `refundsOf` statement (SQLite allows 32,766 parameters). */
const REFUND_IDS = 1_024;

/** The refunds of `count` checkouts, oldest first: `refund_of IN (?, …)` seeks `cashouts_by_refund`. */
export const sqliteRefundsOf = (count: number) =>
  `SELECT * FROM cashouts WHERE refund_of IN (${Array.from({ length: count }, () => '?').join(', ')}) ORDER BY created_at, idempotency_key`;

/** SQLite's BINARY order of two text columns: their UTF-8 bytes. */
const binary = (a: unknown, b: unknown) => Buffer.compare(Buffer.from(String(a)), Buffer.from(String(b)));

/**
 * `reader` runs the long reads (the payments list and its refunds, which the console's pages and the CSV export
 * make) off the request thread (./sqlite-reader); `built` tells whether an index exists yet (./migrate-online).
 */
export function backOfficeSqlite(db: Database.Database, reader: SqliteReader, built: (index: string) => boolean): BackOfficeStore {
  const sql = {
    reserve: db.prepare(`
      INSERT INTO cashouts (idempotency_key, fingerprint, order_id, state, amount_cents, recipient_name, recipient_cpf,
        key_type, key_value, description, refund_of, requested_by, created_at, updated_at)
      VALUES (@idempotencyKey, @fingerprint, @orderId, @state, @amountCents, @recipientName, @recipientCpf,
        @keyType, @keyValue, @description, @refundOf, @requestedBy, @createdAt, @createdAt)
      ON CONFLICT DO NOTHING
      RETURNING *`),
    byKey: db.prepare(`SELECT * FROM cashouts WHERE idempotency_key = ?`),
    byTransaction: db.prepare(`SELECT * FROM cashouts WHERE transaction_id = ?`),
    paidCheckout: db.prepare(`SELECT amount_cents FROM checkouts WHERE id = ? AND state = '${COMPLETED}'`),
    heldRefunds: db.prepare(`SELECT coalesce(sum(amount_cents), 0) AS held FROM cashouts WHERE refund_of = ? AND state IN (${HOLDING})`),
    refundSending: db.prepare(`SELECT 1 FROM cashouts WHERE refund_of = ? AND state = '${CASH_OUT_SENDING}' LIMIT 1`),
    decide: db.prepare(`
      UPDATE cashouts SET state = @state, decided_by = @by, decided_at = @at, updated_at = @at
      WHERE idempotency_key = @key AND state IN (${AWAITING_DECISION})
      RETURNING *`),
    pendingApprovals: db.prepare(`
      SELECT * FROM cashouts WHERE state = '${CASH_OUT_PENDING_APPROVAL}' ORDER BY created_at, idempotency_key LIMIT ?`),
    decidedApprovals: db.prepare(`
      SELECT * FROM cashouts WHERE decided_at IS NOT NULL ORDER BY decided_at DESC, idempotency_key DESC LIMIT ?`),
    activate: db.prepare(`
      UPDATE cashouts SET transaction_id = @transactionId, state = @state, updated_at = @at
      WHERE idempotency_key = @key AND state IN (${AWAITING_ANSWER})
      ${RETURNING}`),
    lateAnswer: db.prepare(`
      UPDATE cashouts SET transaction_id = @transactionId, state = @state, updated_at = @at
      WHERE idempotency_key = @key AND state IN (${LATE_ANSWER}) AND transaction_id IS NULL
      ${RETURNING}`),
    putBack: db.prepare(`
      INSERT INTO cashouts (${CASH_OUT_COLUMNS.join(', ')}) VALUES (${CASH_OUT_COLUMNS.map(() => '?').join(', ')})
      ON CONFLICT DO NOTHING
      ${RETURNING}`),
    discard: db.prepare(`DELETE FROM cashouts WHERE idempotency_key = ? AND state IN (${AWAITING_ANSWER}) AND decided_at IS NULL`),
    reopen: db.prepare(`
      UPDATE cashouts SET state = '${CASH_OUT_PENDING_APPROVAL}', decided_by = NULL, decided_at = NULL
      WHERE idempotency_key = ? AND state IN (${REOPENED_FROM}) AND decided_at IS NOT NULL`),
    update: db.prepare(`
      UPDATE cashouts SET state = @state, charges = coalesce(@charges, charges), updated_at = @at
      WHERE idempotency_key = @key AND state IN (${FOLLOWED})
        AND (state <> @state OR coalesce(charges, '') <> coalesce(@charges, charges, ''))
      ${RETURNING}`),
    insertMerchantEvent: db.prepare(`INSERT INTO merchant_events (id, type, created_at, data) VALUES (@id, @type, @createdAt, @data)`),
    recent: db.prepare(`SELECT * FROM cashouts ORDER BY created_at DESC, idempotency_key DESC LIMIT ?`),
    unsettled: db.prepare(`SELECT * FROM cashouts WHERE state IN (${UNSETTLED}) ORDER BY updated_at, idempotency_key LIMIT ?`),
    recordWebhook: db.prepare(`
      INSERT INTO checkout_webhooks (checkout_id, transaction_id, state, outcome, received_at)
      VALUES (@checkoutId, @transactionId, @state, @outcome, @receivedAt)`),
    webhooksOf: db.prepare(`
      SELECT * FROM (SELECT * FROM checkout_webhooks WHERE checkout_id = ? ORDER BY id DESC LIMIT ?) ORDER BY id`),
  };
  const one = (statement: Database.Statement, ...params: unknown[]) => statement.get(...params) as Row | undefined;
  const all = (statement: Database.Statement, ...params: unknown[]) => statement.all(...params) as Row[];
  const maybe = (row: Row | undefined) => (row ? cashOutFromRow(row) : undefined);
  /**
   * Takes the key (run IMMEDIATE: the write lock is held from the first read, so a refund's sum cannot change
   * between the check and the insert, whatever other process writes the file).
   */
  const reserve = db.transaction((draft: ReturnType<typeof NewCashOutSchema.parse>): ReserveCashOutResult => {
    const existing = one(sql.byKey, draft.idempotencyKey);
    if (existing) return { outcome: 'existing', cashOut: cashOutFromRow(existing) };
    if (draft.refundOf) {
      const checkout = one(sql.paidCheckout, draft.refundOf);
      if (!checkout) return { outcome: 'not_paid' };
      if (one(sql.refundSending, draft.refundOf)) return { outcome: 'in_progress' };
      const paid = BigInt(checkout.amount_cents as number);
      const held = BigInt(one(sql.heldRefunds, draft.refundOf)!.held as number);
      if (held + BigInt(draft.amountCents) > paid)
        return { outcome: 'exceeds_paid', refundableCents: Number(paid > held ? paid - held : 0n) };
    }
    const { awaitsApproval, ...row } = draft;
    const inserted = one(sql.reserve, { ...row, state: awaitsApproval ? CASH_OUT_PENDING_APPROVAL : CASH_OUT_SENDING });
    if (!inserted) throw new Error(`cash-out ${draft.idempotencyKey} conflicted with nothing that holds its place`);
    return { outcome: 'created', cashOut: cashOutFromRow(inserted) };
  });

  /**
   * Runs one guarded write of the key's cash-out (`activate` or `update`) and, in the same transaction, writes the
   * merchant's events of the change; `before` is the cash-out as the transaction found it.
   */
  const changeCashOut = db.transaction((key: string, write: Database.Statement, params: Record<string, unknown>) => {
    const before = maybe(one(sql.byKey, key));
    const row = one(write, params);
    return { before, after: row ? withEvents(before, row) : undefined };
  });

  /** The cash-out a change's RETURNING row is, its merchant events written (in the change's transaction). */
  function withEvents(before: CashOut | undefined, row: Row): CashOut {
    const after = cashOutFromRow(row);
    for (const event of merchantEventsOfCashOut(before, after, (row.checkout_order_id as string | null) ?? undefined)) {
      sql.insertMerchantEvent.run({ ...event, data: toJson(event.data) });
    }
    return after;
  }

  /** A late answer: the row activated from a state holding no transaction, or put back whole when it was deleted. */
  const adopt = db.transaction((reserved: CashOut, transactionId: string, state: string, at: string) => {
    const key = reserved.idempotencyKey;
    const before = maybe(one(sql.byKey, key));
    const row = before
      ? one(sql.lateAnswer, { key, transactionId, state, at })
      : one(sql.putBack, ...adoptedRow(reserved, transactionId, state, at));
    return row ? withEvents(before, row) : maybe(one(sql.byKey, key));
  });

  /** Deletes a key sent without an approval; puts an approved one back to waiting for a decision. */
  const discard = db.transaction((key: string) => {
    if (sql.discard.run(key).changes === 0) sql.reopen.run(key);
  });

  const foreign = {
    insert: db.prepare(`
      INSERT INTO foreign_transactions (transaction_id, order_id, method, amount, state, reason, seen_at)
      VALUES (@transactionId, @orderId, @method, @amount, @state, @reason, @seenAt)
      ON CONFLICT DO NOTHING`),
    recent: db.prepare(`SELECT * FROM foreign_transactions ORDER BY seen_at DESC, transaction_id LIMIT ?`),
  };

  return {
    async recordForeignTransaction(input) {
      return foreign.insert.run(ForeignTransactionSchema.parse(input)).changes === 1;
    },
    async listForeignTransactions(limit) {
      return all(foreign.recent, limit).map(foreignFromRow);
    },
    async recordWebhook(input) {
      sql.recordWebhook.run(CheckoutWebhookSchema.parse(input));
    },
    async webhooksOf(checkoutId, limit) {
      return all(sql.webhooksOf, checkoutId, limit).map(webhookFromRow);
    },
    async listCheckouts(filter, limit) {
      const { text, params } = sqliteCheckoutList(filter, limit, built);
      return mapInSlices(await reader.all(text, params), (row) => checkoutFromRow(row, 'text'));
    },
    async reserveCashOut(input) {
      return reserve.immediate(NewCashOutSchema.parse(input));
    },
    async decideCashOut(key, { approve, by, at }) {
      const state = approve ? CASH_OUT_SENDING : CASH_OUT_REJECTED;
      const decided = one(sql.decide, { key, state, by, at: new Date(at).toISOString() });
      if (decided) return { outcome: 'decided', cashOut: cashOutFromRow(decided) };
      const current = one(sql.byKey, key);
      return current ? { outcome: 'not_pending', cashOut: cashOutFromRow(current) } : { outcome: 'not_found' };
    },
    async listApprovals(state, limit) {
      return all(state === 'pending' ? sql.pendingApprovals : sql.decidedApprovals, limit).map(cashOutFromRow);
    },
    async activateCashOut(key, transactionId, state, at) {
      return changeCashOut.immediate(key, sql.activate, { key, transactionId, state, at: new Date(at).toISOString() }).after;
    },
    async adoptCashOut(reserved, transactionId, state, at) {
      return adopt.immediate(reserved, transactionId, state, new Date(at).toISOString());
    },
    async discardCashOut(key) {
      discard.immediate(key);
    },
    async updateCashOut(key, fields, at) {
      const { before, after } = changeCashOut.immediate(key, sql.update, {
        key,
        state: fields.state,
        charges: fields.charges ?? null,
        at: new Date(at).toISOString(),
      });
      return after ? { changed: true, cashOut: after } : { changed: false, cashOut: before };
    },
    async findCashOutByTransaction(transactionId) {
      return maybe(one(sql.byTransaction, transactionId));
    },
    async getCashOut(key) {
      return maybe(one(sql.byKey, key));
    },
    async listCashOuts(limit) {
      return all(sql.recent, limit).map(cashOutFromRow);
    },
    async listUnsettledCashOuts(limit) {
      return all(sql.unsettled, limit).map(cashOutFromRow);
    },
    async refundsOf(checkoutIds) {
      const ids = [...new Set(checkoutIds)];
      const rows: Row[] = [];
      for (let start = 0; start < ids.length; start += REFUND_IDS) {
        const chunk = ids.slice(start, start + REFUND_IDS);
        // Padded with its first id to a power of two, so a handful of statements serve every page size.
        const size = 2 ** Math.ceil(Math.log2(chunk.length));
        rows.push(...(await reader.all(sqliteRefundsOf(size), [...chunk, ...Array<string>(size - chunk.length).fill(chunk[0]!)])));
      }
      // More than one statement (never for a page): their rows merged in the same order, SQLite's BINARY one.
      if (ids.length > REFUND_IDS) rows.sort((a, b) => binary(a.created_at, b.created_at) || binary(a.idempotency_key, b.idempotency_key));
      return rows.map(cashOutFromRow);
    },
  };
}
