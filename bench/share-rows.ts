/**
 * The rows of issue 27's goal 3, instances share the work, each beside a baseline measured in the same run:
 * - provider reads made by each of two instances reconciling one store of N stale checkouts together, until none is
 *   left (SQLite: two connections to one file; PostgreSQL with TEST_DATABASE_URL or DATABASE_URL), beside what one
 *   instance alone reads: each should make about half, together exactly once per checkout;
 * - provider reads per expired checkout over its 24 hours of follow-up, on a fake clock with a pass every 15 s,
 *   beside the same reconciler re-reading every minute (the rule before the backoff);
 * - the status hub under 200 concurrent publishes on PostgreSQL: NOTIFY statements queued on its connection and the
 *   wait from publish to another instance hearing it, beside the old way (every publish its own NOTIFY on a pool of
 *   one connection).
 * Knobs: BENCH_SHARE_CHECKOUTS (1000 stale checkouts), BENCH_SHARE_EXPIRED (10 expired checkouts followed a day).
 */
import pg from 'pg';
import { ManualClock } from '../server/lib/clock';
import { createPostgresHub, HUB_CHANNEL } from '../server/store/hub';
import {
  countingProvider,
  HOUR,
  MINUTE,
  postgresShared,
  reconcilerOf,
  seedStale,
  sqliteShared,
  type SharedStores,
} from './lib/share-instances';
import { summarize, type Summary } from './lib/stats';
import { ms, type Row } from './rows';

export interface ShareRowsOptions {
  checkouts: number;
  expired: number;
  log: (line: string) => void;
}

interface ReadSplit {
  database: string;
  alone: number;
  a: number;
  b: number;
}
interface HubFigures {
  /** NOTIFY statements waiting behind the one on its way, the most at once. */
  queued: number;
  wait: Summary;
}
export interface ShareFigures {
  checkouts: number;
  splits: ReadSplit[];
  /** Where PostgreSQL came from, when it was measured. */
  postgres?: string;
  backoff: { checkouts: number; perCheckout: number; everyMinute: number };
  hub?: { project: HubFigures; baseline: HubFigures };
}

const T0 = Date.parse('2026-03-01T12:00:00.000Z');
/** A provider round trip, so two instances' passes overlap as they would against a real provider. */
const PROVIDER_MS = 2;

/** Runs the reconcilers' passes side by side until none reads anything more. */
async function untilQuiet(reconcilers: { runOnce(): Promise<number> }[], reads: () => number): Promise<void> {
  for (let before = -1; before !== reads();) {
    before = reads();
    await Promise.all(reconcilers.map((reconciler) => reconciler.runOnce()));
  }
}

/** Reads by one instance alone, then by each of two together, each on a fresh store of `n` stale checkouts. */
async function readSplit(database: string, open: () => Promise<SharedStores>, n: number): Promise<ReadSplit> {
  const clock = new ManualClock(new Date(T0 + 10 * MINUTE));
  const alone = await open();
  const single = countingProvider(PROVIDER_MS);
  try {
    await seedStale(alone.stores[0], { live: n, expired: 0 }, T0);
    await untilQuiet([reconcilerOf(alone.stores[0], single.provider, clock)], () => single.counter.reads);
  } finally {
    await alone.close();
  }
  const shared = await open();
  const [a, b] = [countingProvider(PROVIDER_MS), countingProvider(PROVIDER_MS)];
  try {
    await seedStale(shared.stores[0], { live: n, expired: 0 }, T0);
    const instances = [reconcilerOf(shared.stores[0], a.provider, clock), reconcilerOf(shared.stores[1], b.provider, clock)];
    await untilQuiet(instances, () => a.counter.reads + b.counter.reads);
  } finally {
    await shared.close();
  }
  return { database, alone: single.counter.reads, a: a.counter.reads, b: b.counter.reads };
}

