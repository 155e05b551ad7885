/**
 * Whether an error means the database is away for a while rather than a fault of this code: PostgreSQL refusing or
 * dropping connections (stopped, restarting, failed over, out of connections) or SQLite unable to write its file
 * (disk full, an I/O error, the lock held past its timeout). The HTTP layers answer such an error as a 503 with
 * `Retry-After` (server/http/error-envelope.ts) instead of a 500; the background loops log it and try again at their
 * next pass. Read from the error's shape alone (the drivers' `code` and message), so nothing here imports a driver.
 */

/** PostgreSQL's SQLSTATEs of a server going or gone: class 08 (connection exception), 57P01-57P03, 53300. */
const PG_CODES = new Set(['57P01', '57P02', '57P03', '53300', '08000', '08001', '08003', '08004', '08006', '08P01']);
/** Node's socket errors met connecting to or talking with a database server. */
const SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);
/** SQLite's result codes (better-sqlite3's `code`, extended codes included) of a file that cannot be written now. */
const SQLITE_PREFIXES = ['SQLITE_FULL', 'SQLITE_IOERR', 'SQLITE_BUSY'];
/** node-postgres says these in words, without a code. */
const PG_MESSAGES = [
  /^Connection terminated/,
  /timeout exceeded when trying to connect/,
  /Client has encountered a connection error and is not queryable/,
  /Client was closed and is not queryable/,
  /Cannot use a pool after calling end on the pool/,
];

/** How long a shopper is asked to wait before trying again (the `Retry-After` of the 503). */
export const STORE_RETRY_AFTER_SECONDS = 5;

function unavailableItself(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string') {
    if (PG_CODES.has(code) || SOCKET_CODES.has(code)) return true;
    if (SQLITE_PREFIXES.some((prefix) => code === prefix || code.startsWith(`${prefix}_`))) return true;
  }
  const message = (error as { message?: unknown }).message;
  return typeof message === 'string' && PG_MESSAGES.some((pattern) => pattern.test(message));
}

/** True when `error`, or an error it wraps (`cause`, an AggregateError's `errors`), says the database is away. */
export function isStoreUnavailable(error: unknown, depth = 0): boolean {
  if (depth > 5 || typeof error !== 'object' || error === null) return false;
  if (unavailableItself(error)) return true;
  const { cause, errors } = error as { cause?: unknown; errors?: unknown };
  if (Array.isArray(errors) && errors.some((inner) => isStoreUnavailable(inner, depth + 1))) return true;
  return isStoreUnavailable(cause, depth + 1);
}
