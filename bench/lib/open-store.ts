/**
 * A store for a bench row, through the publishing opener (`openStore`, the only one outside server/store), as the
 * server opens it: on a SQLite file or a PostgreSQL database, telling an in-process hub of its own, so a row opens no
 * LISTEN connection it does not use.
 */
import { createLocalHub, openStore } from '../../server/store';

export async function openBenchStore(at: { file: string } | { databaseUrl: string }) {
  return (await openStore({ hub: createLocalHub(), ...at })).store;
}
