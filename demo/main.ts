/** `npm start`: the demo shop on the embedded emulator. Reads the environment; stops gracefully on SIGINT/SIGTERM (server/shutdown.ts). */
import { loadConfig } from '../server/config';
import { stopOnSignals } from '../server/shutdown';
import { startDemo } from './start';

let config;
let running;
try {
  config = loadConfig();
  running = await startDemo(config);
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}

const { url } = running;
if (running.sandbox) {
  const token = process.env.ADMIN_TOKEN ? 'ADMIN_TOKEN' : `file ${config.dataDir}/admin-token`;
  console.log(`pix-checkout demo listening on ${url}`);
  console.log(`  demo shop     ${url}/`);
  console.log(`  checkout API  ${url}/api`);
  console.log(`  console       ${url}/admin`);
  if (running.demoUsers) console.log(`  users         file ${running.demoUsers.file} (the console's demo users and their passwords)`);
  console.log(`  admin API     ${url}/api/admin (bearer token: ${token})`);
  console.log(`  portal        ${url}/sandbox-portal.html (the provider's portal stand-in: receivers, approvals, cash-outs)`);
  console.log(`  sandbox       ${url}/sandbox/v1/partners-int`);
  console.log(`  sandbox admin ${url}/sandbox/admin (x-sandbox-admin-key: file ${config.dataDir}/sandbox-admin-key)`);
  if (running.merchantWebhook?.own)
    console.log(
      `  webhooks      ${running.merchantWebhook.url} (the shop's receiver; secret: file ${config.dataDir}/merchant-webhook-secret)`,
    );
  else if (running.merchantWebhook) console.log(`  webhooks      MERCHANT_WEBHOOK_URL (${running.merchantWebhook.url})`);
} else {
  console.log(`pix-checkout BFF listening on ${url} (provider ${config.provider?.baseUrl})`);
  console.log(`  console       ${url}/admin`);
}

stopOnSignals(running, { timeoutMs: config.shutdownTimeoutMs, log: console });
