/**
 * The demo's own tables: the shop's orders (priced when placed, so the browser never sets an amount), the log of
 * webhooks the BFF received, for the sandbox panel, and what the shop heard as the merchant: the signed deliveries of
 * the product's events (demo/routes/merchant-webhooks.ts) and each order's status, set from those events only. A SQLite file
 * of its own in DATA_DIR; the product's store knows nothing of these. The log keeps no payer data (see
 * `redactedPayload`): anyone who reaches a demo can read it.
 */
import Database from 'better-sqlite3';
import { z } from 'zod';
import { maskCpf } from '../core/cpf';
import type { WebhookReceipt } from '../server/bff/webhook-receiver';

export const DemoOrderSchema = z.object({
  orderId: z.string().min(1),
  amountCents: z.int().positive(),
  description: z.string(),
  items: z.array(z.object({ sku: z.string(), name: z.string(), quantity: z.int(), unitPrice: z.string() })),
  createdAt: z.string(),
});
export type DemoOrder = z.infer<typeof DemoOrderSchema>;

export interface WebhookLogEntry extends WebhookReceipt {
  id: number;
}

/** An order's status as the shop knows it from the product's events: awaiting payment until one tells otherwise. */
export const ORDER_STATUSES = ['awaiting_payment', 'paid', 'expired', 'failed'] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

/**
 * One delivery of the product's webhooks to the shop, as received: only verified ones are kept (a refused one changes
 * nothing, as a refused webhook changes nothing in the product), each `webhook-id` once.
 */
export interface MerchantDelivery {
  id: number;
  /** Its `webhook-id`, the event's id. */
  webhookId: string;
  type: string;
  /** The shop's order it is about, if any. */
  orderId: string | null;
  receivedAt: string;
  /** How it was taken: by its Standard Webhooks signature, checked with the shop's secret. */
  verified: boolean;
}

/** A verified event as the shop acts on it. */
export interface ReceivedEvent {
  webhookId: string;
  seq: number;
  type: string;
  orderId: string | null;
  checkoutId: string | null;
  receivedAt: string;
}

/**
 * The order's status after an event: paid on `checkout.completed` or `checkout.duplicate_paid`, and then for good (a
 * paid checkout never moves again, and the expiry or failure of another code of the order changes nothing); expired
 * or failed on `checkout.expired` or `checkout.failed` of an unpaid order, unless a later event (by `seq`: deliveries
 * may come out of order) already set it. Undefined: no change.
 */
function nextStatus(current: { status: OrderStatus; seq: number }, event: ReceivedEvent): OrderStatus | undefined {
  if (current.status === 'paid') return undefined;
  if (event.type === 'checkout.completed' || event.type === 'checkout.duplicate_paid') return 'paid';
  if (event.seq < current.seq) return undefined;
  if (event.type === 'checkout.expired') return 'expired';
  if (event.type === 'checkout.failed') return 'failed';
  return undefined;
}

type Row = Record<string, unknown>;

/** The fields of a provider webhook the log keeps: the transaction's own, none that names or locates a person. */
const LOGGED_FIELDS = [
  'id',
  'transactionState',
  'transactionDate',
  'transactionOrderId',
  'transactionOrderDescription',
  'transactionReceiptDate',
  'transactionAmount',
  'transactionType',
  'transactionPaymentType',
  'stateRegisteredDate',
  'stateCompletedDate',
  'stateCancelledDate',
  'stateRefundDate',
  'stateReversedDate',
  'stateErrorDate',
  'stateErrorCause',
] as const;

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A CPF as banks show it (`***.982.247-**`), `***` for anything else; a value masked already stays as it is. */
const maskedTaxNumber = (value: unknown) =>
  typeof value === 'string' && /^\*{3}(\.\d{3}\.\d{3}-\*{2})?$/.test(value) ? value : maskCpf(String(value));

/**
 * What the log keeps of a webhook's body: the transaction's fields, and of its payer and recipient only the masked tax
 * number. Their names, full CPFs and bank accounts are dropped, as are the receipt's address (the receipt names the
 * payer) and any field the provider may add: a demo's log is readable by anyone who reaches the demo.
 */
export function redactedPayload(payload: unknown): unknown {
  if (!isRecord(payload)) return null;
  const kept: Record<string, unknown> = {};
  for (const field of LOGGED_FIELDS) if (field in payload) kept[field] = payload[field];
  for (const party of ['payer', 'recipient'] as const) {
    if (!(party in payload)) continue;
    const who = payload[party];
    kept[party] = isRecord(who) ? (who.taxNumber == null ? {} : { taxNumber: maskedTaxNumber(who.taxNumber) }) : null;
  }
  return kept;
}