/** Provider reads per expired checkout over its day of follow-up, with the reconciler's backoff or at every minute. */
async function expiredReads(count: number, everyMinute: boolean): Promise<number> {
  const shared = await sqliteShared();
  const expiredAt = T0 + 30 * MINUTE;
  const clock = new ManualClock(new Date(expiredAt));
  const { counter, provider } = countingProvider(0);
  try {
    await seedStale(shared.stores[0], { live: 0, expired: count }, T0, expiredAt);
    const reconciler = reconcilerOf(
      shared.stores[0],
      provider,
      clock,
      everyMinute ? { expiredBackoff: { firstMs: MINUTE, maxMs: MINUTE } } : {},
    );
    for (let t = expiredAt; t <= expiredAt + 25 * HOUR; t += 15_000) {
      clock.set(new Date(t));
      await reconciler.runOnce();
    }
  } finally {
    await shared.close();
  }
  return counter.reads / count;
}

/** Counts the pg_notify statements on their way through any pool, keeping the most at once. */
function watchNotifies() {
  // eslint-disable-next-line @typescript-eslint/unbound-method -- put back as it was, and called with its pool as `this`
  const original = pg.Pool.prototype.query;
  const seen = { inFlight: 0, most: 0 };
  pg.Pool.prototype.query = function (this: pg.Pool, ...args: unknown[]) {
    const result = (original as (...a: unknown[]) => unknown).apply(this, args);
    if (typeof args[0] === 'string' && args[0].includes('pg_notify') && result instanceof Promise) {
      seen.most = Math.max(seen.most, ++seen.inFlight);
      const done = () => void seen.inFlight--;
      result.then(done, done);
    }
    return result;
  } as typeof original;
  return { seen, restore: () => void (pg.Pool.prototype.query = original) };
}

/** 200 requests publishing at once through `publish`, `rounds` times; waits measured at a LISTEN connection. */
async function publishBurst(url: string, rounds: number, publish: (checkoutId: string) => void): Promise<HubFigures> {
  const listener = new pg.Client({ connectionString: url });
  await listener.connect();
  await listener.query(`LISTEN ${HUB_CHANNEL}`);
  const sentAt = new Map<string, number>();
  const waits: number[] = [];
  let heard = () => undefined as void;
  listener.on('notification', (message) => {
    const { checkoutId } = JSON.parse(message.payload ?? '{}') as { checkoutId?: string };
    const sent = checkoutId === undefined ? undefined : sentAt.get(checkoutId);
    if (sent === undefined) return;
    waits.push(performance.now() - sent);
    sentAt.delete(checkoutId!);
    if (sentAt.size === 0) heard();
  });
  const { seen, restore } = watchNotifies();
  try {
    for (let round = 0; round < rounds; round++) {
      const allHeard = new Promise<void>((resolve) => (heard = resolve));
      await Promise.all(
        Array.from({ length: 200 }, async (_, i) => {
          await new Promise((resolve) => setImmediate(resolve));
          const checkoutId = `bench-${round}-${i}-${Math.random()}`;
          sentAt.set(checkoutId, performance.now());
          publish(checkoutId);
        }),
      );
      await allHeard;
      // A NOTIFY is heard on its commit, a moment before its statement returns: the next round starts after.
      while (seen.inFlight > 0) await new Promise((resolve) => setImmediate(resolve));
    }
  } finally {
    restore();
    await listener.end();
  }
  return { queued: Math.max(0, seen.most - 1), wait: summarize(waits) };
}

async function hubFigures(url: string, log: ShareRowsOptions['log']): Promise<ShareFigures['hub']> {
  const rounds = 5;
  const onError = (error: unknown) => log(`share: ${String(error)}`);
  const old = new pg.Pool({ connectionString: url, max: 1 });
  const baseline = await publishBurst(url, rounds, (checkoutId) => {
    const payload = JSON.stringify({ instance: 'bench-baseline', checkoutId, seq: 1 });
    old.query('SELECT pg_notify($1, $2)', [HUB_CHANNEL, payload]).catch(onError);
  });
  await old.end();
  const hub = await createPostgresHub({ connectionString: url, onError });
  const project = await publishBurst(url, rounds, (checkoutId) => hub.publish(checkoutId, 1));
  await hub.close();
  return { project, baseline };
}

