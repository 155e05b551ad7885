/**
 * The back-office's SQL that both databases share, written once: the state lists of cash-outs, and the checkout list
 * (which filter narrows it how, the order: newest first, then id descending, and the cursor, and which index drives
 * it). For the list each store gives its dialect: how a value becomes a parameter, how a late payment is told (paid
 * after its window), and how the table is read through an index.
 */
import { cashOutMovesFrom } from '../../core/cashout-machine';
import { COMPLETED, CREATING } from '../../core/states';
import { CheckoutFilterSchema, HOLDING_REFUND_STATES, UNSETTLED_CASH_OUT_STATES, type CashOut, type CheckoutFilter } from './back-office';
import { sqlList } from './migrations';
import { LIST_INDEXES, type ListIndex } from './migrations-indexes';

/** Cash-out states in which a refund holds its amount of the checkout, as an SQL list. */
export const HOLDING = sqlList(HOLDING_REFUND_STATES);
/** Cash-out states still moving at the provider, as an SQL list. */
export const UNSETTLED = sqlList(UNSETTLED_CASH_OUT_STATES);
/** The states in which the cash-out machine (core/cashout-machine.ts) takes the provider's answer: the key may also be freed. */
export const AWAITING_ANSWER = sqlList(cashOutMovesFrom('answer'));
/** The states (none holding a transaction) from which the cash-out machine takes an answer that came late. */
export const LATE_ANSWER = sqlList(cashOutMovesFrom('late-answer'));
/** The columns of a cash-out put back whole with its late answer (`adoptCashOut`). */
export const CASH_OUT_COLUMNS = [
  'idempotency_key',
  'fingerprint',
  'order_id',
  'transaction_id',
  'state',
  'amount_cents',
  'recipient_name',
  'recipient_cpf',
  'key_type',
  'key_value',
  'description',
  'refund_of',
  'requested_by',
  'decided_by',
  'decided_at',
  'created_at',
  'updated_at',
] as const;

/** A cash-out as its row's values, in `CASH_OUT_COLUMNS` order, with the late answer's transaction and state. */
export const adoptedRow = (c: CashOut, transactionId: string, state: string, at: string) => [
  c.idempotencyKey,
  c.fingerprint,
  c.orderId,
  transactionId,
  state,
  c.amountCents,
  c.recipientName,
  c.recipientCpf,
  c.keyType,
  c.keyValue,
  c.description,
  c.refundOf,
  c.requestedBy,
  c.decidedBy,
  c.decidedAt,
  c.createdAt,
  at,
];

/** The states in which the cash-out machine follows the provider's state. */
export const FOLLOWED = sqlList(cashOutMovesFrom('provider'));
/** The states an owner's decision (approve or reject) moves a cash-out from. */
export const AWAITING_DECISION = sqlList(cashOutMovesFrom('approve'));
/** The states from which an approved movement the provider refused waits for a decision again. */
export const REOPENED_FROM = sqlList(cashOutMovesFrom('refused'));

export interface SqlDialect {
  /** Adds `value` to the query's parameters and returns its placeholder. */
  param(value: unknown): string;
  /** The receipt's `paidAt` (in the checkout's details) is after `expires_at`: `PAID_LATE` of ./migrations-indexes. */
  paidAfterWindow: string;
  /** The checkouts table read through `index`: SQLite is told so (`INDEXED BY`), PostgreSQL's planner chooses. */
  checkoutsBy(index: ListIndex): string;
}

/**
 * The index that drives the list of `filter` (./migrations-indexes), the most selective its filters allow whatever
 * the data: an order's (a handful of rows), then the flagged payments' (few), then the states', then the method's,
 * else time. The other filters are checked on the rows it gives, in the list's order, until the page is full.
 */
export function listIndexFor(filter: CheckoutFilter): ListIndex {
  if (filter.orderId) return LIST_INDEXES.order;
  if (filter.flag) return LIST_INDEXES.flagged;
  if (filter.states?.length) return LIST_INDEXES.state;
  if (filter.method) return LIST_INDEXES.method;
  return LIST_INDEXES.recent;
}

/**
 * The `SELECT` of the checkouts `filter` lists, at most `limit`; the dialect holds the parameters. Every filter is a
 * condition an index can seek or that matches a partial index's, and the cursor is a row comparison, so a page costs
 * the same at the top of the list and a million rows down.
 */
export function checkoutListQuery(input: CheckoutFilter, limit: number, sql: SqlDialect): string {
  const filter = CheckoutFilterSchema.parse(input);
  const where = [`state <> '${CREATING}'`];
  if (filter.states?.length) where.push(`state IN (${filter.states.map((state) => sql.param(state)).join(', ')})`);
  if (filter.method) where.push(`method = ${sql.param(filter.method)}`);
  if (filter.from) where.push(`created_at >= ${sql.param(filter.from)}`);
  // A cursor before `to` already bounds the page from above, and an index seeks one upper bound: the cursor's.
  const cursorBeforeTo = filter.after && filter.to && Date.parse(filter.after.createdAt) < Date.parse(filter.to);
  if (filter.to && !cursorBeforeTo) where.push(`created_at < ${sql.param(filter.to)}`);
  if (filter.orderId) where.push(`order_id = ${sql.param(filter.orderId)}`);
  // Late is a Completed checkout paid after its window. `flagged`, duplicate or late, is written as
  // (duplicate or paid late) and (duplicate or Completed), the same rows, so that its first half is the partial
  // index's condition word for word.
  if (filter.flag === 'duplicate') where.push('duplicate_of IS NOT NULL');
  if (filter.flag === 'late') where.push(`state = '${COMPLETED}'`, sql.paidAfterWindow);
  if (filter.flag === 'flagged') {
    where.push(`(duplicate_of IS NOT NULL OR ${sql.paidAfterWindow})`, `(duplicate_of IS NOT NULL OR state = '${COMPLETED}')`);
  }
  if (filter.after) where.push(`(created_at, id) < (${sql.param(filter.after.createdAt)}, ${sql.param(filter.after.id)})`);
  return `SELECT * FROM ${sql.checkoutsBy(listIndexFor(filter))} WHERE ${where.join(' AND ')}
    ORDER BY created_at DESC, id DESC LIMIT ${sql.param(limit)}`;
}
