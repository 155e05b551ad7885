/**
 * One standalone BFF as its own process, so a test or the soak can `kill -9` it mid-flight and start it again on the
 * same DATA_DIR, DATABASE_URL and PORT (./bff-child.ts starts it). Configured like `npm run serve` (the environment),
 * plus the timing knobs in BFF_TUNING (JSON). Prints `ready <url>` once it listens; logs go to stderr.
 */
import { loadConfig } from '../../../server/config';
import { startServer, type Tuning } from '../../../server/server';

const tuning = JSON.parse(process.env.BFF_TUNING ?? '{}') as Tuning;
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
