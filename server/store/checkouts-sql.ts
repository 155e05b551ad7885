/**
 * The checkouts part's statements (./checkouts), written once for both databases with `@name` parameters and the
 * dialect's fragments. Made once at open, so each text is a constant the executors prepare (SQLite) or number (`pg`)
 * once; nothing here is built per call.
 */
import { LIVE_STATES, RESERVING_STATES } from '../../core/states';
import { sqlList } from './migration-step';
import type { Dialect } from './sql/dialect';

const RESERVING = sqlList(RESERVING_STATES);
const LIVE = sqlList(LIVE_STATES);

/** The order's checkout in its one-per-order place: reserving and not a duplicate (the partial unique index's terms). */
const IN_PLACE = `state IN (${RESERVING}) AND duplicate_of IS NULL`;

export function checkoutStatements(d: Dialect) {
  /**
   * One move of the state machine's plan (./plans): guarded by the state it was decided from, so it writes nothing
   * otherwise. `extra` assignments (an activation's transaction id and window) come before the bookkeeping, each of
   * which only moves forward. SQLite rewrites every index over a column an UPDATE names, changed or not: a move that
   * sets no transaction id and no window (every one but an activation) names neither, which spares each payment's
   * commit the page of the transaction ids' unique index.
   */
  const move = (extra: string) => `
    UPDATE checkouts SET state = @to, seq = seq + 1, updated_at = @at, details = ${d.jsonMerge('details', 'details')},
      duplicate_of = @duplicateOf, ${extra}
      last_checked_at = ${d.later('last_checked_at', 'checkedAt')},
      last_webhook_at = ${d.later('last_webhook_at', 'webhookAt')}
    WHERE id = @id AND state = @from
    RETURNING *`;
  return {
    reserve: `
      INSERT INTO checkouts (id, order_id, method, state, amount_cents, currency, description, payer_cpf, payer_name,
        details, seq, expires_at, created_at, updated_at)
      VALUES (@id, @orderId, @method, 'Creating', @amountCents, @currency, @description, @payerCpf, @payerName,
        ${d.json('details')}, 0, @expiresAt, @createdAt, @createdAt)
      ON CONFLICT (order_id) WHERE ${IN_PLACE} DO NOTHING
      RETURNING *`,
    reserving: `SELECT * FROM checkouts WHERE order_id = @orderId AND ${IN_PLACE}`,
    // No conflict target: a stored transaction id and a taken one-per-order place both make it insert nothing.
    insertActive: `
      INSERT INTO checkouts (id, order_id, method, state, amount_cents, currency, description, payer_cpf, payer_name,
        details, transaction_id, duplicate_of, seq, expires_at, created_at, updated_at)
      VALUES (@id, @orderId, @method, @state, @amountCents, @currency, @description, @payerCpf, @payerName,
        ${d.json('details')}, @transactionId, @duplicateOf, 1, @expiresAt, @createdAt, @at)
      ON CONFLICT DO NOTHING
      RETURNING *`,
    discard: `DELETE FROM checkouts WHERE id = @id AND state = 'Creating'`,
    byId: `SELECT * FROM checkouts WHERE id = @id`,
    /** A plan's read: the row stays locked to the transaction's end in PostgreSQL; SQLite's write lock holds already. */
    lockById: `SELECT * FROM checkouts WHERE id = @id${d.forUpdate}`,
    byTransaction: `SELECT * FROM checkouts WHERE transaction_id = @transactionId`,
    byOrder: `SELECT * FROM checkouts WHERE order_id = @orderId ORDER BY created_at, id`,
    move: move(''),
    moveActivating: move('transaction_id = coalesce(@transactionId, transaction_id), expires_at = coalesce(@expiresAt, expires_at),'),
    /** The order's other checkout in its one-per-order place, locked as a plan's read is. */
    holder: `
      SELECT id, state FROM checkouts
      WHERE order_id = (SELECT order_id FROM checkouts WHERE id = @id) AND id <> @id AND ${IN_PLACE}
      LIMIT 1${d.forUpdate}`,
    insertEvent: `
      INSERT INTO checkout_events (checkout_id, seq, state, source, at, data)
      VALUES (@checkoutId, @seq, @state, @source, @at, ${d.json('data')})
      RETURNING *`,
    eventsAfter: `SELECT * FROM checkout_events WHERE checkout_id = @checkoutId AND seq > @after ORDER BY seq`,
    // The type filter is compared before it is tested for NULL: PostgreSQL takes a parameter's type from its first use.
    merchantEventsAfter: `
      SELECT * FROM merchant_events
      WHERE seq > @after AND (${d.inList('type', 'types')} OR @types IS NULL)
      ORDER BY seq LIMIT @limit`,
    webhookSeen: `UPDATE checkouts SET last_webhook_at = ${d.later('last_webhook_at', 'at')} WHERE id = @id`,
    checked: `UPDATE checkouts SET last_checked_at = ${d.later('last_checked_at', 'at')} WHERE id = @id`,
    expired: `
      SELECT * FROM ${d.indexedBy('checkouts', 'checkouts_expiring')}
      WHERE state IN (${LIVE}) AND expires_at <= @now ORDER BY expires_at, id LIMIT @limit`,
    forgetNonces: `DELETE FROM webhook_nonces WHERE seen_at < @forgetBefore`,
    claimNonce: `INSERT INTO webhook_nonces (nonce, seen_at) VALUES (@nonce, @seenAt) ON CONFLICT (nonce) DO NOTHING`,
    releaseNonce: `DELETE FROM webhook_nonces WHERE nonce = @nonce`,
  };
}

export type CheckoutStatements = ReturnType<typeof checkoutStatements>;
