/**
 * The console's CSV export as the bench measures it (../console-rows.ts): the whole file of a store, served by a
 * server process of its own (./console-export-server.ts) over a socket and read here by a client that keeps nothing
 * (it counts a chunk's line ends and drops it). The rate is the client's: rows over the seconds from the request to
 * the file's end. The memory is the server process's, warmed up by an export of its newest rows (at most 10,000):
 * the peak growth of its RSS while it streamed, with its V8 heap's and its buffers' (ArrayBuffers and other memory
 * V8 is told of) beside it; the rest of the RSS is the SQLite reader thread's heap and native memory.
 */
import { fork } from 'node:child_process';
import { get } from 'node:http';
import { fileURLToPath } from 'node:url';
import type { BenchStore } from './console-stores';

export interface ExportFigures {
  rows: number;
  seconds: number;
  perSecond: number;
  rssGrowth: number;
  heapGrowth: number;
  externalGrowth: number;
}

/** Starts the export's server on `bench`'s store; resolves once it listens. */
async function startServer(bench: BenchStore) {
  const env = {
    ...process.env,
    ...('file' in bench.location ? { EXPORT_FILE: bench.location.file } : { EXPORT_URL: bench.location.url }),
  };
  const child = fork(fileURLToPath(new URL('./console-export-server.ts', import.meta.url)), [], {
    env,
    execArgv: ['--expose-gc', '--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const next = <T>(type: string) =>
    new Promise<T>((resolve, reject) => {
      const onExit = (code: number | null) => reject(new Error(`bench: the export's server exited (${code})`));
      child.once('exit', onExit);
      const onMessage = (message: { type: string }) => {
        if (message.type !== type) return;
        child.off('message', onMessage);
        child.off('exit', onExit);
        resolve(message as T);
      };
      child.on('message', onMessage);
    });
  const { port } = await next<{ port: number }>('ready');
  return {
    port,
    ask: <T>(type: 'settle' | 'peak', answer: string) => {
      const answered = next<T>(answer);
      child.send({ type });
      return answered;
    },
    stop: () =>
      new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.send({ type: 'exit' });
      }),
  };
}

/** The file's line ends, read from `port` as it arrives and dropped. */
function download(port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    get({ host: '127.0.0.1', port, path: '/checkouts/export.csv' }, (response) => {
      if (response.statusCode !== 200) reject(new Error(`bench: the export answered ${response.statusCode}`));
      let newlines = 0;
      response.on('data', (chunk: Buffer) => {
        for (let at = chunk.indexOf(10); at !== -1; at = chunk.indexOf(10, at + 1)) newlines++;
      });
      response.on('end', () => resolve(newlines));
      response.on('error', reject);
    }).on('error', reject);
  });
}

/** The export of every checkout of `bench`'s store, through a server process of its own. */
export async function measureExport(bench: BenchStore): Promise<ExportFigures> {
  const server = await startServer(bench);
  try {
    await server.ask('settle', 'settled');
    const started = performance.now();
    const newlines = await download(server.port);
    const seconds = (performance.now() - started) / 1000;
    const memory = await server.ask<Omit<ExportFigures, 'rows' | 'seconds' | 'perSecond'>>('peak', 'peak');
    const rows = newlines - 1;
    return {
      rows,
      seconds,
      perSecond: rows / seconds,
      rssGrowth: memory.rssGrowth,
      heapGrowth: memory.heapGrowth,
      externalGrowth: memory.externalGrowth,
    };
  } finally {
    await server.stop();
  }
}
