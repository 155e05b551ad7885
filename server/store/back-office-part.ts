/**
 * The back-office part of the store (see `back-office.ts`), written once for both databases (`backOfficePart`). A
 * cash-out's change is one write transaction (SQLite's BEGIN IMMEDIATE; PostgreSQL's BEGIN … COMMIT, the cash-out's
 * row read locked first) with the merchant's events it makes (./merchant-events). The payments list and its refunds,
 * which the console's pages and the CSV export read, are long reads (`Db.list`): on SQLite they run in the reader
 * thread (./sqlite-reader), so they never hold a shopper's request.
 */
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
  refundsOfQuery,
  UNSETTLED,
} from './back-office-sql';
import { merchantEventsOfCashOut } from './merchant-events';
import { merchantEventWriter } from './merchant-event-writes';
import { cashOutFromRow, checkoutFromRow, foreignFromRow, webhookFromRow, type Row } from './rows';
import { mapInSlices } from './slices';
import type { Db } from './sql/db';
import { all, get, run, type Params, type Work } from './sql/work';

/** What a cash-out's change returns besides the row: the refunded checkout's order, which a refund's events carry. */
const RETURNING = `RETURNING *, (SELECT order_id FROM checkouts WHERE checkouts.id = refund_of) AS checkout_order_id`;

/** Reservations tried before giving up: a key freed between the insert and the look-up (a discarded cash-out) lets the next insert. */
const RESERVE_ATTEMPTS = 5;

