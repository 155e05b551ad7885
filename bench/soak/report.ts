/**
 * What `npm run soak` prints at the end: what was driven, the faults injected, and every mismatch between our store,
 * the provider's records, the merchant's webhooks and the money out, with a few examples of each.
 */
import type { Summary } from '../lib/stats';
import { mismatchCount, type Comparison } from './compare';
import { merchantMismatchCount, type MerchantComparison } from './merchant-compare';
import { moneyOutMismatchCount, type MoneyOutComparison, type MoneyOutStats } from './money-out';
import { FAULT_KINDS, type Faults } from './proxy';
import type { ShopperStats } from './shoppers';

export function report(r: {
  orders: number;
  result: Comparison;
  stats: ShopperStats;
  faults: Faults;
  kills: number;
  restarts: number;
  driveSeconds: number;
  settleSeconds: number;
  logPath: string;
  webhooks: MerchantComparison;
  money: MoneyOutComparison;
  moneyStats: MoneyOutStats;
}) {
  const { result, stats, faults, webhooks, money } = r;
  const list = (map: Map<string, number>) =>
    [...map.entries()]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([k, v]) => `${k}: ${v}`)
      .join(', ') || 'none';
  const lines = [
    '',
    `checkouts (${r.driveSeconds.toFixed(0)} s driving, ${r.settleSeconds.toFixed(0)} s settling)`,
    `  shoppers: ${r.orders}; got a checkout: ${stats.gotCheckout}; gave up after 8 tries: ${stats.gaveUp}; double submits: ${stats.doubleSubmits}; reloads: ${stats.reloads} (another transaction: ${stats.reloadsWithAnotherTransaction})`,
    `  POST /api/checkouts answers: ${list(stats.answers)}`,
    `  payer actions: ${list(stats.actions)}; webhook left to the emulator's retries (424): ${stats.actionRetries}; not done: ${list(stats.actionFailures)}`,
    `  our store: ${result.checkouts} checkouts (${list(result.byState)}), ${result.duplicates} kept as duplicates`,
    `  provider: ${result.providerTransactions} transactions for our orders (${list(result.providerByState)})`,
    `faults injected`,
    ...FAULT_KINDS.map((kind) => `  ${kind}: ${faults.counts.get(kind) ?? 0}`),
    `  5xx bursts: ${faults.bursts}; B restarted ${r.restarts} times after ${r.kills} kills`,
    `mismatches`,
    `  lost final states: ${result.mismatches.lost.length}`,
    `  regressed states: ${result.mismatches.regressed.length}`,
    `  duplicated final states: ${result.mismatches.duplicatedFinal.length}`,
    `  orders with two live transactions at the provider: ${result.mismatches.twoLive.length}`,
    `  total: ${mismatchCount(result)}`,
    `  (not counted: live provider transactions no checkout holds: ${result.untrackedLive.length}; live OpenFinance initiations whose bank address reached no payer, followed as duplicates: ${result.unreachableLive.length})`,
    ...merchantLines(webhooks, list),
    ...moneyOutLines(money, r.moneyStats, list),
    `total mismatches: ${mismatchCount(result) + merchantMismatchCount(webhooks) + moneyOutMismatchCount(money)}`,
  ];
  const examples = [
    ['lost', result.mismatches.lost],
    ['regressed', result.mismatches.regressed],
    ['duplicated', result.mismatches.duplicatedFinal],
    ['two live', result.mismatches.twoLive],
    ['untracked live', result.untrackedLive],
    ...Object.entries(webhooks.mismatches).map(([name, items]) => [`merchant webhooks, ${name}`, items] as const),
    ...Object.entries(money.mismatches).map(([name, items]) => [`money out, ${name}`, items] as const),
  ] as const;
  for (const [name, items] of examples) {
    if (items.length) lines.push(`examples, ${name}:`, ...items.slice(0, 5).map((item) => `  ${item}`));
  }
  lines.push(`BFF logs: ${r.logPath}${process.env.SOAK_KEEP ? '' : ' (deleted on exit; set SOAK_KEEP=1 to keep them)'}`);
  for (const line of lines) console.log(line);
}

const showMs = (s: Summary) =>
  s.n === 0 ? 'none' : `p50 ${s.p50.toFixed(0)} ms, p99 ${s.p99.toFixed(0)} ms, max ${s.max.toFixed(0)} ms (n ${s.n})`;

/** The merchant's side: what arrived, how, and the mismatches (counted in the total). */
function merchantLines(w: MerchantComparison, list: (map: Map<string, number>) => string): string[] {
  const m = w.mismatches;
  return [
    `merchant webhooks (one receiver, both instances, every copy verified with standardwebhooks)`,
    `  requests: ${w.requests} (from ${list(w.byInstance)}); copies with a body: ${w.copies}; answers: ${list(w.byOutcome)}`,
    `  distinct events received: ${w.events} (${list(w.byType)}); our store wrote ${w.storeEvents}; deliveries in our store: ${list(w.deliveries)}; not yet queued: ${w.notQueued}`,
    `  repeated copies (same webhook-id, at least once): ${w.repeats}; most copies of one event: ${w.mostCopies}`,
    `  provider: ${w.paidOrders} paid orders, ${w.paidTransactions} Completed transactions`,
    `  provider completion → merchant's first copy: ${showMs(w.firstReceipt)}`,
    `  provider completion → first copy answered 2xx in time: ${showMs(w.firstAcknowledged)}`,
    `  our store's commit of the payment (the event's createdAt) → merchant's first copy: ${showMs(w.commitToFirst)}`,
    `  deliveries in flight from B when it was killed: ${w.killedDuring}; delivered again after the kill: ${w.redeliveredAfterKill}`,
    `  paid orders without a checkout.completed: ${m.missingCompleted.length}`,
    `  Completed transactions without a paid event: ${m.missingPaidEvent.length}`,
    `  events of our store never received: ${m.neverReceived.length}`,
    `  events never answered 2xx in time (at least once not met): ${m.unacknowledged.length}`,
    `  copies that did not verify: ${m.unverifiable.length}`,
    `  events under two or more webhook-ids: ${m.twoIds.length}`,
    `  webhook-id not the event's id, or one id with two bodies: ${m.idMismatch.length}`,
    `  received events our store never wrote: ${m.unknown.length}`,
  ];
}

/** The back office's side: the refunds and cash-outs asked for, what became of them, and the mismatches (counted). */
function moneyOutLines(m: MoneyOutComparison, s: MoneyOutStats, list: (map: Map<string, number>) => string): string[] {
  const refunds = s.intents.filter((i) => i.kind === 'refund').length;
  return [
    `money out (refunds and cash-outs through the back office, one key per intent, nobody retrying those walked away from)`,
    `  intents: ${m.intents} (${refunds} refunds, ${m.intents - refunds} cash-outs); retries under the same key: ${s.retries}; walked away after a failure: ${s.walkedAway}; completed at the bank: ${s.completedAtBank}`,
    `  answers: ${list(s.answers)}`,
    `  provider: ${list(m.providerByState)}; our store: ${list(m.storeByState)}`,
    `  lost money out (made at the provider, not held as such by our store): ${m.mismatches.lost.length}`,
    `  doubled money out (two cash-outs for one intent, or refunds past what was paid): ${m.mismatches.doubled.length}`,
    `  left unknown (still Sending): ${m.mismatches.unknown.length}`,
  ];
}
