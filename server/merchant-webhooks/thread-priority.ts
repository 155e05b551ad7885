/**
 * The delivery thread (./thread-entry.ts) gives way to the request thread for the CPU. On two shared cores the
 * request thread (the shoppers' status), the delivery thread draining a backlog and whatever else runs on the machine
 * compete, and with equal priority the scheduler gives the drain as much time as the shoppers. On Linux a thread's
 * nice value is its own (setpriority on its thread id, not the process's), so the delivery thread raises its own:
 * under contention the scheduler favours the request thread, and when the request thread is idle the drain still
 * has the whole core. Raising one's own nice value needs no privilege (lowering it back would, so it is never undone);
 * threads the delivery thread starts afterwards (its store's) inherit it.
 *
 * Elsewhere (no per-thread nice, or no /proc) this does nothing and the thread runs at the process's priority.
 */
import { readlinkSync, writeFileSync } from 'node:fs';
import { getPriority, setPriority } from 'node:os';

/** The delivery thread's nice value: the scheduler gives a thread at 10 about a tenth of the share of one at 0. */
export const BACKGROUND_NICE = 10;

/** The delivery thread's name in `top -H`, `ps -L` and /proc (15 bytes at most). */
export const DELIVERY_THREAD_NAME = 'pix-deliveries';

/** The calling thread's id on Linux ("<pid>/task/<tid>"), or undefined where there is no /proc/thread-self. */
function threadId(): number | undefined {
  if (process.platform !== 'linux') return undefined;
  try {
    const tid = Number(readlinkSync('/proc/thread-self').split('/').at(-1));
    return Number.isSafeInteger(tid) && tid > 0 ? tid : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Lowers the calling thread's CPU priority to `nice` (never raises it: a nice value already higher is kept). Answers
 * the thread's nice value afterwards, or undefined where threads have no priority of their own.
 */
export function lowerThreadPriority(nice = BACKGROUND_NICE): number | undefined {
  const tid = threadId();
  if (tid === undefined) return undefined;
  if (getPriority(tid) < nice) setPriority(tid, nice);
  return getPriority(tid);
}

/** Names the calling thread, so an operator sees which thread is the drain; best effort (Linux only). */
export function nameThread(name: string) {
  const tid = threadId();
  if (tid === undefined) return;
  try {
    writeFileSync(`/proc/self/task/${tid}/comm`, name.slice(0, 15));
  } catch {
    // Only a label: a kernel that refuses it changes nothing else.
  }
}
