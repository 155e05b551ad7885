/**
 * The end of `npm run soak` for the merchant's side: what the receiver (./merchant.ts) got is compared with the
 * provider's paid transactions and with the events in our store: every paid order's `checkout.completed` received,
 * every event acknowledged (a copy answered 2xx in time), one `webhook-id` per event, every copy verified; and the
 * delay from the provider's completion to the first copy.
 */
import Database from 'better-sqlite3';
import pg from 'pg';
import { summarize, type Summary } from '../lib/stats';
import type { Receipt, VerifiedEvent } from './merchant';

export interface MerchantComparison {
  /** Requests received, and how many of them carried a whole body. */
  requests: number;
  copies: number;
  byOutcome: Map<string, number>;
  byInstance: Map<string, number>;
  /** Distinct verified events, by type. */
  events: number;
  byType: Map<string, number>;
  /** Copies beyond the first of each event (expected: at least once). */
  repeats: number;
  mostCopies: number;
  storeEvents: number;
  /** Our store's deliveries by state, and events not yet queued for the endpoint. */
  deliveries: Map<string, number>;
  notQueued: number;
  paidOrders: number;
  paidTransactions: number;
  /** Provider completion → first copy received, and → first copy acknowledged (ms). */
  firstReceipt: Summary;
  firstAcknowledged: Summary;
  /** Our store's commit of the change (the event's createdAt) → first copy received (ms): the delivery alone. */
  commitToFirst: Summary;
  /** Events whose delivery was in flight from the child when it was killed, and how many came again afterwards. */
  killedDuring: number;
  redeliveredAfterKill: number;
  mismatches: {
    /** Orders the provider has paid without a received `checkout.completed`. */
    missingCompleted: string[];
    /** Paid provider transactions without a received paid event (completed or duplicate_paid) naming them. */
    missingPaidEvent: string[];
    /** Events in our store of which no copy arrived. */
    neverReceived: string[];
    /** Events of which copies arrived, none answered 2xx in time (at least once is not met). */
    unacknowledged: string[];
    /** Copies that did not verify with `standardwebhooks`. */
    unverifiable: string[];
    /** One event (type and checkout or transaction) under two or more webhook-ids. */
    twoIds: string[];
    /** A copy whose webhook-id header is not its event's id, or one id carrying two different bodies. */
    idMismatch: string[];
    /** Verified events our store never wrote. */
    unknown: string[];
  };
}

export const merchantMismatchCount = (c: MerchantComparison) => Object.values(c.mismatches).reduce((n, list) => n + list.length, 0);

const bump = (map: Map<string, number>, key: string, by = 1) => map.set(key, (map.get(key) ?? 0) + by);
const text = (value: unknown) => (typeof value === 'string' ? value : '');

