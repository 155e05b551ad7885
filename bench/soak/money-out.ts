/**
 * Money out in `npm run soak`: the back office's operators refund part of paid checkouts and make PIX cash-outs on
 * both instances, through the same faults as the checkouts (the provider proxy's 5xx, lost answers, delays past the
 * timeout, and `kill -9` of B while a cash-out call is in flight). Each operator keeps one Idempotency-Key per intended
 * movement across its retries, as the console does, and a share of them walk away after a failure: nobody asks for
 * those keys again, so the reconciler alone must settle them. The sandbox's bank completes a share of what was made.
 *
 * At the end (`compareMoneyOut`) every intent is checked against the provider's cash-outs of its order id (the
 * emulator's database) and our store (PostgreSQL):
 * - lost: the provider made it (money left) and our store does not hold that transaction, or holds it in another
 *   final state; or our store holds a transaction the provider does not have;
 * - doubled: the provider made more than one cash-out for one intent, or a checkout's refunds at the provider add up
 *   to more than it was paid;
 * - unknown: still `Sending` in our store once the system settled.
 */
import Database from 'better-sqlite3';
import pg from 'pg';
import { MICRO_SCALE, parseDecimal } from '../../core/money';
import { sha256 } from '../../server/payments/cashouts';
import { sleep } from './proxy';
import { between, chance } from './odds';

const bump = (map: Map<string, number>, key: string) => map.set(key, (map.get(key) ?? 0) + 1);

/** One movement an operator meant to make, under its one key. */
export interface MoneyOutIntent {
  kind: 'refund' | 'payout';
  key: string;
  /** The provider order id the back office chooses for the key (server/payments/cashouts.ts). */
  orderId: string;
  amountCents: number;
  /** The refunded checkout and what it was paid. */
  checkout?: { id: string; paidCents: number };
}

export interface MoneyOutStats {
  intents: MoneyOutIntent[];
  answers: Map<string, number>;
  retries: number;
  walkedAway: number;
  completedAtBank: number;
}

export const newMoneyOutStats = (): MoneyOutStats => ({ intents: [], answers: new Map(), retries: 0, walkedAway: 0, completedAtBank: 0 });

/** Codes that end an intent: the back office refused it for good (or made it; those are 2xx). */
const FINAL_REFUSALS = new Set(['refund_exceeds_paid', 'payer_not_refundable', 'idempotency_key_reused', 'InsufficientBalance']);

export interface MoneyOutOptions {
  stats: MoneyOutStats;
  adminToken: string;
  /** A live instance's address (either one). */
  instance: () => string;
  /** Completes a cash-out at the sandbox's bank (the emulator's admin control); false when it did not. */
  completeAtBank: (transactionId: string) => Promise<boolean>;
}

export function moneyOutOperators({ stats, adminToken, instance, completeAtBank }: MoneyOutOptions) {
  async function post(path: string, body: unknown, key: string) {
    try {
      const response = await fetch(`${instance()}/api/admin${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${adminToken}`, 'idempotency-key': key },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(30_000),
      });
      const answer = (await response.json().catch(() => ({}))) as { transactionId?: string; error?: { code?: string } };
      return { status: response.status, code: answer.error?.code, transactionId: answer.transactionId };
    } catch {
      return { status: 0, code: 'no answer (instance down)', transactionId: undefined };
    }
  }

  /** Sends the intent until it is answered or refused for good, under its one key; sometimes gives up on a failure. */
  async function operate(intent: MoneyOutIntent, path: string, body: unknown) {
    stats.intents.push(intent);
    for (let attempt = 0; attempt < 8; attempt++) {
      if (attempt > 0) {
        // The operator closes the page after a failure: nobody asks for this key again.
        if (chance(0.15)) return void stats.walkedAway++;
        stats.retries++;
        await sleep(between(300, 1_000) * attempt);
      }
      const answer = await post(path, body, intent.key);
      bump(stats.answers, answer.status === 0 ? answer.code! : `${answer.status}${answer.code ? ` ${answer.code}` : ''}`);
      if (answer.status >= 200 && answer.status < 300) {
        if (answer.transactionId && chance(0.5) && (await completeAtBank(answer.transactionId))) stats.completedAtBank++;
        return;
      }
      if (answer.code && FINAL_REFUSALS.has(answer.code)) return;
    }
  }

  return {
    /** A refund of part of a paid checkout (20 % to 60 % of `paidCents`). */
    refund(checkoutId: string, paidCents: number) {
      const key = crypto.randomUUID();
      const amountCents = Math.max(1, Math.floor(paidCents * between(0.2, 0.6)));
      const intent: MoneyOutIntent = {
        kind: 'refund',
        key,
        orderId: orderIdOf('refund', key),
        amountCents,
        checkout: { id: checkoutId, paidCents },
      };
      return operate(intent, `/checkouts/${encodeURIComponent(checkoutId)}/refunds`, { amount: (amountCents / 100).toFixed(2) });
    },
    /** A PIX cash-out of R$ 1,00 to R$ 50,00 to a supplier's e-mail key. */
    payout() {
      const key = crypto.randomUUID();
      const amountCents = Math.floor(between(100, 5_000));
      const intent: MoneyOutIntent = { kind: 'payout', key, orderId: orderIdOf('payout', key), amountCents };
      const body = {
        recipient: { name: 'Fornecedor Soak', cpf: '52998224725' },
        key: { type: 'EMAIL', value: 'fornecedor@example.com' },
        amount: (amountCents / 100).toFixed(2),
      };
      return operate(intent, '/cashouts', body);
    },
  };
}

