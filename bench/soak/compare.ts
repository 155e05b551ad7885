/**
 * The end of `npm run soak`: our store (PostgreSQL) against the provider's records (the emulator's database), per
 * provider transaction and per order.
 *
 * Mismatches:
 * - lost: the provider has a final state (paid, failed, cancelled) that no checkout of ours shows: the transaction
 *   is held by no checkout, or its checkout is still live or `Creating`; and reservations still `Creating` after the
 *   system settled (the order is blocked);
 * - regressed: a checkout's events move backwards, or it shows a final state other than the provider's;
 * - duplicated final states: a checkout with two final events, or an order paid twice at the provider;
 * - two live: an order with two or more payable (live) transactions at the provider. An OpenFinance initiation whose
 *   create answer was lost is live but not payable: its bank address reached nobody (the provider's record does not
 *   carry it), so no payer can authorise it. Those are followed as duplicates and reported apart, not counted.
 */
import Database from 'better-sqlite3';
import pg from 'pg';
import { canMove } from '../../core/checkout-machine';
import { CREATING, fromTransactionState, isFinal, LIVE_STATES, type StoredState } from '../../core/states';

interface ProviderTx {
  id: string;
  kind: string;
  orderId: string;
  state: string;
}

interface StoredCheckout {
  id: string;
  orderId: string;
  state: StoredState;
  transactionId: string | null;
  duplicateOf: string | null;
  /** Whether a payer could reach it: a PIX code, or an OpenFinance bank address, was stored (and so handed out). */
  reachable: boolean;
}

export interface Comparison {
  checkouts: number;
  byState: Map<string, number>;
  duplicates: number;
  providerTransactions: number;
  providerByState: Map<string, number>;
  /** Live provider transactions no checkout holds (nobody follows them; not counted as mismatches). */
  untrackedLive: string[];
  /** Live initiations whose bank address reached no payer (followed as duplicates; not counted as mismatches). */
  unreachableLive: string[];
  mismatches: {
    lost: string[];
    regressed: string[];
    duplicatedFinal: string[];
    twoLive: string[];
  };
}

export const mismatchCount = (c: Comparison) =>
  c.mismatches.lost.length + c.mismatches.regressed.length + c.mismatches.duplicatedFinal.length + c.mismatches.twoLive.length;

const count = <T>(items: T[], key: (item: T) => string) => {
  const counts = new Map<string, number>();
  for (const item of items) counts.set(key(item), (counts.get(key(item)) ?? 0) + 1);
  return counts;
};

