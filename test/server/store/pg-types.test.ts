/**
 * The store reads timestamptz as ISO text (server/store/pg-types.ts) instead of `pg`'s Date: the text must be
 * exactly the Date's `toISOString()` for every instant, and anything it does not take goes to `pg`'s own parser.
 */
import fc from 'fast-check';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storeTypes, timestamptzText, UTC_SESSION } from '../../../server/store/pg-types';
import { createTestDatabase, TEST_DATABASE_URL, type TestDatabase } from './pg-test-database';

const pgDate = pg.types.getTypeParser(pg.types.builtins.TIMESTAMPTZ, 'text') as (text: string) => Date | number;
const iso = (value: unknown) => (value instanceof Date ? value.toISOString() : value);

describe('timestamptz as text', () => {
  it("is the Date's ISO text for any UTC instant PostgreSQL writes, with 0 to 6 digits of fraction", () => {
    fc.assert(
      fc.property(
        fc.date({ min: new Date('1000-01-01T00:00:00Z'), max: new Date('9999-12-31T23:59:59Z'), noInvalidDate: true }),
        fc.stringMatching(/^\d{0,6}$/),
        (date, digits) => {
          const fraction = digits.replace(/0+$/, '');
          const text = `${date.toISOString().slice(0, 19).replace('T', ' ')}${fraction ? `.${fraction}` : ''}+00`;
          expect(timestamptzText(text)).toBe(iso(pgDate(text)));
        },
      ),
    );
  });

  it("leaves to pg's parser what is not UTC text: another zone, BC, infinity", () => {
    for (const text of ['2026-05-30 09:34:56.5-03', '0044-03-15 12:00:00+00 BC', 'infinity', '-infinity']) {
      const value = timestamptzText(text);
      expect(typeof value).not.toBe('string');
      expect(iso(value)).toEqual(iso(pgDate(text)));
    }
  });
});

describe.skipIf(!TEST_DATABASE_URL)('timestamptz read from PostgreSQL (TEST_DATABASE_URL)', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase(TEST_DATABASE_URL!);
  });
  afterAll(async () => {
    await db?.drop();
  });

  const instants = ['2026-05-30T12:34:56.789Z', '2026-05-30T12:34:56Z', '2019-02-16T02:30:00.1Z', '0999-01-01T00:00:00.123Z'];
  const sql = `SELECT v::timestamptz AS at, (v::timestamptz + interval '0.000456 seconds') AS micro FROM unnest($1::text[]) v`;

  it("reads as the stored instant's ISO text in the store's session, as a Date would", async () => {
    const pool = new pg.Pool({ connectionString: db.url, options: UTC_SESSION, types: storeTypes });
    try {
      const plain = await db.query(sql, [instants]);
      const { rows } = await pool.query(sql, [instants]);
      expect(rows.map((row: { at: unknown }) => row.at)).toEqual(instants.map((at) => new Date(at).toISOString()));
      expect(rows.every((row: { at: unknown; micro: unknown }) => typeof row.at === 'string' && typeof row.micro === 'string')).toBe(true);
      expect(rows.map((row: { micro: unknown }) => row.micro)).toEqual(plain.rows.map((row: { micro: Date }) => row.micro.toISOString()));
    } finally {
      await pool.end();
    }
  });

  it('still reads the same instant when the connection string asks for another zone (as a Date, which the mappers take)', async () => {
    const url = new URL(db.url);
    url.searchParams.set('options', '-c TimeZone=America/Sao_Paulo');
    const pool = new pg.Pool({ connectionString: url.toString(), options: UTC_SESSION, types: storeTypes });
    try {
      const { rows } = await pool.query(sql, [instants]);
      expect(rows.map((row: { at: unknown }) => iso(row.at))).toEqual(instants.map((at) => new Date(at).toISOString()));
    } finally {
      await pool.end();
    }
  });
});
