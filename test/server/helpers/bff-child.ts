/**
 * The standalone BFF as a child process (./bff-process.ts), for tests that crash it: started with an environment and
 * timing knobs, ready once it listens; `kill` sends SIGKILL (nothing of it runs after) and waits for the exit. Its
 * stderr is kept, to be shown when the test fails.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { Tuning } from '../../../server/server';
import { keyed } from './secrets-key';

const ENTRY = fileURLToPath(new URL('./bff-process.ts', import.meta.url));

export interface BffChild {
  url: string;
  /** What it wrote to stderr so far (its log). */
  log(): string;
  /** `kill -9`, then its exit. */
  kill(): Promise<void>;
  /** SIGTERM (a clean stop), then its exit. */
  stop(): Promise<void>;
}

export function startBffChild(env: Record<string, string>, tuning: Tuning = {}, { readyMs = 30_000 } = {}): Promise<BffChild> {
  const proc: ChildProcess = spawn(process.execPath, ['--import', 'tsx', ENTRY], {
    env: { ...process.env, ...keyed(env), BFF_TUNING: JSON.stringify(tuning) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  proc.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
  const end = async (signal: NodeJS.Signals) => {
    if (proc.exitCode === null && proc.signalCode === null) proc.kill(signal);
    await exited;
  };
  return new Promise<BffChild>((resolve, reject) => {
    let stdout = '';
    const timer = setTimeout(() => {
      void end('SIGKILL');
      reject(new Error(`the BFF was not ready within ${readyMs} ms:\n${stderr}`));
    }, readyMs);
    proc.stdout!.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const ready = /ready (\S+)/.exec(stdout);
      if (!ready) return;
      clearTimeout(timer);
      resolve({ url: ready[1]!, log: () => stderr, kill: () => end('SIGKILL'), stop: () => end('SIGTERM') });
    });
    proc.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`the BFF exited before it was ready (${signal ?? code}):\n${stderr}`));
    });
  });
}