export async function compare({ sandboxFile, databaseUrl, orderIds }: { sandboxFile: string; databaseUrl: string; orderIds: Set<string> }) {
  const emulator = new Database(sandboxFile, { readonly: true, fileMustExist: true });
  let provider: ProviderTx[];
  try {
    provider = (
      emulator
        .prepare("SELECT id, kind, order_id AS orderId, state FROM transactions WHERE kind IN ('pix-cashin', 'openfinance')")
        .all() as ProviderTx[]
    ).filter((tx) => orderIds.has(tx.orderId));
  } finally {
    emulator.close();
  }

  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  let checkouts: StoredCheckout[];
  let events: { checkoutId: string; seq: number; state: StoredState }[];
  try {
    checkouts = (await client.query('SELECT * FROM checkouts')).rows.map((row: Record<string, unknown>) => ({
      id: row.id as string,
      orderId: row.order_id as string,
      state: row.state as StoredState,
      transactionId: (row.transaction_id as string | null) ?? null,
      duplicateOf: (row.duplicate_of as string | null | undefined) ?? null,
      reachable: row.method !== 'openfinance' || typeof (row.details as Record<string, unknown> | null)?.checkoutUrl === 'string',
    }));
    events = (await client.query('SELECT checkout_id, seq, state FROM checkout_events ORDER BY checkout_id, seq')).rows.map(
      (row: Record<string, unknown>) => ({ checkoutId: row.checkout_id as string, seq: Number(row.seq), state: row.state as StoredState }),
    );
  } finally {
    await client.end();
  }

  const holder = new Map(checkouts.filter((c) => c.transactionId).map((c) => [c.transactionId!, c]));
  const eventsOf = new Map<string, StoredState[]>();
  for (const e of events) eventsOf.set(e.checkoutId, [...(eventsOf.get(e.checkoutId) ?? []), e.state]);

  const result: Comparison = {
    checkouts: checkouts.length,
    byState: count(checkouts, (c) => c.state),
    duplicates: checkouts.filter((c) => c.duplicateOf).length,
    providerTransactions: provider.length,
    providerByState: count(provider, (tx) => tx.state),
    untrackedLive: [],
    unreachableLive: [],
    mismatches: { lost: [], regressed: [], duplicatedFinal: [], twoLive: [] },
  };
  const { mismatches } = result;

  for (const tx of provider) {
    const theirs = fromTransactionState(tx.state);
    const ours = holder.get(tx.id);
    const label = `order ${tx.orderId} transaction ${tx.id} (${tx.kind})`;
    if (!ours) {
      if (theirs && isFinal(theirs)) mismatches.lost.push(`${label}: ${tx.state} at the provider, held by no checkout`);
      else if (theirs && (LIVE_STATES as readonly string[]).includes(theirs)) {
        const others = checkouts.filter((c) => c.orderId === tx.orderId).map((c) => `${c.id} ${c.state}`);
        result.untrackedLive.push(`${label}: ${tx.state}; the order's checkouts: ${others.join(', ') || 'none'}`);
      }
      continue;
    }
    if (!theirs || theirs === ours.state) continue;
    if (isFinal(theirs) && !isFinal(ours.state))
      mismatches.lost.push(`${label}: ${tx.state} at the provider, ${ours.state} in checkout ${ours.id}`);
    else mismatches.regressed.push(`${label}: ${tx.state} at the provider, ${ours.state} in checkout ${ours.id}`);
  }

  for (const checkout of checkouts) {
    if (checkout.state === CREATING) mismatches.lost.push(`order ${checkout.orderId}: checkout ${checkout.id} still Creating`);
    const states = eventsOf.get(checkout.id) ?? [];
    const backwards = states.findIndex((state, i) => i > 0 && !canMove(states[i - 1]!, state));
    if (backwards > 0) mismatches.regressed.push(`checkout ${checkout.id}: events ${states.join(' → ')}`);
    const finals = states.filter((state) => isFinal(state));
    if (finals.length > 1) mismatches.duplicatedFinal.push(`checkout ${checkout.id}: final events ${finals.join(', ')}`);
  }

  const byOrder = new Map<string, ProviderTx[]>();
  for (const tx of provider) byOrder.set(tx.orderId, [...(byOrder.get(tx.orderId) ?? []), tx]);
  for (const [orderId, txs] of byOrder) {
    const paid = txs.filter((tx) => tx.state === 'Completed');
    if (paid.length > 1)
      mismatches.duplicatedFinal.push(`order ${orderId}: paid ${paid.length} times (${paid.map((t) => t.id).join(', ')})`);
    const unreachable = (tx: ProviderTx) => holder.get(tx.id)?.reachable === false;
    const allLive = txs.filter((tx) => tx.state === 'Created' || tx.state === 'Registered');
    for (const tx of allLive.filter(unreachable)) result.unreachableLive.push(`order ${orderId}: ${tx.id} (${tx.kind}) ${tx.state}`);
    const live = allLive.filter((tx) => !unreachable(tx));
    const whose = (tx: ProviderTx) => {
      const held = holder.get(tx.id);
      return `${tx.id} (${tx.kind}) ${held ? (held.duplicateOf ? `kept as a duplicate by ${held.id}` : `held by ${held.id}`) : 'held by no checkout'}`;
    };
    if (live.length > 1) mismatches.twoLive.push(`order ${orderId}: ${live.length} live transactions (${live.map(whose).join('; ')})`);
  }
  return result;
}
