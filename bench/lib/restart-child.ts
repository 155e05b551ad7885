/**
 * A restarted server, for the restart rows (./console-restart.ts): opens the store at RESTART_FILE (SQLite) or
 * RESTART_URL (PostgreSQL) as the server does, migrations first, serves the shoppers' app on 127.0.0.1, and prints
 * `port <n>` once it listens.
 */
import { openBenchStore } from './open-store';
import { serveShoppers } from './console-status';

const file = process.env.RESTART_FILE;
const url = process.env.RESTART_URL;
const store = file ? await openBenchStore({ file }) : await openBenchStore({ databaseUrl: url! });
const { port } = await serveShoppers(store);
console.log(`port ${port}`);
