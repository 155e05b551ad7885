/** The parent's side of bench/lib/clients.ts: one forked client process, request and answer by message type. */
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { Receipt } from './clients';

export const now = () => performance.timeOrigin + performance.now();

export interface Delivery {
  delivered: number;
  first: number;
  last: number;
}

export interface LoadResult {
  ok: number;
  failed: number;
  seconds: number;
  perSecond: number;
  statuses: Record<string, number>;
  exhausted: boolean;
}

export async function startClients() {
  const child: ChildProcess = fork(fileURLToPath(new URL('./clients.ts', import.meta.url)), [], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const waitFor = <T>(type: string) =>
    new Promise<T>((resolve, reject) => {
      const onMessage = (message: { type: string; message?: string }) => {
        if (message.type === 'error') {
          child.off('message', onMessage);
          reject(new Error(`bench clients: ${message.message ?? '?'}`));
        } else if (message.type === type) {
          child.off('message', onMessage);
          resolve(message as unknown as T);
        }
      };
      child.on('message', onMessage);
    });
  await waitFor('up');
  const ask = <T>(message: object, answer: string) => {
    const answered = waitFor<T>(answer);
    child.send(message);
    return answered;
  };
  return {
    /** Opens one SSE connection per path; each counts as open once `ready` has arrived on it. */
    open: (port: number, paths: string[], ready: string) =>
      ask<{ count: number; ms: number }>({ type: 'open', port, paths, ready }, 'opened'),
    /** Starts watching every open connection for `marker`; `delivered` resolves when all have it (or on timeout). */
    async arm(marker: string, timeoutMs = 30_000) {
      const delivered = waitFor<Delivery>('delivered');
      await ask({ type: 'arm', marker, timeoutMs }, 'armed');
      return { delivered };
    },
    close: () => ask({ type: 'close' }, 'closed'),
    load: (port: number, path: string, bodies: string[], concurrency: number, seconds: number, headers: Record<string, string> = {}) =>
      ask<LoadResult>({ type: 'load', port, path, bodies, concurrency, seconds, headers }, 'loaded'),
    /** Starts the merchant's receiver (once): a bare node:http server answering 204 to every POST. */
    receive: () => ask<{ port: number }>({ type: 'receive' }, 'receiving'),
    /** The arrival of the first receipt whose body includes `includes` (NaN after `timeoutMs`). */
    expect: (includes: string, timeoutMs = 30_000) => ask<{ at: number }>({ type: 'expect', includes, timeoutMs }, 'expected'),
    /** Resolves once `count` distinct webhook-ids have arrived (or after `timeoutMs`, with fewer). */
    count: (count: number, timeoutMs = 120_000) =>
      ask<{ distinct: number; copies: number; first: number; last: number }>({ type: 'count', count, timeoutMs }, 'counted'),
    /** What the receiver got since the last call, and clears it. */
    receipts: () => ask<{ receipts: Receipt[] }>({ type: 'receipts' }, 'taken').then((r) => r.receipts),
    async stop() {
      child.send({ type: 'exit' });
      await new Promise((resolve) => child.once('exit', resolve));
    },
  };
}

export type Clients = Awaited<ReturnType<typeof startClients>>;
