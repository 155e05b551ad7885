/**
 * What every store part is given: the database's dialect and the three ways to run its work. A part is one function
 * of a `Db` (`checkoutsPart(db)`, `accountsPart(db)`…), written once; `openStore` makes the `Db` of the configured
 * database and composes the parts.
 */
import type { Dialect } from './dialect';
import type { Work } from './work';

export interface WriteOptions {
  /**
   * Runs the whole work again, in a new transaction, when it fails on a unique index (`Dialect.isUniqueViolation`),
   * up to this many attempts in all: PostgreSQL's READ COMMITTED may let another transaction's insert in between a
   * read and a write. SQLite's write lock makes the retry moot there. Default 1 (no retry).
   */
  attempts?: number;
}

export interface Db {
  readonly dialect: Dialect;
  /** Runs `work` in one write transaction (BEGIN IMMEDIATE; BEGIN … COMMIT), rolled back when it throws. */
  write<T>(work: () => Work<T>, options?: WriteOptions): Promise<T>;
  /** Runs `work`'s statements outside a transaction: single-statement writes and short reads on the request path. */
  read<T>(work: () => Work<T>): Promise<T>;
  /**
   * Runs long reads (the console's lists, exports) where they hold no shopper's request: SQLite's reader thread
   * (../sqlite-reader.ts); PostgreSQL's pool, as `read`. Only `all` and `get` statements.
   */
  list<T>(work: () => Work<T>): Promise<T>;
  /** Whether an online index exists yet (../migrate-online.ts): a SQLite statement naming a missing one cannot be prepared. */
  built(index: string): boolean;
}
