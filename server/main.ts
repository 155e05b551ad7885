/**
 * `npm run serve`: the BFF alone, for production. It talks to the provider of PROVIDER_BASE_URL and prices orders
 * with the merchant's backend at ORDERS_URL; it refuses to start without either. Logs one JSON object a line
 * (`LOG_FORMAT=pretty` for people, from `LOG_LEVEL` up), where the API, the element and the console are among them
 * (`startServer` itself says how to add the first console user while there is none). On SIGTERM or SIGINT it stops
 * gracefully within SHUTDOWN_TIMEOUT_MS (./shutdown.ts).
 */
import { loadConfig } from './config';
import { createLog } from './lib/log';
import { startServer } from './server';
import { stopOnSignals } from './shutdown';

let config;
let running;
try {
  config = loadConfig();
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}
const log = createLog(config.log);
try {
  running = await startServer(config, { log });
} catch (error) {
  log.error(error instanceof Error ? error.message : error);
  process.exit(1);
}

log.log({ url: running.url }, `pix-checkout BFF listening on ${running.url}`);
log.log(`  checkout API  ${running.publicBaseUrl}/api`);
log.log(`  element       ${running.publicBaseUrl}/widget/pix-checkout.js`);
log.log(`  console       ${running.publicBaseUrl}/admin`);

stopOnSignals(running, { timeoutMs: config.shutdownTimeoutMs, log });
