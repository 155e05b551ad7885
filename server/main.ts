/**
 * `npm run serve`: the BFF alone, for production. It talks to the provider of PROVIDER_BASE_URL and prices orders
 * with the merchant's backend at ORDERS_URL; it refuses to start without either. Prints where the API, the element
 * and the console are (`startServer` itself says how to add the first console user while there is none). Stops
 * cleanly on SIGINT/SIGTERM.
 */
import { loadConfig } from './config';
import { startServer } from './server';

let running;
try {
  running = await startServer(loadConfig());
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}

console.log(`pix-checkout BFF listening on ${running.url}`);
console.log(`  checkout API  ${running.publicBaseUrl}/api`);
console.log(`  element       ${running.publicBaseUrl}/widget/pix-checkout.js`);
console.log(`  console       ${running.publicBaseUrl}/admin`);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void running.close().finally(() => process.exit(0));
  });
}
