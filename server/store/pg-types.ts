/**
 * How `pg` reads the store's columns. A timestamptz arrives as the records hold it, the ISO text of
 * `toISOString()`, instead of a Date the row mappers would turn back into that text: a checkout has six of them, and
 * an export of 10,000 rows spent an eighth of its time parsing dates and writing them again. The store's connections
 * ask for their session in UTC, where PostgreSQL writes `2026-05-30 12:34:56.789+00`; any other text (another zone
 * set in the connection string, a year past 9999, infinity) goes to `pg`'s own parser and becomes a Date, which the
 * mappers still take.
 */
import pg from 'pg';

/** Given to the store's Pool: `options` of the connection (a connection string's own `options` wins). */
export const UTC_SESSION = '-c TimeZone=UTC';

const UTC_TEXT = /^(\d{4}-\d{2}-\d{2}) (\d{2}:\d{2}:\d{2})(?:\.(\d{1,6}))?\+00$/;
const TIMESTAMPTZ: number = pg.types.builtins.TIMESTAMPTZ;
const asDate = pg.types.getTypeParser(TIMESTAMPTZ, 'text') as (text: string) => unknown;

/** `2026-05-30 12:34:56.78+00` → `2026-05-30T12:34:56.780Z`: milliseconds cut, not rounded, as a Date does. */
export function timestamptzText(text: string): unknown {
  const parts = UTC_TEXT.exec(text);
  if (!parts) return asDate(text);
  const fraction = parts[3] ?? '';
  return `${parts[1]}T${parts[2]}.${fraction.length >= 3 ? fraction.slice(0, 3) : fraction.padEnd(3, '0')}Z`;
}

/** The type parsers of the store's connections: `pg`'s own, but for timestamptz in text. */
export const storeTypes = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === TIMESTAMPTZ && format !== 'binary'
      ? timestamptzText
      : (pg.types.getTypeParser(oid, format ?? 'text') as unknown)) as typeof pg.types.getTypeParser,
};