export function openDemoStore(file: string) {
  const db = new Database(file, { timeout: 5_000 });
  db.pragma('journal_mode = WAL');
  db.exec(`
    CREATE TABLE IF NOT EXISTS demo_orders (
      order_id TEXT PRIMARY KEY,
      amount_cents INTEGER NOT NULL CHECK (amount_cents > 0),
      description TEXT NOT NULL,
      items TEXT NOT NULL,
      created_at TEXT NOT NULL
    ) STRICT;
    CREATE TABLE IF NOT EXISTS demo_webhook_log (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      received_at TEXT NOT NULL,
      transaction_id TEXT,
      checkout_id TEXT,
      state TEXT,
      outcome TEXT NOT NULL,
      payload TEXT NOT NULL
    ) STRICT;
    CREATE TABLE IF NOT EXISTS demo_merchant_deliveries (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      webhook_id TEXT NOT NULL UNIQUE,
      type TEXT NOT NULL,
      order_id TEXT,
      received_at TEXT NOT NULL,
      verified INTEGER NOT NULL
    ) STRICT;
    CREATE TABLE IF NOT EXISTS demo_order_status (
      order_id TEXT PRIMARY KEY REFERENCES demo_orders (order_id),
      status TEXT NOT NULL,
      seq INTEGER NOT NULL,
      checkout_id TEXT,
      updated_at TEXT NOT NULL
    ) STRICT;`);
  const sql = {
    putOrder: db.prepare(`INSERT INTO demo_orders (order_id, amount_cents, description, items, created_at)
      VALUES (@orderId, @amountCents, @description, @items, @createdAt)`),
    getOrder: db.prepare(`SELECT * FROM demo_orders WHERE order_id = ?`),
    logWebhook: db.prepare(`INSERT INTO demo_webhook_log (received_at, transaction_id, checkout_id, state, outcome, payload)
      VALUES (@receivedAt, @transactionId, @checkoutId, @state, @outcome, @payload)`),
    webhookLog: db.prepare(`SELECT * FROM demo_webhook_log WHERE id > ? ORDER BY id LIMIT ?`),
    addDelivery: db.prepare(`INSERT INTO demo_merchant_deliveries (webhook_id, type, order_id, received_at, verified)
      VALUES (@webhookId, @type, @orderId, @receivedAt, @verified) ON CONFLICT DO NOTHING`),
    deliveries: db.prepare(`SELECT * FROM demo_merchant_deliveries WHERE id > ? ORDER BY id LIMIT ?`),
    getStatus: db.prepare(`SELECT status, seq FROM demo_order_status WHERE order_id = ?`),
    setStatus: db.prepare(`INSERT INTO demo_order_status (order_id, status, seq, checkout_id, updated_at)
      VALUES (@orderId, @status, @seq, @checkoutId, @receivedAt)
      ON CONFLICT (order_id) DO UPDATE SET status = excluded.status, seq = excluded.seq, checkout_id = excluded.checkout_id,
        updated_at = excluded.updated_at`),
  };

  const statusOf = (orderId: string) =>
    (sql.getStatus.get(orderId) as { status: OrderStatus; seq: number } | undefined) ?? { status: 'awaiting_payment' as const, seq: 0 };

  /** Records a verified delivery and acts on it, in one transaction; false for a webhook-id already received. */
  const receive = db.transaction((event: ReceivedEvent): boolean => {
    if (sql.addDelivery.run({ ...event, verified: 1 }).changes === 0) return false;
    if (event.orderId === null || !sql.getOrder.get(event.orderId)) return true;
    const status = nextStatus(statusOf(event.orderId), event);
    if (status) sql.setStatus.run({ ...event, status });
    return true;
  });

  return {
    putOrder(order: DemoOrder): void {
      sql.putOrder.run({ ...order, items: JSON.stringify(order.items) });
    },
    getOrder(orderId: string): DemoOrder | undefined {
      const row = sql.getOrder.get(orderId) as Row | undefined;
      return row
        ? DemoOrderSchema.parse({
            orderId: row.order_id,
            amountCents: row.amount_cents,
            description: row.description,
            items: JSON.parse(row.items as string) as unknown,
            createdAt: row.created_at,
          })
        : undefined;
    },
    logWebhook(receipt: WebhookReceipt): void {
      sql.logWebhook.run({ ...receipt, payload: JSON.stringify(redactedPayload(receipt.payload)) });
    },
    /** Entries with id greater than `afterId`, oldest first; payloads redacted (also those written before redaction). */
    listWebhookLog(afterId: number, limit: number): WebhookLogEntry[] {
      return (sql.webhookLog.all(afterId, limit) as Row[]).map((row) => ({
        id: Number(row.id),
        receivedAt: row.received_at as string,
        transactionId: row.transaction_id as string | null,
        checkoutId: row.checkout_id as string | null,
        state: row.state as string | null,
        outcome: row.outcome as WebhookLogEntry['outcome'],
        payload: redactedPayload(JSON.parse(row.payload as string)),
      }));
    },
    receiveMerchantEvent: (event: ReceivedEvent): boolean => receive(event),
    listMerchantDeliveries(afterId: number, limit: number): MerchantDelivery[] {
      return (sql.deliveries.all(afterId, limit) as Row[]).map((row) => ({
        id: Number(row.id),
        webhookId: row.webhook_id as string,
        type: row.type as string,
        orderId: row.order_id as string | null,
        receivedAt: row.received_at as string,
        verified: row.verified === 1,
      }));
    },
    orderStatus: (orderId: string): OrderStatus => statusOf(orderId).status,
    close(): void {
      db.close();
    },
  };
}

export type DemoStore = ReturnType<typeof openDemoStore>;
