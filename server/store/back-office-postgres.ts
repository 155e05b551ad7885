/**
 * The back-office part of the PostgreSQL store (see `back-office.ts`), with the same behaviour as the SQLite one: a
 * cash-out's change is written in one transaction with the merchant's events it makes (./merchant-events).
 */
import type pg from 'pg';
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
import { inTransaction, insertMerchantEvent } from './pg-transaction';
import { mapInSlices } from './slices';
import { cashOutFromRow, checkoutFromRow, foreignFromRow, webhookFromRow, type Row } from './rows';

/** The payments list's query (./back-office-sql) as this store runs it: positional parameters, the planner's index. */
export function postgresCheckoutList(filter: CheckoutFilter, limit: number): { text: string; values: unknown[] } {
  const values: unknown[] = [];
  const text = checkoutListQuery(filter, limit, {
    param: (value) => `$${values.push(value)}`,
    paidAfterWindow: PAID_LATE.postgres,
    checkoutsBy: () => 'checkouts',
  });
  return { text, values };
}

/** The refunds of the checkouts `$1` (a text array), oldest first; `= ANY` seeks `cashouts_by_refund`. */
export const POSTGRES_REFUNDS_OF = 'SELECT * FROM cashouts WHERE refund_of = ANY($1::text[]) ORDER BY created_at, idempotency_key';

/** What a cash-out's change returns besides the row: the refunded checkout's order, which a refund's events carry. */
const RETURNING = `RETURNING *, (SELECT order_id FROM checkouts WHERE checkouts.id = refund_of) AS checkout_order_id`;

const BY_KEY = 'SELECT * FROM cashouts WHERE idempotency_key = $1';

/** A cash-out put back whole with its late answer (`adoptCashOut`), its values in `CASH_OUT_COLUMNS` order. */
const PUT_BACK = `
  INSERT INTO cashouts (${CASH_OUT_COLUMNS.join(', ')}) VALUES (${CASH_OUT_COLUMNS.map((_, i) => `$${i + 1}`).join(', ')})
  ON CONFLICT DO NOTHING
  ${RETURNING}`;

