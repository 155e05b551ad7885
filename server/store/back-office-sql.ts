/**
 * The back-office's SQL that both databases share, written once: the state lists of cash-outs, and the checkout list
 * (which filter narrows it how, the order: newest first, then id descending, and the cursor). For the list each store
 * gives its dialect: how a value becomes a parameter, how a column is compared with a list, and how a late payment is
 * told (paid after its window).
 */
import { cashOutMovesFrom } from '../../core/cashout-machine';
import { COMPLETED, CREATING } from '../../core/states';
import { CheckoutFilterSchema, HOLDING_REFUND_STATES, UNSETTLED_CASH_OUT_STATES, type CheckoutFilter } from './back-office';
import { sqlList } from './migrations';

/** Cash-out states that hold a checkout's one refund, as an SQL list. */
export const HOLDING = sqlList(HOLDING_REFUND_STATES);
/** Cash-out states still moving at the provider, as an SQL list. */
export const UNSETTLED = sqlList(UNSETTLED_CASH_OUT_STATES);
/** The states in which the cash-out machine (core/cashout-machine.ts) takes the provider's answer: the key may also be freed. */
export const AWAITING_ANSWER = sqlList(cashOutMovesFrom('answer'));
/** The states in which the cash-out machine follows the provider's state. */
export const FOLLOWED = sqlList(cashOutMovesFrom('provider'));

export interface SqlDialect {
  /** Adds `value` to the query's parameters and returns its placeholder. */
  param(value: unknown): string;
  /** `column` is one of `values`. */
  inList(column: string, values: readonly string[]): string;
  /** The receipt's `paidAt` (in the checkout's details) is after `expires_at`. */
  paidAfterWindow: string;
}

/** The `SELECT` of the checkouts `filter` lists, at most `limit`; the dialect holds the parameters. */
export function checkoutListQuery(input: CheckoutFilter, limit: number, sql: SqlDialect): string {
  const filter = CheckoutFilterSchema.parse(input);
  const where = [`state <> '${CREATING}'`];
  const late = `(state = '${COMPLETED}' AND ${sql.paidAfterWindow})`;
  if (filter.states?.length) where.push(sql.inList('state', filter.states));
  if (filter.method) where.push(`method = ${sql.param(filter.method)}`);
  if (filter.from) where.push(`created_at >= ${sql.param(filter.from)}`);
  if (filter.to) where.push(`created_at < ${sql.param(filter.to)}`);
  if (filter.orderId) where.push(`order_id = ${sql.param(filter.orderId)}`);
  if (filter.flag === 'duplicate') where.push('duplicate_of IS NOT NULL');
  if (filter.flag === 'late') where.push(late);
  if (filter.flag === 'flagged') where.push(`(duplicate_of IS NOT NULL OR ${late})`);
  if (filter.after) {
    const at = sql.param(filter.after.createdAt);
    where.push(`(created_at < ${at} OR (created_at = ${at} AND id < ${sql.param(filter.after.id)}))`);
  }
  return `SELECT * FROM checkouts WHERE ${where.join(' AND ')} ORDER BY created_at DESC, id DESC LIMIT ${sql.param(limit)}`;
}
