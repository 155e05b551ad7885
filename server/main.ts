/** `npm start`: read the environment, start everything, stop cleanly on SIGINT/SIGTERM. */
import { loadConfig } from './config';
import { startServer } from './server';

let config;
try {
  config = loadConfig();
} catch (error) {
  console.error((error as Error).message);
  process.exit(1);
}

const running = await startServer(config);
console.log(`pix-checkout listening on ${running.url}`);
console.log(`  demo shop     ${running.url}/`);
console.log(`  checkout API  ${running.url}/api`);
console.log(`  back-office   ${running.url}/backoffice.html (admin token: ${process.env.ADMIN_TOKEN ? 'ADMIN_TOKEN' : `file ${config.dataDir}/admin-token`})`);
console.log(running.sandbox ? `  sandbox       ${running.url}/sandbox/v1/partners-int` : '  provider      remote');

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void running.close().finally(() => process.exit(0));
  });
}
