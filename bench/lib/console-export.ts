/**
 * The console's CSV export as the bench measures it (../console-rows.ts): the whole file of a store read through the
 * export's route, in this process, by a client that keeps nothing (it counts a chunk's line ends and drops it).
 */
import type { Hono } from 'hono';
import { settledMemory } from './stats';

/**
 * The CSV export of every checkout: rows, seconds, rows per second and the peak growth of the process's RSS while it
 * streamed, with where it went: the main thread's V8 heap and its buffers (ArrayBuffers and other memory V8 is told
 * of) at their peaks, sampled every 64 chunks; the rest is the reader thread's heap (SQLite) and native memory. The
 * client reads in this process and keeps nothing: it counts a chunk's line ends and drops it.
 */
export async function measureExport(app: Hono) {
  await settledMemory();
  const start = process.memoryUsage();
  const before = start.rss;
  let peak = before;
  let heapPeak = start.heapTotal;
  let externalPeak = start.external;
  let newlines = 0;
  let chunks = 0;
  const started = performance.now();
  const response = await app.request('/checkouts/export.csv');
  if (response.status !== 200) throw new Error(`bench: the export answered ${response.status}: ${await response.text()}`);
  const reader = response.body!.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    for (let at = value.indexOf(10); at !== -1; at = value.indexOf(10, at + 1)) newlines++;
    peak = Math.max(peak, process.memoryUsage.rss());
    if (++chunks % 64 === 0) {
      const { heapTotal, external } = process.memoryUsage();
      heapPeak = Math.max(heapPeak, heapTotal);
      externalPeak = Math.max(externalPeak, external);
    }
  }
  const seconds = (performance.now() - started) / 1000;
  const rows = newlines - 1;
  return {
    rows,
    seconds,
    perSecond: rows / seconds,
    rssGrowth: peak - before,
    heapGrowth: heapPeak - start.heapTotal,
    externalGrowth: externalPeak - start.external,
  };
}
