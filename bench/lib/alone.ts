/** Starts the BFF alone on the stand-in provider in a process of its own (./alone-process.ts), as ./floors.ts does a floor. */
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { AloneQuestion } from './alone-process';

type Question = AloneQuestion extends infer Q ? (Q extends { id: number } ? Omit<Q, 'id'> : never) : never;

export async function startAlone() {
  const child = fork(fileURLToPath(new URL('./alone-process.ts', import.meta.url)), [], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  let asked = 0;
  const waiting = new Map<number, (value: unknown) => void>();
  // A question the process can no longer answer fails rather than hangs the bench.
  child.once('exit', (code) => {
    for (const answer of waiting.values()) answer(Promise.reject(new Error(`bench: the BFF alone exited (${code})`)));
    waiting.clear();
  });
  const up = new Promise<{ pagesUrl: string; triggerUrl: string }>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`bench: the BFF alone exited (${code}) before it was up`)));
    child.on('message', (message: { type: string; id?: number; value?: unknown; pagesUrl?: string; triggerUrl?: string }) => {
      if (message.type === 'up') resolve(message as { pagesUrl: string; triggerUrl: string });
      else if (message.type === 'answer') {
        waiting.get(message.id!)?.(message.value);
        waiting.delete(message.id!);
      }
    });
  });
  const ask = <T>(question: Question) =>
    new Promise<T>((resolve) => {
      const id = ++asked;
      waiting.set(id, resolve as (value: unknown) => void);
      child.send({ ...question, id });
    });
  const { pagesUrl, triggerUrl } = await up;
  return {
    /** The element's page on the BFF alone (`?order=<id>`). */
    pagesUrl,
    /** Streams open on the BFF's hub. */
    subscribers: () => ask<number>({ type: 'subscribers' }),
    /** The provider transaction of a checkout. */
    transactionOf: (checkoutId: string) => ask<string | null>({ type: 'transaction', checkoutId }),
    /** The stand-in provider's trigger: one loopback POST, as the hops floor's. */
    trigger: (transactionId: string) => fetch(`${triggerUrl}?c=${transactionId}`, { method: 'POST' }).then((r) => r.text()),
    close: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.send({ type: 'close' });
      await exited;
    },
  };
}