export async function shareRows({ checkouts, expired, log }: ShareRowsOptions): Promise<{ figures: ShareFigures; rows: Row[] }> {
  const postgres = process.env.TEST_DATABASE_URL ? 'TEST_DATABASE_URL' : process.env.DATABASE_URL ? 'DATABASE_URL' : undefined;
  const url = process.env.TEST_DATABASE_URL || process.env.DATABASE_URL;
  if (!url) log('share: PostgreSQL rows skipped (set TEST_DATABASE_URL or DATABASE_URL)');
  log(`share: two instances reconciling ${checkouts.toLocaleString('en')} stale checkouts`);
  const splits = [await readSplit('SQLite, two connections to one file', async () => sqliteShared(), checkouts)];
  if (url) splits.push(await readSplit(`PostgreSQL (${postgres}), two stores`, () => postgresShared(url), checkouts));
  log(`share: ${expired} expired checkouts followed for a day on a fake clock`);
  const backoff = { checkouts: expired, perCheckout: await expiredReads(expired, false), everyMinute: await expiredReads(expired, true) };
  const hub = url ? await hubFigures(url, log) : undefined;
  const figures: ShareFigures = { checkouts, splits, ...(postgres && { postgres }), backoff, ...(hub && { hub }) };
  return { figures, rows: shareTable(figures) };
}

const SKIPPED = 'skipped (set TEST_DATABASE_URL or DATABASE_URL)';

export function shareTable({ checkouts, splits, postgres, backoff, hub }: ShareFigures): Row[] {
  const rows: Row[] = splits.map(({ database, alone, a, b }, i) => ({
    id: `share-reads-${i === 0 ? 'sqlite' : 'postgres'}`,
    what: `Provider reads by the busier of two instances reconciling ${checkouts.toLocaleString('en')} stale checkouts together (${database}); the two made ${a} + ${b} = ${a + b}`,
    value: Math.max(a, b),
    unit: ' reads',
    better: 'lower',
    baseline: `one instance alone: ${alone} reads`,
    baselineValue: alone,
    goal: 'each ≈ half (≤ 0.6×), together = once',
    met: a + b === alone && Math.max(a, b) <= 0.6 * alone,
  }));
  if (!postgres)
    rows.push({
      ...rows[0]!,
      id: 'share-reads-postgres',
      what: 'Same, PostgreSQL, two stores',
      value: null,
      baseline: SKIPPED,
      baselineValue: null,
      met: null,
    });
  rows.push({
    id: 'share-expired-reads',
    what: `Provider reads per expired checkout over its 24 h of follow-up (${backoff.checkouts} checkouts, fake clock, a pass every 15 s)`,
    value: backoff.perCheckout,
    unit: ' reads',
    better: 'lower',
    baseline: `re-read every minute (the rule before the backoff): ${backoff.everyMinute.toFixed(0)} reads`,
    baselineValue: backoff.everyMinute,
    goal: '≤ 48 a day (backoff, at most hourly after the first hour)',
    met: backoff.perCheckout <= 48,
  });
  const hubWhat = {
    queue: 'Status hub, 200 concurrent publishes (PostgreSQL): NOTIFY statements queued behind the one on its way, most at once',
    wait: 'Same: publish → another instance hears it, p50',
  };
  if (!hub) {
    for (const [id, what] of [
      ['share-hub-queue', hubWhat.queue],
      ['share-hub-wait-p50', hubWhat.wait],
    ] as const) {
      rows.push({ id, what, value: null, unit: '', better: 'lower', baseline: SKIPPED, baselineValue: null, goal: '—', met: null });
    }
    return rows;
  }
  rows.push(
    {
      id: 'share-hub-queue',
      what: hubWhat.queue,
      value: hub.project.queued,
      unit: ' statements',
      better: 'lower',
      baseline: `every publish its own NOTIFY on one connection (before): ${hub.baseline.queued} statements`,
      baselineValue: hub.baseline.queued,
      goal: '0 (no queue)',
      met: hub.project.queued === 0,
    },
    {
      id: 'share-hub-wait-p50',
      what: `${hubWhat.wait} (p99 ${ms(hub.project.wait.p99)})`,
      value: hub.project.wait.p50,
      unit: 'ms',
      better: 'lower',
      baseline: `one connection (before): p50 ${ms(hub.baseline.wait.p50)}, p99 ${ms(hub.baseline.wait.p99)}`,
      baselineValue: hub.baseline.wait.p50,
      goal: 'below the baseline',
      met: hub.project.wait.p50 < hub.baseline.wait.p50,
    },
  );
  return rows;
}
