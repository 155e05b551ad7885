/**
 * The baselines every row is measured against in the same run, each in a forked process of its own (servers in
 * ./floor-servers.ts, run by ./floor-process.ts), on 127.0.0.1:
 * - `startHttpFloor`: a bare `node:http` SSE server (the floor): streams grouped by channel, one write per stream
 *   when a channel is triggered, and a page whose EventSource waits for the same Completed message;
 * - `startHopsFloor`: the floor with the contract's hops, in bare `node:http`: a trigger goes to a stand-in provider,
 *   which posts a webhook to the floor, which re-reads the transaction from the provider before it writes to the
 *   streams; and a create route that makes one provider call. What the provider contract alone costs on this
 *   machine, with nothing of ours (no store, no validation, no signatures): the lowest any BFF could go;
 * - `startHonoFloor`: a minimal Hono server (`@hono/node-server`): `streamSSE` streams, and a JSON create route.
 *
 * The trigger is a loopback POST from the bench's process, as the project's trigger (the sandbox's complete) is.
 */
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { FloorKind } from './floor-process';

async function startFloor(kind: FloorKind) {
  const child = fork(fileURLToPath(new URL('./floor-process.ts', import.meta.url)), [kind], {
    execArgv: ['--expose-gc', '--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  let opened = 0;
  let onMemory: ((bytes: number) => void) | undefined;
  const up = new Promise<{ port: number; triggerUrl?: string }>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`bench: the ${kind} floor exited (${code}) before it was up`)));
    child.on('message', (message: { type: string; opened?: number; bytes?: number; port?: number; triggerUrl?: string }) => {
      if (message.type === 'up') resolve(message as { port: number; triggerUrl?: string });
      else if (message.type === 'opened') opened = message.opened!;
      else if (message.type === 'memory') onMemory?.(message.bytes!);
    });
  });
  const { port, triggerUrl } = await up;
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    /** Streams opened since the start, as last told by the floor's process (never goes down). */
    opened: () => opened,
    /** What the bench calls "the trigger": one loopback POST to the floor (or its stand-in provider). */
    trigger: async (channels: string[]) => {
      if (!triggerUrl) throw new Error(`bench: the ${kind} floor has no trigger`);
      await fetch(`${triggerUrl}?c=${channels.join(',')}`, { method: 'POST' }).then((r) => r.text());
    },
    /** The floor process's heap and external memory after full collections (`settledMemory`). */
    memory: () =>
      new Promise<number>((resolve) => {
        onMemory = resolve;
        child.send({ type: 'memory' });
      }),
    close: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.send({ type: 'close' });
      await exited;
    },
  };
}

export type Floor = Awaited<ReturnType<typeof startFloor>>;

export const startHttpFloor = () => startFloor('http');
export const startHopsFloor = () => startFloor('hops');
export const startHonoFloor = () => startFloor('hono');
