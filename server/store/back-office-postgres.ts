/**
 * The back-office part of the PostgreSQL store (see `back-office.ts`), with the same behaviour as the SQLite one: a
 * cash-out's change is written in one transaction with the merchant's events it makes (./merchant-events).
 */
import type pg from 'pg';
import { CASH_OUT_SENDING, CheckoutWebhookSchema, ForeignTransactionSchema, NewCashOutSchema, type BackOfficeStore } from './back-office';
import { AWAITING_ANSWER, checkoutListQuery, FOLLOWED, HOLDING, UNSETTLED } from './back-office-sql';
import { merchantEventsOfCashOut } from './merchant-events';
import { inTransaction, insertMerchantEvent } from './pg-transaction';
import { cashOutFromRow, checkoutFromRow, foreignFromRow, webhookFromRow, type Row } from './rows';

/** Dates in the `toISOString()` form the receipt's `paidAt` is written in, so the two compare as text. */
const ISO = `'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'`;

/** What a cash-out's change returns besides the row: the refunded checkout's order, which a refund's events carry. */
const RETURNING = `RETURNING *, (SELECT order_id FROM checkouts WHERE checkouts.id = refund_of) AS checkout_order_id`;

export function backOfficePostgres(pool: pg.Pool): BackOfficeStore {
  const one = async (text: string, values: unknown[]) => (await pool.query<Row>(text, values)).rows[0];
  const all = async (text: string, values: unknown[]) => (await pool.query<Row>(text, values)).rows;
  const maybe = (row: Row | undefined) => (row ? cashOutFromRow(row) : undefined);

  /**
   * Runs one guarded write of the key's cash-out (`activate` or `update`, `$1` the key) and, in the same transaction,
   * writes the merchant's events of the change. `before` is read locked, so it is the row the write then changes.
   */
  async function changeCashOut(key: string, write: string, values: unknown[]) {
    return inTransaction(pool, async (client) => {
      const before = maybe((await client.query<Row>('SELECT * FROM cashouts WHERE idempotency_key = $1 FOR UPDATE', [key])).rows[0]);
      const row = (await client.query<Row>(write, values)).rows[0];
      if (!row) return { before, after: undefined };
      const after = cashOutFromRow(row);
      const events = merchantEventsOfCashOut(before, after, (row.checkout_order_id as string | null) ?? undefined);
      for (const event of events) await insertMerchantEvent(client, event);
      return { before, after };
    });
  }

  return {
    async recordForeignTransaction(input) {
      const t = ForeignTransactionSchema.parse(input);
      const inserted = await pool.query(
        `INSERT INTO foreign_transactions (transaction_id, order_id, method, amount, state, reason, seen_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT DO NOTHING`,
        [t.transactionId, t.orderId, t.method, t.amount, t.state, t.reason, t.seenAt],
      );
      return inserted.rowCount === 1;
    },
    async listForeignTransactions(limit) {
      return (await all('SELECT * FROM foreign_transactions ORDER BY seen_at DESC, transaction_id LIMIT $1', [limit])).map(foreignFromRow);
    },
    async recordWebhook(input) {
      const webhook = CheckoutWebhookSchema.parse(input);
      await pool.query(
        `INSERT INTO checkout_webhooks (checkout_id, transaction_id, state, outcome, received_at) VALUES ($1, $2, $3, $4, $5)`,
        [webhook.checkoutId, webhook.transactionId, webhook.state, webhook.outcome, webhook.receivedAt],
      );
    },
    async webhooksOf(checkoutId, limit) {
      const rows = await all(
        'SELECT * FROM (SELECT * FROM checkout_webhooks WHERE checkout_id = $1 ORDER BY id DESC LIMIT $2) recent ORDER BY id',
        [checkoutId, limit],
      );
      return rows.map(webhookFromRow);
    },
    async listCheckouts(filter, limit) {
      const values: unknown[] = [];
      const param = (value: unknown) => `$${values.push(value)}`;
      const query = checkoutListQuery(filter, limit, {
        param,
        inList: (column, list) => `${column} = ANY(${param(list)}::text[])`,
        paidAfterWindow: `(details->>'paidAt') > to_char(expires_at AT TIME ZONE 'UTC', ${ISO})`,
      });
      return (await all(query, values)).map((row) => checkoutFromRow(row, 'parsed'));
    },
    async reserveCashOut(input) {
      const d = NewCashOutSchema.parse(input);
      // A refund place freed between the insert and the look-up lets the next attempt insert.
      for (let attempt = 0; attempt < 5; attempt++) {
        const inserted = await one(
          `INSERT INTO cashouts (idempotency_key, fingerprint, order_id, state, amount_cents, recipient_name, recipient_cpf,
             key_type, key_value, description, refund_of, created_at, updated_at)
           VALUES ($1, $2, $3, '${CASH_OUT_SENDING}', $4, $5, $6, $7, $8, $9, $10, $11, $11)
           ON CONFLICT DO NOTHING
           RETURNING *`,
          [
            d.idempotencyKey,
            d.fingerprint,
            d.orderId,
            d.amountCents,
            d.recipientName,
            d.recipientCpf,
            d.keyType,
            d.keyValue,
            d.description,
            d.refundOf,
            d.createdAt,
          ],
        );
        if (inserted) return { outcome: 'created', cashOut: cashOutFromRow(inserted) };
        const existing = await one('SELECT * FROM cashouts WHERE idempotency_key = $1', [d.idempotencyKey]);
        if (existing) return { outcome: 'existing', cashOut: cashOutFromRow(existing) };
        const refund = d.refundOf
          ? await one(`SELECT * FROM cashouts WHERE refund_of = $1 AND state IN (${HOLDING})`, [d.refundOf])
          : undefined;
        if (refund) return { outcome: 'refund_taken', cashOut: cashOutFromRow(refund) };
      }
      throw new Error(`cash-out ${d.idempotencyKey}: reservation kept conflicting with rows that then disappeared`);
    },
    async activateCashOut(key, transactionId, state, at) {
      const { after } = await changeCashOut(
        key,
        `UPDATE cashouts SET transaction_id = $2, state = $3, updated_at = $4
         WHERE idempotency_key = $1 AND state IN (${AWAITING_ANSWER})
         ${RETURNING}`,
        [key, transactionId, state, new Date(at).toISOString()],
      );
      return after;
    },
    async discardCashOut(key) {
      await pool.query(`DELETE FROM cashouts WHERE idempotency_key = $1 AND state IN (${AWAITING_ANSWER})`, [key]);
    },
    async updateCashOut(key, fields, at) {
      const { before, after } = await changeCashOut(
        key,
        `UPDATE cashouts SET state = $2, charges = COALESCE($3, charges), updated_at = $4
         WHERE idempotency_key = $1 AND state IN (${FOLLOWED})
           AND (state <> $2 OR COALESCE(charges, '') <> COALESCE($3, charges, ''))
         ${RETURNING}`,
        [key, fields.state, fields.charges ?? null, new Date(at).toISOString()],
      );
      return after ? { changed: true, cashOut: after } : { changed: false, cashOut: before };
    },
    async findCashOutByTransaction(transactionId) {
      return maybe(await one('SELECT * FROM cashouts WHERE transaction_id = $1', [transactionId]));
    },
    async getCashOut(key) {
      return maybe(await one('SELECT * FROM cashouts WHERE idempotency_key = $1', [key]));
    },
    async listCashOuts(limit) {
      return (await all('SELECT * FROM cashouts ORDER BY created_at DESC, idempotency_key DESC LIMIT $1', [limit])).map(cashOutFromRow);
    },
    async listUnsettledCashOuts(limit) {
      const rows = await all(`SELECT * FROM cashouts WHERE state IN (${UNSETTLED}) ORDER BY updated_at, idempotency_key LIMIT $1`, [limit]);
      return rows.map(cashOutFromRow);
    },
    async refundsOf(checkoutIds) {
      if (checkoutIds.length === 0) return [];
      const rows = await all('SELECT * FROM cashouts WHERE refund_of = ANY($1::text[]) ORDER BY created_at, idempotency_key', [
        [...checkoutIds],
      ]);
      return rows.map(cashOutFromRow);
    },
  };
}
