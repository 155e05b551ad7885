/**
 * BFF B of `npm run soak`: a child process (test/server/helpers/bff-process.ts) that the proxies and the merchant's
 * receiver kill with SIGKILL at the worst moments, started again shortly after on the same DATA_DIR, DATABASE_URL
 * and port.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import type { WriteStream } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { between } from './odds';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

export interface InstanceBOptions {
  port: number;
  /** Where B's stderr goes, prefixed `[b]`. */
  logFile: WriteStream;
  logPath: string;
  say: (line: string) => void;
}

export function instanceB({ port, logFile, logPath, say }: InstanceBOptions) {
  let child: ChildProcess | undefined;
  let env: NodeJS.ProcessEnv = {};
  let up = false;
  let lastKill = 0;
  let kills = 0;
  let readies = 0;

  /** Starts B with `env` (kept for its restarts); resolves once it says it is ready. */
  function start(startEnv = env): Promise<void> {
    env = startEnv;
    const proc = spawn(process.execPath, ['--import', 'tsx', here('../../test/server/helpers/bff-process.ts')], {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child = proc;
    proc.stderr.on('data', (chunk: Buffer) => logFile.write(`[b] ${chunk.toString()}`));
    return new Promise<void>((resolve, reject) => {
      let out = '';
      proc.stdout.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        if (out.includes('ready ')) {
          up = true;
          readies++;
          resolve();
        }
      });
      proc.once('exit', (code, signal) => {
        if (!up) reject(new Error(`B exited before it was ready (${signal ?? code}); see ${logPath}`));
      });
    });
  }

  /** Kills B now and starts it again shortly; false when it is down or was killed under 4 s ago. */
  function kill(): boolean {
    if (!up || !child || Date.now() - lastKill < 4_000) return false;
    lastKill = Date.now();
    up = false;
    kills++;
    child.kill('SIGKILL');
    setTimeout(() => void start().catch((error: unknown) => say(`B did not restart: ${String(error)}`)), between(300, 1_500));
    return true;
  }

  return {
    url: `http://127.0.0.1:${port}`,
    start,
    kill,
    /** Ends B for good (the soak's clean-up). */
    stop() {
      if (child && child.exitCode === null) child.kill('SIGTERM');
    },
    get up() {
      return up;
    },
    get kills() {
      return kills;
    },
    /** Starts after the first. */
    get restarts() {
      return Math.max(0, readies - 1);
    },
  };
}