const INSERT_CASH_OUT = `
  INSERT INTO cashouts (idempotency_key, fingerprint, order_id, state, amount_cents, recipient_name, recipient_cpf,
    key_type, key_value, description, refund_of, requested_by, created_at, updated_at)
  VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $13)
  ON CONFLICT DO NOTHING
  RETURNING *`;

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
      const before = await locked(client, key);
      const row = (await client.query<Row>(write, values)).rows[0];
      return { before, after: row ? await withEvents(client, before, row) : undefined };
    });
  }

  const locked = async (client: pg.PoolClient, key: string) =>
    maybe((await client.query<Row>('SELECT * FROM cashouts WHERE idempotency_key = $1 FOR UPDATE', [key])).rows[0]);

  /** The cash-out a change's RETURNING row is, its merchant events written (in the change's transaction). */
  async function withEvents(client: pg.PoolClient, before: CashOut | undefined, row: Row): Promise<CashOut> {
    const after = cashOutFromRow(row);
    const events = merchantEventsOfCashOut(before, after, (row.checkout_order_id as string | null) ?? undefined);
    for (const event of events) await insertMerchantEvent(client, event);
    return after;
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
      const { text, values } = postgresCheckoutList(filter, limit);
      return mapInSlices(await all(text, values), (row) => checkoutFromRow(row, 'parsed'));
    },
    async reserveCashOut(input) {
      const d = NewCashOutSchema.parse(input);
      const state = d.awaitsApproval ? CASH_OUT_PENDING_APPROVAL : CASH_OUT_SENDING;
      const values = [
        d.idempotencyKey,
        d.fingerprint,
        d.orderId,
        state,
        d.amountCents,
        d.recipientName,
        d.recipientCpf,
        d.keyType,
        d.keyValue,
        d.description,
        d.refundOf,
        d.requestedBy,
        d.createdAt,
      ];
      // A key freed between the insert and the look-up (a discarded cash-out) lets the next attempt insert.
      for (let attempt = 0; attempt < 5; attempt++) {
        const result = await inTransaction(pool, async (client): Promise<ReserveCashOutResult | undefined> => {
          const row = async (text: string, params: unknown[]) => (await client.query<Row>(text, params)).rows[0];
          if (d.refundOf) {
            // The checkout's row locked first: concurrent refunds of it, on any instance, take turns from here to the commit.
            const checkout = await row('SELECT state, amount_cents FROM checkouts WHERE id = $1 FOR UPDATE', [d.refundOf]);
            const existing = await row('SELECT * FROM cashouts WHERE idempotency_key = $1', [d.idempotencyKey]);
            if (existing) return { outcome: 'existing', cashOut: cashOutFromRow(existing) };
            if (!checkout || checkout.state !== COMPLETED) return { outcome: 'not_paid' };
            const sending = await row(`SELECT 1 FROM cashouts WHERE refund_of = $1 AND state = '${CASH_OUT_SENDING}' LIMIT 1`, [
              d.refundOf,
            ]);
            if (sending) return { outcome: 'in_progress' };
            const paid = BigInt(checkout.amount_cents as string);
            const sum = await row(
              `SELECT coalesce(sum(amount_cents), 0)::text AS held FROM cashouts WHERE refund_of = $1 AND state IN (${HOLDING})`,
              [d.refundOf],
            );
            const held = BigInt(sum!.held as string);
            if (held + BigInt(d.amountCents) > paid) {
              return { outcome: 'exceeds_paid', refundableCents: Number(paid > held ? paid - held : 0n) };
            }
          }
          const inserted = await row(INSERT_CASH_OUT, values);
          if (inserted) return { outcome: 'created', cashOut: cashOutFromRow(inserted) };
          const existing = await row('SELECT * FROM cashouts WHERE idempotency_key = $1', [d.idempotencyKey]);
          return existing ? { outcome: 'existing', cashOut: cashOutFromRow(existing) } : undefined;
        });
        if (result) return result;
      }
      throw new Error(`cash-out ${d.idempotencyKey}: reservation kept conflicting with rows that then disappeared`);
    },
    async decideCashOut(key, { approve, by, at }) {
      const decided = await one(
        `UPDATE cashouts SET state = $2, decided_by = $3, decided_at = $4, updated_at = $4
         WHERE idempotency_key = $1 AND state IN (${AWAITING_DECISION})
         RETURNING *`,
        [key, approve ? CASH_OUT_SENDING : CASH_OUT_REJECTED, by, new Date(at).toISOString()],
      );
      if (decided) return { outcome: 'decided', cashOut: cashOutFromRow(decided) };
      const current = await one('SELECT * FROM cashouts WHERE idempotency_key = $1', [key]);
      return current ? { outcome: 'not_pending', cashOut: cashOutFromRow(current) } : { outcome: 'not_found' };
    },
    async listApprovals(state, limit) {
      const rows =
        state === 'pending'
          ? await all(`SELECT * FROM cashouts WHERE state = '${CASH_OUT_PENDING_APPROVAL}' ORDER BY created_at, idempotency_key LIMIT $1`, [
              limit,
            ])
          : await all('SELECT * FROM cashouts WHERE decided_at IS NOT NULL ORDER BY decided_at DESC, idempotency_key DESC LIMIT $1', [
              limit,
            ]);
      return rows.map(cashOutFromRow);
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
    async adoptCashOut(reserved, transactionId, state, at) {
      const key = reserved.idempotencyKey;
      const iso = new Date(at).toISOString();
      return inTransaction(pool, async (client) => {
        const before = await locked(client, key);
        const row = before
          ? (
              await client.query<Row>(
                `UPDATE cashouts SET transaction_id = $2, state = $3, updated_at = $4
                 WHERE idempotency_key = $1 AND state IN (${LATE_ANSWER}) AND transaction_id IS NULL
                 ${RETURNING}`,
                [key, transactionId, state, iso],
              )
            ).rows[0]
          : (await client.query<Row>(PUT_BACK, adoptedRow(reserved, transactionId, state, iso))).rows[0];
        return row ? withEvents(client, before, row) : maybe((await client.query<Row>(BY_KEY, [key])).rows[0]);
      });
    },
    async discardCashOut(key) {
      // Sent without an approval: deleted. Approved: waits for a decision again. (One statement each, each guarded.)
      const deleted = await pool.query(
        `DELETE FROM cashouts WHERE idempotency_key = $1 AND state IN (${AWAITING_ANSWER}) AND decided_at IS NULL`,
        [key],
      );
      if (deleted.rowCount) return;
      await pool.query(
        `UPDATE cashouts SET state = '${CASH_OUT_PENDING_APPROVAL}', decided_by = NULL, decided_at = NULL
         WHERE idempotency_key = $1 AND state IN (${REOPENED_FROM}) AND decided_at IS NOT NULL`,
        [key],
      );
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
      return mapInSlices(await all(POSTGRES_REFUNDS_OF, [[...checkoutIds]]), cashOutFromRow);
    },
  };
}
