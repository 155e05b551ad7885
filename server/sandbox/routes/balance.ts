/**
 * `GET /accounts/balance` and `/accounts/balance/{accountUid}`. The provider does not publish the shape; ours is the
 * amount, currency and date plus the account and the parts it is made of. Opening balance + completed credits −
 * completed debits − charges of completed transactions. The sandbox merchant has one account, `MERCHANT.accountUid`.
 */
import { Hono } from 'hono';
import { formatDecimal, MICRO_SCALE as SCALE, microsOf, parseDecimal } from '../../../core/money';
import type { SandboxContext } from '../context';
import { MERCHANT } from '../defaults';
import { methodNotAllowed, notFound } from '../errors';
import { parseInstant } from '../request';

const micros = (text: string | null | undefined) => parseDecimal(text ?? '0', SCALE) ?? 0n;
const DAY_MS = 86_400_000;

/** Balance parts in millionths of a real, counting what completed before `until` (all of it when absent). */
export function balanceParts(ctx: SandboxContext, until?: string) {
  let credits = 0n;
  let debits = 0n;
  let charges = 0n;
  for (const { record } of ctx.store.inState('Completed')) {
    const t = record.transaction;
    if (until && (t.stateCompletedDate ?? '') >= until) continue;
    if (t.type === 'Credit') credits += micros(t.amount);
    else debits += micros(t.amount);
    charges += micros(t.charges);
  }
  const balance = microsOf(ctx.openingBalanceCents) + credits - debits - charges;
  return { balance, credits, debits, charges };
}

/** What a new cash-out may still spend: the balance less the cash-outs already on their way. */
export function availableMicros(ctx: SandboxContext): bigint {
  let reserved = 0n;
  for (const state of ['Created', 'Registered']) {
    for (const { record } of ctx.store.inState(state)) {
      if (record.transaction.type === 'Debit') reserved += micros(record.transaction.amount) + micros(record.transaction.charges);
    }
  }
  return balanceParts(ctx).balance - reserved;
}

export function balanceRoutes(ctx: SandboxContext) {
  const answer = (filterDate: string | undefined) => {
    let until: string | undefined;
    let date = ctx.clock.now().toISOString();
    if (filterDate !== undefined) {
      // The provider's filterDate names a day (UTC) and answers that day's closing balance.
      const day = parseInstant(filterDate, '/filterDate');
      const start = Math.floor(day / DAY_MS) * DAY_MS;
      until = new Date(start + DAY_MS).toISOString();
      date = new Date(start + DAY_MS - 1).toISOString();
    }
    const parts = balanceParts(ctx, until);
    const text = (units: bigint) => formatDecimal(units, SCALE);
    return {
      statusCode: 'Done',
      data: {
        balance: text(parts.balance),
        currency: 'BRL',
        date,
        accountUid: MERCHANT.accountUid,
        credits: text(parts.credits),
        debits: text(parts.debits),
        charges: text(parts.charges),
      },
    };
  };
  return new Hono()
    .get('/', (c) => c.json(answer(c.req.query('filterDate'))))
    .get('/:accountUid', (c) => {
      const accountUid = c.req.param('accountUid');
      if (accountUid !== MERCHANT.accountUid) throw notFound(`Account ${accountUid} not found`);
      return c.json(answer(c.req.query('filterDate')));
    })
    .all('/', methodNotAllowed)
    .all('/:accountUid', methodNotAllowed);
}
