/**
 * One standalone BFF for `npm run soak`, as its own process so the soak can `kill -9` it mid-creation and start it
 * again on the same DATA_DIR, DATABASE_URL and PORT. Configured like `npm run serve` (the environment), plus the
 * timing knobs in SOAK_TUNING (JSON). Prints `ready <url>` once it listens; logs go to stderr.
 */
import { loadConfig } from '../../server/config';
import { startServer, type Tuning } from '../../server/server';

const tuning = JSON.parse(process.env.SOAK_TUNING ?? '{}') as Tuning;
const log = {
  log: (...args: unknown[]) => console.error('[bff]', ...args),
  warn: (...args: unknown[]) => console.error('[bff]', ...args),
  error: (...args: unknown[]) => console.error('[bff]', ...args),
};

const running = await startServer(loadConfig(process.env), { tuning, log });
console.log(`ready ${running.url}`);

const stop = () => {
  void running.close().finally(() => process.exit(0));
};
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