export async function compareMerchant(input: {
  receipts: readonly Receipt[];
  killedDuring: ReadonlyMap<string, number>;
  sandboxFile: string;
  databaseUrl: string;
  orderIds: Set<string>;
}): Promise<MerchantComparison> {
  const emulator = new Database(input.sandboxFile, { readonly: true, fileMustExist: true });
  let paid: { id: string; orderId: string; completedAt: string | null }[];
  try {
    paid = (
      emulator
        .prepare(
          `SELECT id, order_id AS orderId, json_extract(body, '$.record.transaction.stateCompletedDate') AS completedAt
           FROM transactions WHERE kind IN ('pix-cashin', 'openfinance') AND state = 'Completed'`,
        )
        .all() as typeof paid
    ).filter((tx) => input.orderIds.has(tx.orderId));
  } finally {
    emulator.close();
  }

  const client = new pg.Client({ connectionString: input.databaseUrl });
  await client.connect();
  /** Each event with its delivery's state (null: never queued) and the endpoint's cursor at the time of reading. */
  let stored: { id: string; type: string; seq: string; delivery: string | null; cursor: string | null }[];
  const deliveries = new Map<string, number>();
  let notQueued: number;
  try {
    stored = (
      await client.query<(typeof stored)[number]>(
        `SELECT e.id, e.type, e.seq, d.state AS delivery, (SELECT min(after_seq) FROM webhook_cursors) AS cursor
         FROM merchant_events e LEFT JOIN webhook_deliveries d ON d.event_seq = e.seq ORDER BY e.seq`,
      )
    ).rows;
    for (const row of (
      await client.query<{ state: string; n: string }>('SELECT state, count(*) AS n FROM webhook_deliveries GROUP BY state')
    ).rows)
      deliveries.set(row.state, Number(row.n));
    const cursor = await client.query<{ n: string }>(
      `SELECT count(*) AS n FROM merchant_events
       WHERE seq > coalesce((SELECT min(after_seq) FROM webhook_cursors), 0)`,
    );
    notQueued = Number(cursor.rows[0]?.n ?? 0);
  } finally {
    await client.end();
  }

  const byOutcome = new Map<string, number>();
  const byInstance = new Map<string, number>();
  const copiesOf = new Map<string, Receipt[]>();
  const mismatches: MerchantComparison['mismatches'] = {
    missingCompleted: [],
    missingPaidEvent: [],
    neverReceived: [],
    unacknowledged: [],
    unverifiable: [],
    twoIds: [],
    idMismatch: [],
    unknown: [],
  };
  let copies = 0;
  for (const receipt of input.receipts) {
    bump(byOutcome, receipt.outcome.replace(/^(5\d\d)$/, '5xx'));
    bump(byInstance, receipt.instance);
    if (receipt.at === undefined) continue;
    copies++;
    if (!receipt.event) {
      mismatches.unverifiable.push(`webhook-id ${receipt.webhookId ?? '(none)'} from ${receipt.instance}: ${receipt.error ?? '?'}`);
      continue;
    }
    if (receipt.webhookId !== receipt.event.id)
      mismatches.idMismatch.push(`event ${receipt.event.id} arrived with webhook-id ${receipt.webhookId ?? '(none)'}`);
    copiesOf.set(receipt.event.id, [...(copiesOf.get(receipt.event.id) ?? []), receipt]);
  }

  const byType = new Map<string, number>();
  const idsOf = new Map<string, Set<string>>();
  const first = new Map<string, { at: number; acknowledged: number | undefined; event: VerifiedEvent }>();
  let mostCopies = 0;
  for (const [id, list] of copiesOf) {
    const event = list[0]!.event!;
    bump(byType, event.type);
    mostCopies = Math.max(mostCopies, list.length);
    if (new Set(list.map((r) => r.body)).size > 1) mismatches.idMismatch.push(`event ${id}: ${list.length} copies with different bodies`);
    // One event: one type of change of one checkout (or of one cash-out's transaction).
    const key = `${event.type} of ${text(event.data.checkoutId) || text(event.data.transactionId) || id}`;
    idsOf.set(key, (idsOf.get(key) ?? new Set()).add(id));
    const acknowledged = list.filter((r) => r.acknowledged).map((r) => r.at!);
    first.set(id, {
      at: Math.min(...list.map((r) => r.at!)),
      acknowledged: acknowledged.length ? Math.min(...acknowledged) : undefined,
      event,
    });
    if (!acknowledged.length) mismatches.unacknowledged.push(`event ${id} (${event.type}): ${list.map((r) => r.outcome).join(', ')}`);
  }
  for (const [key, ids] of idsOf) if (ids.size > 1) mismatches.twoIds.push(`${key}: ids ${[...ids].join(', ')}`);

  const storedIds = new Set(stored.map((e) => e.id));
  for (const event of stored) {
    if (copiesOf.has(event.id)) continue;
    // An event never queued although the cursor has passed it was committed after a later one had been queued.
    const why =
      event.delivery !== null
        ? `its delivery is ${event.delivery}`
        : event.cursor !== null && Number(event.seq) <= Number(event.cursor)
          ? `never queued: seq ${event.seq}, the endpoint's cursor already at ${event.cursor}`
          : 'not queued yet';
    mismatches.neverReceived.push(`event ${event.id} (${event.type}): ${why}`);
  }
  for (const id of copiesOf.keys()) if (!storedIds.has(id)) mismatches.unknown.push(`event ${id}`);

  const received = [...first.values()];
  const completedOrders = new Set(received.filter((r) => r.event.type === 'checkout.completed').map((r) => text(r.event.data.orderId)));
  const paidEventOf = new Map(
    received
      .filter((r) => r.event.type === 'checkout.completed' || r.event.type === 'checkout.duplicate_paid')
      .map((r) => [text(r.event.data.transactionId), r]),
  );
  const paidOrders = new Set(paid.map((tx) => tx.orderId));
  for (const orderId of paidOrders)
    if (!completedOrders.has(orderId))
      mismatches.missingCompleted.push(`order ${orderId}: paid at the provider, no checkout.completed received`);
  const commitToFirst = received
    .filter((r) => r.event.type === 'checkout.completed')
    .map((r) => r.at - Date.parse(r.event.createdAt))
    .filter(Number.isFinite);
  const toFirst: number[] = [];
  const toAcknowledged: number[] = [];
  for (const tx of paid) {
    const got = paidEventOf.get(tx.id);
    if (!got) {
      mismatches.missingPaidEvent.push(`order ${tx.orderId} transaction ${tx.id}: Completed at the provider, no paid event received`);
      continue;
    }
    const completedAt = tx.completedAt ? Date.parse(tx.completedAt) : Number.NaN;
    if (!Number.isFinite(completedAt)) continue;
    toFirst.push(got.at - completedAt);
    if (got.acknowledged !== undefined) toAcknowledged.push(got.acknowledged - completedAt);
  }

  let redeliveredAfterKill = 0;
  for (const [id, killedAt] of input.killedDuring) if ((copiesOf.get(id) ?? []).some((r) => r.at! > killedAt)) redeliveredAfterKill++;

  return {
    requests: input.receipts.length,
    copies,
    byOutcome,
    byInstance,
    events: copiesOf.size,
    byType,
    repeats: copies - mismatches.unverifiable.length - copiesOf.size,
    mostCopies,
    storeEvents: stored.length,
    deliveries,
    notQueued,
    paidOrders: paidOrders.size,
    paidTransactions: paid.length,
    firstReceipt: summarize(toFirst),
    firstAcknowledged: summarize(toAcknowledged),
    commitToFirst: summarize(commitToFirst),
    killedDuring: input.killedDuring.size,
    redeliveredAfterKill,
    mismatches,
  };
}

/** Deliveries our store still owes (pending, or not yet queued): while there are some, settling goes on. */
export const owed = (c: MerchantComparison) => (c.deliveries.get('pending') ?? 0) + c.notQueued;
