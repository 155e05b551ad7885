/**
 * The back-office part of the SQLite store (see `back-office.ts`); writes run in BEGIN IMMEDIATE transactions, a
 * cash-out's change with the merchant's events it makes (./merchant-events).
 */
import type Database from 'better-sqlite3';
import { CASH_OUT_SENDING, CheckoutWebhookSchema, ForeignTransactionSchema, NewCashOutSchema, type BackOfficeStore } from './back-office';
import { AWAITING_ANSWER, checkoutListQuery, FOLLOWED, HOLDING, UNSETTLED } from './back-office-sql';
import { merchantEventsOfCashOut } from './merchant-events';
import { cashOutFromRow, checkoutFromRow, foreignFromRow, toJson, webhookFromRow, type Row } from './rows';

/** What a cash-out's change returns besides the row: the refunded checkout's order, which a refund's events carry. */
const RETURNING = `RETURNING *, (SELECT order_id FROM checkouts WHERE checkouts.id = refund_of) AS checkout_order_id`;

export function backOfficeSqlite(db: Database.Database): BackOfficeStore {
  const sql = {
    reserve: db.prepare(`
      INSERT INTO cashouts (idempotency_key, fingerprint, order_id, state, amount_cents, recipient_name, recipient_cpf,
        key_type, key_value, description, refund_of, created_at, updated_at)
      VALUES (@idempotencyKey, @fingerprint, @orderId, '${CASH_OUT_SENDING}', @amountCents, @recipientName, @recipientCpf,
        @keyType, @keyValue, @description, @refundOf, @createdAt, @createdAt)
      ON CONFLICT DO NOTHING
      RETURNING *`),
    byKey: db.prepare(`SELECT * FROM cashouts WHERE idempotency_key = ?`),
    byTransaction: db.prepare(`SELECT * FROM cashouts WHERE transaction_id = ?`),
    holdingRefund: db.prepare(`SELECT * FROM cashouts WHERE refund_of = ? AND state IN (${HOLDING})`),
    activate: db.prepare(`
      UPDATE cashouts SET transaction_id = @transactionId, state = @state, updated_at = @at
      WHERE idempotency_key = @key AND state IN (${AWAITING_ANSWER})
      ${RETURNING}`),
    discard: db.prepare(`DELETE FROM cashouts WHERE idempotency_key = ? AND state IN (${AWAITING_ANSWER})`),
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
    refundsOf: db.prepare(`
      SELECT * FROM cashouts WHERE refund_of IN (SELECT value FROM json_each(?)) ORDER BY created_at, idempotency_key`),
  };
  const one = (statement: Database.Statement, ...params: unknown[]) => statement.get(...params) as Row | undefined;
  const all = (statement: Database.Statement, ...params: unknown[]) => statement.all(...params) as Row[];
  const maybe = (row: Row | undefined) => (row ? cashOutFromRow(row) : undefined);

  const reserve = db.transaction((draft: ReturnType<typeof NewCashOutSchema.parse>) => {
    const inserted = one(sql.reserve, draft);
    if (inserted) return { outcome: 'created' as const, cashOut: cashOutFromRow(inserted) };
    const existing = one(sql.byKey, draft.idempotencyKey);
    if (existing) return { outcome: 'existing' as const, cashOut: cashOutFromRow(existing) };
    const refund = draft.refundOf ? one(sql.holdingRefund, draft.refundOf) : undefined;
    if (refund) return { outcome: 'refund_taken' as const, cashOut: cashOutFromRow(refund) };
    throw new Error(`cash-out ${draft.idempotencyKey} conflicted with nothing that holds its place`);
  });

  /**
   * Runs one guarded write of the key's cash-out (`activate` or `update`) and, in the same transaction, writes the
   * merchant's events of the change; `before` is the cash-out as the transaction found it.
   */
  const changeCashOut = db.transaction((key: string, write: Database.Statement, params: Record<string, unknown>) => {
    const before = maybe(one(sql.byKey, key));
    const row = one(write, params);
    if (!row) return { before, after: undefined };
    const after = cashOutFromRow(row);
    for (const event of merchantEventsOfCashOut(before, after, (row.checkout_order_id as string | null) ?? undefined)) {
      sql.insertMerchantEvent.run({ ...event, data: toJson(event.data) });
    }
    return { before, after };
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
      const params: Record<string, unknown> = {};
      const param = (value: unknown) => {
        const name = `p${Object.keys(params).length}`;
        params[name] = value;
        return `@${name}`;
      };
      const query = checkoutListQuery(filter, limit, {
        param,
        inList: (column, values) => `${column} IN (SELECT value FROM json_each(${param(JSON.stringify(values))}))`,
        paidAfterWindow: `json_extract(details, '$.paidAt') > expires_at`,
      });
      return (db.prepare(query).all(params) as Row[]).map((row) => checkoutFromRow(row, 'text'));
    },
    async reserveCashOut(input) {
      return reserve.immediate(NewCashOutSchema.parse(input));
    },
    async activateCashOut(key, transactionId, state, at) {
      return changeCashOut.immediate(key, sql.activate, { key, transactionId, state, at: new Date(at).toISOString() }).after;
    },
    async discardCashOut(key) {
      sql.discard.run(key);
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
      if (checkoutIds.length === 0) return [];
      return all(sql.refundsOf, JSON.stringify(checkoutIds)).map(cashOutFromRow);
    },
  };
}
