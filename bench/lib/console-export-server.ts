/**
 * The export's server, in a process of its own (forked by ./console-export.ts), so that the memory it reports is the
 * server's alone, not the bench's (whose heap holds what earlier rows left) nor its client's: it opens the store at
 * EXPORT_FILE (SQLite) or EXPORT_URL (PostgreSQL) as the server does, serves the back office's export route on
 * 127.0.0.1 through @hono/node-server (which writes the next chunk only once the socket drained the last), and
 * answers `settle` and `peak`. `settle` first exports the newest rows (up to `WARM_UP_ROWS`) in the process, so the
 * server is as one that has been serving: its code compiled and its young generation grown, a fixed cost of any
 * busy Node process that the export of 1,000 rows (the baseline) would not pay and a longer one would; then it
 * collects, takes its memory as the baseline and starts sampling it. `peak` stops and sends the peaks' growth.
 */
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { viewsWithRefunds } from '../../server/backoffice/checkout-view';
import { checkoutExportRoutes } from '../../server/backoffice/routes/checkouts-export';
import { openBenchStore } from './open-store';
import { SEED_NOW } from './console-seed';
import { settledMemory } from './stats';

const file = process.env.EXPORT_FILE;
const url = process.env.EXPORT_URL;
const store = file ? await openBenchStore({ file }) : await openBenchStore({ databaseUrl: url! });
const clock = { now: () => new Date(SEED_NOW) };
const app = new Hono().route('/', checkoutExportRoutes({ store, clock, withRefunds: viewsWithRefunds(store) }));
const server = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 });
await new Promise<void>((resolve) => server.once('listening', resolve));

/** Rows of the warm-up export (fewer when the store has fewer). */
const WARM_UP_ROWS = 10_000;

async function warmUp() {
  const reader = (await app.request('/checkouts/export.csv')).body!.getReader();
  let newlines = 0;
  while (newlines <= WARM_UP_ROWS) {
    const { done, value } = await reader.read();
    if (done) return;
    for (let at = value.indexOf(10); at !== -1; at = value.indexOf(10, at + 1)) newlines++;
  }
  await reader.cancel();
}

/** Every 2 ms: the RSS (cheap to read); every 25th time, the heap and the buffers too. */
const SAMPLE_MS = 2;
let sampler: ReturnType<typeof setInterval> | undefined;
let start = process.memoryUsage();
let peak = { rss: 0, heapTotal: 0, external: 0 };

async function handle(command: { type: 'settle' | 'peak' | 'exit' }) {
  if (command.type === 'settle') {
    await warmUp();
    await settledMemory();
    start = process.memoryUsage();
    peak = { rss: start.rss, heapTotal: start.heapTotal, external: start.external };
    let samples = 0;
    sampler = setInterval(() => {
      peak.rss = Math.max(peak.rss, process.memoryUsage.rss());
      if (++samples % 25 !== 0) return;
      const { heapTotal, external } = process.memoryUsage();
      peak.heapTotal = Math.max(peak.heapTotal, heapTotal);
      peak.external = Math.max(peak.external, external);
    }, SAMPLE_MS);
    process.send!({ type: 'settled' });
  } else if (command.type === 'peak') {
    clearInterval(sampler);
    peak.rss = Math.max(peak.rss, process.memoryUsage.rss());
    process.send!({
      type: 'peak',
      rssGrowth: peak.rss - start.rss,
      heapGrowth: peak.heapTotal - start.heapTotal,
      externalGrowth: peak.external - start.external,
    });
  } else {
    server.close();
    await store.close();
    process.exit(0);
  }
}

process.on('message', (command: { type: 'settle' | 'peak' | 'exit' }) => void handle(command));
process.send!({ type: 'ready', port: (server.address() as { port: number }).port });
