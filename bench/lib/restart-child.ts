/**
 * A restarted server, for the restart rows (./console-restart.ts): opens the store at RESTART_FILE (SQLite) or
 * RESTART_URL (PostgreSQL) as the server does, migrations first, serves the shoppers' app on 127.0.0.1, and prints
 * `port <n>` once it listens.
 */
import { openPostgresStore } from '../../server/store/postgres';
import { openSqliteStore } from '../../server/store/sqlite';
import { serveShoppers } from './console-status';

const file = process.env.RESTART_FILE;
const url = process.env.RESTART_URL;
const store = file ? openSqliteStore({ file }) : await openPostgresStore({ connectionString: url! });
const { port } = await serveShoppers(store);
console.log(`port ${port}`);
