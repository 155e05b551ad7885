/**
 * The sign-in brake's counters in the store (schema step 23, ./migrations-sign-in.ts), so every instance on
 * PostgreSQL shares them: one row per key (`server/accounts/sign-in-limiter.ts` names them), written once for both
 * databases. The store decides nothing: `takeSignInBrakes` reads the keys' rows, asks the caller's plan what to write,
 * and writes it in the same transaction, each row locked from its read to the commit (PostgreSQL's FOR UPDATE;
 * SQLite's write lock), so two attempts on the same key, on any instances, are decided one after the other.
 */
import { z } from 'zod';
import type { Row } from './rows';
import type { Db } from './sql/db';
import { get, run, type Work } from './sql/work';
import { InstantSchema } from './types';
import { instant } from './accounts';

export const SignInBrakeSchema = z.object({
  key: z.string().min(1),
  /** Failures counted (an attempt counts as one from its start until it succeeds). */
  failures: z.int().nonnegative(),
  /** When the last one was counted (for a brake never counted yet: when it was first read). */
  lastFailureAt: InstantSchema,
  /** Until when a refusal under this brake was already recorded; null when none was. */
  reportedUntil: InstantSchema.nullable(),
});
export type SignInBrake = z.infer<typeof SignInBrakeSchema>;

/** What a plan of `takeSignInBrakes` returns: the brakes to write (of the keys it was given) and its answer. */
export interface SignInBrakePlan<T> {
  write: readonly SignInBrake[];
  result: T;
}

export interface SignInBrakeStore {
  /**
   * In one write transaction: the brakes of `keys` (one at zero failures, `lastFailureAt` = `at`, for a key not kept
   * yet), in the order given, passed to `plan`, and the brakes it returns written.
   */
  takeSignInBrakes<T>(keys: readonly string[], at: string, plan: (brakes: readonly SignInBrake[]) => SignInBrakePlan<T>): Promise<T>;
  /** The brakes of `keys` kept now, in the order given (undefined for a key not kept), read outside a transaction. */
  readSignInBrakes(keys: readonly string[]): Promise<(SignInBrake | undefined)[]>;
  /** A sign-in succeeded: the brakes of `clear` are deleted and one failure is taken back from `uncount`, in one transaction. */
  settleSignIn(clear: string, uncount: string): Promise<void>;
  /** Deletes the brakes whose last failure is before `before`; resolves with how many. */
  pruneSignInBrakes(before: string): Promise<number>;
}

const date = (value: unknown) => (value instanceof Date ? value.toISOString() : (value ?? null));

const brakeFromRow = (row: Row): SignInBrake =>
  SignInBrakeSchema.parse({
    key: row.key,
    failures: Number(row.failures),
    lastFailureAt: date(row.last_failure_at),
    reportedUntil: date(row.reported_until),
  });

export function signInBrakesPart(db: Db): SignInBrakeStore {
  const d = db.dialect;
  const sql = {
    ensure: `INSERT INTO sign_in_brakes (key, failures, last_failure_at) VALUES (@key, 0, ${d.instant('at')}) ON CONFLICT (key) DO NOTHING`,
    brake: `SELECT * FROM sign_in_brakes WHERE key = @key${d.forUpdate}`,
    peek: `SELECT * FROM sign_in_brakes WHERE key = @key`,
    write: `
      UPDATE sign_in_brakes SET failures = @failures, last_failure_at = ${d.instant('lastFailureAt')},
        reported_until = ${d.instant('reportedUntil')}
      WHERE key = @key`,
    clear: `DELETE FROM sign_in_brakes WHERE key = @key`,
    uncount: `UPDATE sign_in_brakes SET failures = failures - 1 WHERE key = @key AND failures > 0`,
    prune: `DELETE FROM sign_in_brakes WHERE last_failure_at < ${d.instant('before')}`,
  };

  function* take<T>(keys: readonly string[], at: string, plan: (brakes: readonly SignInBrake[]) => SignInBrakePlan<T>): Work<T> {
    const read = new Map<string, SignInBrake>();
    // Locked in one order on every instance, so two attempts over the same keys cannot wait on each other.
    for (const key of [...new Set(keys)].sort()) {
      yield* run(sql.ensure, { key, at });
      read.set(key, brakeFromRow((yield* get(sql.brake, { key }))!));
    }
    const { write, result } = plan(keys.map((key) => read.get(key)!));
    for (const brake of write) {
      if (!read.has(brake.key)) throw new Error(`A sign-in brake plan wrote ${brake.key}, which it was not given`);
      const { key, failures, lastFailureAt, reportedUntil } = SignInBrakeSchema.parse(brake);
      yield* run(sql.write, { key, failures, lastFailureAt, reportedUntil });
    }
    return result;
  }

  return {
    takeSignInBrakes: (keys, at, plan) => db.write(() => take(keys, instant(at), plan)),
    readSignInBrakes: (keys) =>
      db.read(function* () {
        const brakes: (SignInBrake | undefined)[] = [];
        for (const key of keys) {
          const row = yield* get(sql.peek, { key });
          brakes.push(row ? brakeFromRow(row) : undefined);
        }
        return brakes;
      }),
    async settleSignIn(clear, uncount) {
      await db.write(function* () {
        yield* run(sql.clear, { key: clear });
        yield* run(sql.uncount, { key: uncount });
      });
    },
    async pruneSignInBrakes(before) {
      const params = { before: instant(before) };
      return db.read(() => run(sql.prune, params));
    },
  };
}
