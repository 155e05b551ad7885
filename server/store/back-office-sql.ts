/**
 * The back office's SQL that is more than one statement's text: the state lists of cash-outs, the columns of one put
 * back whole, the payments list (which filter narrows it how, the order: newest first, then id descending, and the
 * cursor, and which index drives it) and the refunds of a page. Each is written once over the database's dialect
 * (./sql/dialect); ./back-office-part runs them.
 */
import { cashOutMovesFrom } from '../../core/cashout-machine';
import { COMPLETED, CREATING } from '../../core/states';
import { CheckoutFilterSchema, HOLDING_REFUND_STATES, UNSETTLED_CASH_OUT_STATES, type CashOut, type CheckoutFilter } from './back-office';
import { sqlList } from './migrations';
import { LIST_INDEXES, PAID_LATE, type ListIndex } from './migrations-indexes';
import type { Dialect } from './sql/dialect';
import type { Params } from './sql/work';

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

/** A cash-out's parameters, one per `CASH_OUT_COLUMNS` (named as the column), with the late answer's transaction and state. */
export const adoptedRow = (
  c: CashOut,
  transactionId: string,
  state: string,
  at: string,
): Record<(typeof CASH_OUT_COLUMNS)[number], unknown> => ({
  idempotency_key: c.idempotencyKey,
  fingerprint: c.fingerprint,
  order_id: c.orderId,
  transaction_id: transactionId,
  state,
  amount_cents: c.amountCents,
  recipient_name: c.recipientName,
  recipient_cpf: c.recipientCpf,
  key_type: c.keyType,
  key_value: c.keyValue,
  description: c.description,
  refund_of: c.refundOf,
  requested_by: c.requestedBy,
  decided_by: c.decidedBy,
  decided_at: c.decidedAt,
  created_at: c.createdAt,
  updated_at: at,
});

/** The states in which the cash-out machine follows the provider's state. */
export const FOLLOWED = sqlList(cashOutMovesFrom('provider'));
/** The states an owner's decision (approve or reject) moves a cash-out from. */
export const AWAITING_DECISION = sqlList(cashOutMovesFrom('approve'));
/** The states from which an approved movement the provider refused waits for a decision again. */
export const REOPENED_FROM = sqlList(cashOutMovesFrom('refused'));

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

/** A statement's text and its named parameters. */
export interface Query {
  text: string;
  params: Params;
}

/**
 * The `SELECT` of the checkouts `filter` lists, at most `limit`, on the database of `d`, its parameters `@p0`, `@p1`…
 * Every filter is a condition an index can seek or that matches a partial index's, and the cursor is a row
 * comparison, so a page costs the same at the top of the list and a million rows down. SQLite is told the index
 * once `built` says it exists (an online step may still be building it: the query then reads the same rows without
 * it).
 */
export function checkoutListQuery(d: Dialect, input: CheckoutFilter, limit: number, built: (index: string) => boolean): Query {
  const filter = CheckoutFilterSchema.parse(input);
  const params: Record<string, unknown> = {};
  const param = (value: unknown) => {
    const name = `p${Object.keys(params).length}`;
    params[name] = value;
    return `@${name}`;
  };
  const paidAfterWindow = PAID_LATE[d.name];
  const where = [`state <> '${CREATING}'`];
  if (filter.states?.length) where.push(`state IN (${filter.states.map(param).join(', ')})`);
  if (filter.method) where.push(`method = ${param(filter.method)}`);
  if (filter.from) where.push(`created_at >= ${param(filter.from)}`);
  // A cursor before `to` already bounds the page from above, and an index seeks one upper bound: the cursor's.
  const cursorBeforeTo = filter.after && filter.to && Date.parse(filter.after.createdAt) < Date.parse(filter.to);
  if (filter.to && !cursorBeforeTo) where.push(`created_at < ${param(filter.to)}`);
  if (filter.orderId) where.push(`order_id = ${param(filter.orderId)}`);
  // Late is a Completed checkout paid after its window. `flagged`, duplicate or late, is written as
  // (duplicate or paid late) and (duplicate or Completed), the same rows, so that its first half is the partial
  // index's condition word for word.
  if (filter.flag === 'duplicate') where.push('duplicate_of IS NOT NULL');
  if (filter.flag === 'late') where.push(`state = '${COMPLETED}'`, paidAfterWindow);
  if (filter.flag === 'flagged') {
    where.push(`(duplicate_of IS NOT NULL OR ${paidAfterWindow})`, `(duplicate_of IS NOT NULL OR state = '${COMPLETED}')`);
  }
  if (filter.after) where.push(`(created_at, id) < (${param(filter.after.createdAt)}, ${param(filter.after.id)})`);
  const index = listIndexFor(filter);
  const table = built(index) ? d.indexedBy('checkouts', index) : 'checkouts';
  const text = `SELECT * FROM ${table} WHERE ${where.join(' AND ')}
    ORDER BY created_at DESC, id DESC LIMIT ${param(limit)}`;
  return { text, params };
}

/**
 * The refunds of the checkouts `@ids` (given as `Dialect.list`), oldest first: one statement whatever the page's
 * size, its list seeking `cashouts_by_refund` id by id.
 */
export const refundsOfQuery = (d: Dialect) =>
  `SELECT * FROM cashouts WHERE ${d.inList('refund_of', 'ids')} ORDER BY created_at, idempotency_key`;
