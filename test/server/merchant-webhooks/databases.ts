/**
 * The databases a whole-product test of the merchant's webhooks runs on: SQLite always, and a fresh PostgreSQL
 * database on the server of TEST_DATABASE_URL when it is set (its environment for `startTestServer`, and its drop).
 */
import { createTestDatabase, TEST_DATABASE_URL } from '../store/pg-test-database';

export interface TestDatabaseEnv {
  env: Record<string, string>;
  drop(): Promise<void>;
}

export const DATABASES: [string, () => Promise<TestDatabaseEnv>][] = [
  ['SQLite', async () => ({ env: {}, drop: async () => undefined })],
  ...(TEST_DATABASE_URL
    ? ([
        [
          'PostgreSQL',
          async () => {
            const database = await createTestDatabase(TEST_DATABASE_URL!);
            return { env: { DATABASE_URL: database.url }, drop: () => database.drop() };
          },
        ],
      ] as [string, () => Promise<TestDatabaseEnv>][])
    : []),
];
