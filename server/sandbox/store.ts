/** Transactions in SQLite: one row per transaction, the record as JSON plus the columns the lookups need. */
import type Database from 'better-sqlite3';
import { storedTransaction, type StoredTransaction } from './model';

type Row = { body: string };

export interface TransactionStore {
  insert(tx: StoredTransaction): void;
  save(tx: StoredTransaction): void;
  get(id: string): StoredTransaction | undefined;
  getByCob(cobId: string): StoredTransaction | undefined;
  /** Created between `start` and `end` (inclusive), oldest first. */
  listByOrder(orderId: string, start: string, end: string, limit: number, offset: number): { total: number; items: StoredTransaction[] };
  inState(state: string): StoredTransaction[];
  /** Transactions whose last webhook is still waiting for a successful delivery. */
  pendingDeliveries(): StoredTransaction[];
}

export function createTransactionStore(db: Database.Database): TransactionStore {
  const columns = (tx: StoredTransaction) => ({
    id: tx.record.transaction.id,
    kind: tx.kind,
    order_id: tx.record.transaction.orderId ?? null,
    created_at: tx.record.transaction.date,
    state: tx.record.transaction.state,
    // The column says what is owed: nothing before the first state change, whatever the record shows.
    delivery_status: tx.internal.noEventYet ? null : (tx.record.webhook.deliveryStatus ?? null),
    cob_id: tx.internal.cobId ?? null,
    body: JSON.stringify(tx),
  });
  const insert = db.prepare(
    `INSERT INTO transactions (id, kind, order_id, created_at, state, delivery_status, cob_id, body)
     VALUES (@id, @kind, @order_id, @created_at, @state, @delivery_status, @cob_id, @body)`,
  );
  const update = db.prepare(`UPDATE transactions SET state = @state, delivery_status = @delivery_status, body = @body WHERE id = @id`);
  const byId = db.prepare('SELECT body FROM transactions WHERE id = ?');
  const byCob = db.prepare('SELECT body FROM transactions WHERE cob_id = ?');
  const byOrder = db.prepare(
    `SELECT body FROM transactions WHERE order_id = ? AND created_at BETWEEN ? AND ?
     ORDER BY created_at, id LIMIT ? OFFSET ?`,
  );
  const countByOrder = db.prepare('SELECT COUNT(*) AS total FROM transactions WHERE order_id = ? AND created_at BETWEEN ? AND ?');
  const byState = db.prepare('SELECT body FROM transactions WHERE state = ? ORDER BY created_at');
  const pending = db.prepare("SELECT body FROM transactions WHERE delivery_status = 'Pending' ORDER BY created_at");
  // Parsing on the way out keeps a hand-edited or corrupted row from reaching a response half-formed.
  const parse = (row: Row | undefined) => (row ? storedTransaction.parse(JSON.parse(row.body)) : undefined);
  const parseAll = (rows: unknown[]) => (rows as Row[]).map((row) => parse(row)!);

  return {
    insert: (tx) => void insert.run(columns(tx)),
    save: (tx) => void update.run(columns(tx)),
    get: (id) => parse(byId.get(id) as Row | undefined),
    getByCob: (cobId) => parse(byCob.get(cobId) as Row | undefined),
    listByOrder(orderId, start, end, limit, offset) {
      const { total } = countByOrder.get(orderId, start, end) as { total: number };
      return { total, items: parseAll(byOrder.all(orderId, start, end, limit, offset)) };
    },
    inState: (state) => parseAll(byState.all(state)),
    pendingDeliveries: () => parseAll(pending.all()),
  };
}
