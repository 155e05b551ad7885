/**
 * A store part's work, written once for both databases: a generator that yields the statements it runs (`get`,
 * `all`, `run`, each SQL text with `@name` parameters) and receives their results. An executor (./sqlite-executor,
 * ./postgres-executor) carries the statements out: better-sqlite3 synchronously, inside BEGIN IMMEDIATE for a write;
 * `pg` awaiting each on one client, inside BEGIN … COMMIT for a write. The work decides nothing about the driver, and
 * the driver nothing about the work.
 */
import type { Row } from '../rows';

/** Named parameters of a statement: `@name` in its text. Undefined is bound as NULL. */
export type Params = Readonly<Record<string, unknown>>;

/** One statement: its rows (`all`), its first row (`get`), or the number of rows it changed (`run`). */
export type Op = { readonly kind: 'get' | 'all' | 'run'; readonly sql: string; readonly params: Params };

/** What a part's work yields and receives; `T` is what it returns. */
export type Work<T> = Generator<Op, T, unknown>;

/** The first row of `sql`, or undefined. */
export function* get<R = Row>(sql: string, params: Params = {}): Work<R | undefined> {
  return (yield { kind: 'get', sql, params }) as R | undefined;
}

/** Every row of `sql`. */
export function* all<R = Row>(sql: string, params: Params = {}): Work<R[]> {
  return (yield { kind: 'all', sql, params }) as R[];
}

/** Runs `sql` and returns how many rows it inserted, updated or deleted. */
export function* run(sql: string, params: Params = {}): Work<number> {
  return (yield { kind: 'run', sql, params }) as number;
}

/**
 * Drives `work` synchronously with `exec` answering each thing it yields (better-sqlite3): a part's statements, or
 * the checkout plan's steps (../plans.ts).
 */
export function driveSync<Y, R, T>(work: Generator<Y, T, R>, exec: (yielded: Y) => R): T {
  let next = work.next();
  while (!next.done) next = work.next(exec(next.value));
  return next.value;
}

/** Drives `work` with `exec` answering each thing it yields in turn, on one connection (`pg`). */
export async function driveAsync<Y, R, T>(work: Generator<Y, T, R>, exec: (yielded: Y) => Promise<R>): Promise<T> {
  let next = work.next();
  while (!next.done) next = work.next(await exec(next.value));
  return next.value;
}
