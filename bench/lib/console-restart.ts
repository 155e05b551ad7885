/**
 * A restart over a merchant's history (issue 27, goal 3): the time from starting a server process (./restart-child.ts)
 * to its first answered status request (`GET /api/checkouts/:id`, 200), first with nothing pending (the baseline),
 * then with schema step 14 (the payments list's indexes) put back to pending, as a store upgraded from before it
 * is. Both count the process's own start (Node and its TypeScript loader), the same in both. Afterwards, how long
 * the pending step's online build took to be recorded.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { LIST_INDEXES } from '../../server/store/migrations-indexes';
import type { BenchStore } from './console-stores';
import { sleep } from './stats';

const STEP = 14;

export interface RestartFigures {
  /** Milliseconds from the process's start to its first answer, with nothing pending and with step 14 pending. */
  nothingPending: number;
  stepPending: number;
  /** Seconds from that start until step 14 was recorded (its indexes built), or NaN if not within the wait. */
  builtAfter: number;
}

/** Starts a server process on `bench`'s store; resolves once it first answers the status of `checkoutId`. */
async function restart(bench: BenchStore, checkoutId: string) {
  const started = performance.now();
  const env = {
    ...process.env,
    ...('file' in bench.location ? { RESTART_FILE: bench.location.file } : { RESTART_URL: bench.location.url }),
  };
  const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(new URL('./restart-child.ts', import.meta.url))], {
    env,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const port = await new Promise<number>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /port (\d+)/.exec(out);
      if (match) resolve(Number(match[1]));
    });
    child.once('exit', (code) => reject(new Error(`bench: the restarted server exited (${code})`)));
  });
  for (;;) {
    const response = await fetch(`http://127.0.0.1:${port}/api/checkouts/${checkoutId}`).catch(() => undefined);
    await response?.arrayBuffer();
    if (response?.status === 200) break;
    await sleep(5);
  }
  const answeredMs = performance.now() - started;
  return {
    answeredMs,
    started,
    stop: () =>
      new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

/** The restart rows' figures on `bench`'s store; leaves step 14 built and recorded again when it can. */
export async function measureRestart(bench: BenchStore, waitForBuildMs = 120_000): Promise<RestartFigures> {
  const [paid] = await bench.store.listCheckouts({ states: ['Completed'] }, 1);
  if (!paid) throw new Error('bench: the history has no paid checkout to ask for');
  const calm = await restart(bench, paid.id);
  await calm.stop();
  await bench.exec(
    `${[LIST_INDEXES.state, LIST_INDEXES.method, LIST_INDEXES.flagged].map((name) => `DROP INDEX IF EXISTS ${name};`).join(' ')}
     DELETE FROM schema_migrations WHERE version = ${STEP};`,
  );
  const pending = await restart(bench, paid.id);
  let builtAfter = Number.NaN;
  while (performance.now() - pending.started < waitForBuildMs) {
    if ((await bench.schemaVersions()).includes(STEP)) {
      builtAfter = (performance.now() - pending.started) / 1000;
      break;
    }
    await sleep(100);
  }
  await pending.stop();
  return { nothingPending: calm.answeredMs, stepPending: pending.answeredMs, builtAfter };
}