const orderIdOf = (kind: 'refund' | 'payout', key: string) => `${kind}-${sha256(key).slice(0, 20)}`;

export interface MoneyOutComparison {
  intents: number;
  /** Cash-outs the provider made for the intents, by state. */
  providerByState: Map<string, number>;
  /** Our store's cash-outs of the intents, by state. */
  storeByState: Map<string, number>;
  mismatches: { lost: string[]; doubled: string[]; unknown: string[] };
}

export const moneyOutMismatchCount = (c: MoneyOutComparison) =>
  c.mismatches.lost.length + c.mismatches.doubled.length + c.mismatches.unknown.length;

/** States in which a cash-out's money did not reach its recipient: a refund in them gives nothing back. */
const FAILED = new Set(['Error', 'Cancelled', 'Reversed', 'Refunded']);

export async function compareMoneyOut({
  sandboxFile,
  databaseUrl,
  intents,
}: {
  sandboxFile: string;
  databaseUrl: string;
  intents: readonly MoneyOutIntent[];
}): Promise<MoneyOutComparison> {
  const emulator = new Database(sandboxFile, { readonly: true, fileMustExist: true });
  let made: { id: string; orderId: string; state: string; amount: string }[];
  try {
    made = emulator
      .prepare(
        `SELECT id, order_id AS orderId, state, json_extract(body, '$.record.transaction.amount') AS amount
         FROM transactions WHERE kind = 'pix-cashout'`,
      )
      .all() as typeof made;
  } finally {
    emulator.close();
  }
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const ours = new Map<string, { state: string; transactionId: string | null }>();
  try {
    const { rows } = await client.query<{ idempotency_key: string; state: string; transaction_id: string | null }>(
      'SELECT idempotency_key, state, transaction_id FROM cashouts',
    );
    for (const row of rows) ours.set(row.idempotency_key, { state: row.state, transactionId: row.transaction_id });
  } finally {
    await client.end();
  }

  const byOrder = new Map<string, typeof made>();
  for (const tx of made) byOrder.set(tx.orderId, [...(byOrder.get(tx.orderId) ?? []), tx]);
  const result: MoneyOutComparison = {
    intents: intents.length,
    providerByState: new Map(),
    storeByState: new Map(),
    mismatches: { lost: [], doubled: [], unknown: [] },
  };
  const { lost, doubled, unknown } = result.mismatches;
  const refundedAt = new Map<string, { micros: bigint; paidCents: number }>();
  for (const intent of intents) {
    const label = `${intent.kind} ${intent.key} (order ${intent.orderId})`;
    const atProvider = byOrder.get(intent.orderId) ?? [];
    const stored = ours.get(intent.key);
    for (const tx of atProvider) bump(result.providerByState, tx.state);
    if (stored) bump(result.storeByState, stored.state);
    if (atProvider.length > 1)
      doubled.push(`${label}: ${atProvider.length} cash-outs at the provider (${atProvider.map((t) => t.id).join(', ')})`);
    if (stored?.state === 'Sending') unknown.push(`${label}: still Sending`);
    const tx = atProvider[0];
    if (tx && stored?.transactionId !== tx.id)
      lost.push(
        `${label}: ${tx.id} ${tx.state} at the provider, ${stored ? `${stored.state} ${stored.transactionId}` : 'none'} in our store`,
      );
    else if (tx && stored && stored.state !== tx.state && !['Created', 'Registered'].includes(tx.state)) {
      lost.push(`${label}: ${tx.state} at the provider, ${stored.state} in our store`);
    }
    if (!tx && stored?.transactionId) lost.push(`${label}: our store holds ${stored.transactionId}, the provider has none`);
    if (intent.checkout) {
      const given = atProvider
        .filter((t) => !FAILED.has(t.state))
        .reduce((sum, t) => sum + (parseDecimal(t.amount, MICRO_SCALE) ?? 0n), 0n);
      const seen = refundedAt.get(intent.checkout.id) ?? { micros: 0n, paidCents: intent.checkout.paidCents };
      refundedAt.set(intent.checkout.id, { ...seen, micros: seen.micros + given });
    }
  }
  for (const [checkoutId, { micros, paidCents }] of refundedAt) {
    if (micros > BigInt(paidCents) * 10_000n)
      doubled.push(`checkout ${checkoutId}: refunded ${micros} micro-reais at the provider of ${paidCents} cents paid`);
  }
  return result;
}