export function backOfficePart(db: Db): BackOfficeStore {
  const d = db.dialect;
  const sql = {
    reserve: `
      INSERT INTO cashouts (idempotency_key, fingerprint, order_id, state, amount_cents, recipient_name, recipient_cpf,
        key_type, key_value, description, refund_of, requested_by, created_at, updated_at)
      VALUES (@idempotencyKey, @fingerprint, @orderId, @state, @amountCents, @recipientName, @recipientCpf,
        @keyType, @keyValue, @description, @refundOf, @requestedBy, @createdAt, @createdAt)
      ON CONFLICT DO NOTHING
      RETURNING *`,
    byKey: `SELECT * FROM cashouts WHERE idempotency_key = @key`,
    // The row the change then writes, locked on PostgreSQL; SQLite's write lock is held from the first read.
    lockedByKey: `SELECT * FROM cashouts WHERE idempotency_key = @key${d.forUpdate}`,
    byTransaction: `SELECT * FROM cashouts WHERE transaction_id = @transactionId`,
    // Locked on PostgreSQL: concurrent refunds of the checkout, on any instance, take turns from here to the commit.
    refunded: `SELECT state, amount_cents FROM checkouts WHERE id = @refundOf${d.forUpdate}`,
    // As text: the sum of a checkout's refunds stays exact whatever the driver makes of a large integer.
    heldRefunds: `
      SELECT CAST(coalesce(sum(amount_cents), 0) AS TEXT) AS held FROM cashouts WHERE refund_of = @refundOf AND state IN (${HOLDING})`,
    refundSending: `SELECT 1 FROM cashouts WHERE refund_of = @refundOf AND state = '${CASH_OUT_SENDING}' LIMIT 1`,
    decide: `
      UPDATE cashouts SET state = @state, decided_by = @by, decided_at = @at, updated_at = @at
      WHERE idempotency_key = @key AND state IN (${AWAITING_DECISION})
      RETURNING *`,
    pendingApprovals: `
      SELECT * FROM cashouts WHERE state = '${CASH_OUT_PENDING_APPROVAL}' ORDER BY created_at, idempotency_key LIMIT @limit`,
    decidedApprovals: `
      SELECT * FROM cashouts WHERE decided_at IS NOT NULL ORDER BY decided_at DESC, idempotency_key DESC LIMIT @limit`,
    activate: `
      UPDATE cashouts SET transaction_id = @transactionId, state = @state, updated_at = @at
      WHERE idempotency_key = @key AND state IN (${AWAITING_ANSWER})
      ${RETURNING}`,
    lateAnswer: `
      UPDATE cashouts SET transaction_id = @transactionId, state = @state, updated_at = @at
      WHERE idempotency_key = @key AND state IN (${LATE_ANSWER}) AND transaction_id IS NULL
      ${RETURNING}`,
    putBack: `
      INSERT INTO cashouts (${CASH_OUT_COLUMNS.join(', ')}) VALUES (${CASH_OUT_COLUMNS.map((column) => `@${column}`).join(', ')})
      ON CONFLICT DO NOTHING
      ${RETURNING}`,
    discard: `DELETE FROM cashouts WHERE idempotency_key = @key AND state IN (${AWAITING_ANSWER}) AND decided_at IS NULL`,
    reopen: `
      UPDATE cashouts SET state = '${CASH_OUT_PENDING_APPROVAL}', decided_by = NULL, decided_at = NULL
      WHERE idempotency_key = @key AND state IN (${REOPENED_FROM}) AND decided_at IS NOT NULL`,
    update: `
      UPDATE cashouts SET state = @state, charges = coalesce(@charges, charges), updated_at = @at
      WHERE idempotency_key = @key AND state IN (${FOLLOWED})
        AND (state <> @state OR coalesce(charges, '') <> coalesce(@charges, charges, ''))
      ${RETURNING}`,
    recent: `SELECT * FROM cashouts ORDER BY created_at DESC, idempotency_key DESC LIMIT @limit`,
    unsettled: `SELECT * FROM cashouts WHERE state IN (${UNSETTLED}) ORDER BY updated_at, idempotency_key LIMIT @limit`,
    refundsOf: refundsOfQuery(d),
    recordWebhook: `
      INSERT INTO checkout_webhooks (checkout_id, transaction_id, state, outcome, received_at)
      VALUES (@checkoutId, @transactionId, @state, @outcome, @receivedAt)`,
    webhooksOf: `
      SELECT * FROM (SELECT * FROM checkout_webhooks WHERE checkout_id = @checkoutId ORDER BY id DESC LIMIT @limit) recent ORDER BY id`,
    recordForeign: `
      INSERT INTO foreign_transactions (transaction_id, order_id, method, amount, state, reason, seen_at)
      VALUES (@transactionId, @orderId, @method, @amount, @state, @reason, @seenAt)
      ON CONFLICT DO NOTHING`,
    foreign: `SELECT * FROM foreign_transactions ORDER BY seen_at DESC, transaction_id LIMIT @limit`,
  };
  const merchantEvents = merchantEventWriter(d);
  const maybe = (row: Row | undefined) => (row ? cashOutFromRow(row) : undefined);
  const cashOuts = async (statement: string, params: Params) => (await db.read(() => all(statement, params))).map(cashOutFromRow);
  const iso = (at: string) => new Date(at).toISOString();

  /**
   * Takes the key, or finds what keeps a refund from being taken: in one write transaction that holds the refunded
   * checkout (locked) from the first read, so a refund's sum cannot change between the check and the insert.
   * Undefined when the insert conflicted with a key that was gone by the look-up.
   */
  function* reserve(draft: ReturnType<typeof NewCashOutSchema.parse>): Work<ReserveCashOutResult | undefined> {
    const { awaitsApproval, ...row } = draft;
    const key = draft.idempotencyKey;
    const checkout = row.refundOf ? yield* get(sql.refunded, row) : undefined;
    const existing = yield* get(sql.byKey, { key });
    if (existing) return { outcome: 'existing', cashOut: cashOutFromRow(existing) };
    if (row.refundOf) {
      if (checkout?.state !== COMPLETED) return { outcome: 'not_paid' };
      if (yield* get(sql.refundSending, row)) return { outcome: 'in_progress' };
      const paid = BigInt(String(checkout.amount_cents));
      const held = BigInt((yield* get<{ held: string }>(sql.heldRefunds, row))!.held);
      if (held + BigInt(draft.amountCents) > paid) {
        return { outcome: 'exceeds_paid', refundableCents: Number(paid > held ? paid - held : 0n) };
      }
    }
    const inserted = yield* get(sql.reserve, { ...row, state: awaitsApproval ? CASH_OUT_PENDING_APPROVAL : CASH_OUT_SENDING });
    if (inserted) return { outcome: 'created', cashOut: cashOutFromRow(inserted) };
    const holder = yield* get(sql.byKey, { key });
    return holder ? { outcome: 'existing', cashOut: cashOutFromRow(holder) } : undefined;
  }

  /** The cash-out a change's RETURNING row is, its merchant events written (in the change's transaction). */
  function* withEvents(before: CashOut | undefined, row: Row): Work<CashOut> {
    const after = cashOutFromRow(row);
    for (const event of merchantEventsOfCashOut(before, after, (row.checkout_order_id as string | null) ?? undefined)) {
      yield* merchantEvents.write(event);
    }
    return after;
  }

  /**
   * One guarded write of the key's cash-out (`activate` or `update`) with the merchant's events of the change;
   * `before` is the cash-out as the transaction found it, the row the write then changes.
   */
  function* change(key: string, write: string, params: Params): Work<{ before?: CashOut; after?: CashOut }> {
    const before = maybe(yield* get(sql.lockedByKey, { key }));
    const row = yield* get(write, params);
    return { before, after: row ? yield* withEvents(before, row) : undefined };
  }

  /** A late answer: the row activated from a state holding no transaction, or put back whole when it was deleted. */
  function* adopt(reserved: CashOut, transactionId: string, state: string, at: string): Work<CashOut | undefined> {
    const key = reserved.idempotencyKey;
    const before = maybe(yield* get(sql.lockedByKey, { key }));
    const row = before
      ? yield* get(sql.lateAnswer, { key, transactionId, state, at })
      : yield* get(sql.putBack, adoptedRow(reserved, transactionId, state, at));
    return row ? yield* withEvents(before, row) : maybe(yield* get(sql.byKey, { key }));
  }

  return {
    async recordForeignTransaction(input) {
      const params = ForeignTransactionSchema.parse(input);
      return (await db.read(() => run(sql.recordForeign, params))) === 1;
    },
    async listForeignTransactions(limit) {
      return (await db.read(() => all(sql.foreign, { limit }))).map(foreignFromRow);
    },
    async recordWebhook(input) {
      const params = CheckoutWebhookSchema.parse(input);
      await db.read(() => run(sql.recordWebhook, params));
    },
    async webhooksOf(checkoutId, limit) {
      return (await db.read(() => all(sql.webhooksOf, { checkoutId, limit }))).map(webhookFromRow);
    },
    async listCheckouts(filter, limit) {
      const { text, params } = checkoutListQuery(d, filter, limit, (index) => db.built(index));
      return mapInSlices(await db.list(() => all(text, params)), (row) => checkoutFromRow(row, d.rows));
    },
    async reserveCashOut(input) {
      const draft = NewCashOutSchema.parse(input);
      for (let attempt = 0; attempt < RESERVE_ATTEMPTS; attempt++) {
        const result = await db.write(() => reserve(draft));
        if (result) return result;
      }
      throw new Error(`cash-out ${draft.idempotencyKey}: reservation kept conflicting with rows that then disappeared`);
    },
    async decideCashOut(key, { approve, by, at }) {
      const params = { key, state: approve ? CASH_OUT_SENDING : CASH_OUT_REJECTED, by, at: iso(at) };
      return db.read(function* () {
        const decided = yield* get(sql.decide, params);
        if (decided) return { outcome: 'decided', cashOut: cashOutFromRow(decided) };
        const current = yield* get(sql.byKey, { key });
        return current ? { outcome: 'not_pending', cashOut: cashOutFromRow(current) } : { outcome: 'not_found' };
      });
    },
    listApprovals: (state, limit) => cashOuts(state === 'pending' ? sql.pendingApprovals : sql.decidedApprovals, { limit }),
    async activateCashOut(key, transactionId, state, at) {
      const params = { key, transactionId, state, at: iso(at) };
      return (await db.write(() => change(key, sql.activate, params))).after;
    },
    adoptCashOut: (reserved, transactionId, state, at) => db.write(() => adopt(reserved, transactionId, state, iso(at))),
    async discardCashOut(key) {
      // Sent without an approval: deleted. Approved: waits for a decision again. (Each statement guarded.)
      await db.write(function* () {
        if ((yield* run(sql.discard, { key })) === 0) yield* run(sql.reopen, { key });
      });
    },
    async updateCashOut(key, fields, at) {
      const params = { key, state: fields.state, charges: fields.charges ?? null, at: iso(at) };
      const { before, after } = await db.write(() => change(key, sql.update, params));
      return after ? { changed: true, cashOut: after } : { changed: false, cashOut: before };
    },
    async findCashOutByTransaction(transactionId) {
      return maybe(await db.read(() => get(sql.byTransaction, { transactionId })));
    },
    async getCashOut(key) {
      return maybe(await db.read(() => get(sql.byKey, { key })));
    },
    listCashOuts: (limit) => cashOuts(sql.recent, { limit }),
    listUnsettledCashOuts: (limit) => cashOuts(sql.unsettled, { limit }),
    async refundsOf(checkoutIds) {
      if (checkoutIds.length === 0) return [];
      const ids = d.list([...new Set(checkoutIds)]);
      return mapInSlices(await db.list(() => all(sql.refundsOf, { ids })), cashOutFromRow);
    },
  };
}
