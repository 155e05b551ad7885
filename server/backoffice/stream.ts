/**
 * The back-office's live updates, `GET /api/admin/events`: server-sent events telling the open lists that a checkout
 * or a cash-out changed, so they reload what they show without a reload of the page. The status hub carries every
 * change (from any instance with PostgreSQL); while a stream is open, cash-outs still moving are re-read at the
 * provider every few seconds, since their webhooks concern no checkout. The event says only what changed, never
 * data: the page reads it through the authenticated API.
 */
import { tooManyAdminStreams } from '../payments/errors';
import type { CashOutDesk } from '../payments/cashouts';
import type { StatusHub } from '../store/types';

export interface AdminStreamOptions {
  hub: StatusHub;
  desk: CashOutDesk;
  heartbeatMs?: number;
  /** How often cash-outs still moving are re-read while a stream is open. */
  followMs?: number;
  /** Changes within this window go out as one event per topic. */
  coalesceMs?: number;
  /** Open back-office streams allowed at once (a few tabs of a few merchants' staff). */
  maxStreams?: number;
  logger?: Pick<Console, 'warn'>;
}

const encoder = new TextEncoder();

export function createAdminStreams({
  hub,
  desk,
  heartbeatMs = 15_000,
  followMs = 2_000,
  coalesceMs = 200,
  maxStreams = 32,
  logger = console,
}: AdminStreamOptions) {
  let open = 0;
  let follower: ReturnType<typeof setInterval> | undefined;
  let following = false;

  const startFollowing = () => {
    if (follower) return;
    follower = setInterval(() => {
      if (following) return;
      following = true;
      desk
        .refreshUnsettled()
        .catch((error: unknown) => logger.warn('cash-out follower:', (error as Error).message))
        .finally(() => (following = false));
    }, followMs);
    follower.unref?.();
  };
  const stopFollowing = () => {
    clearInterval(follower);
    follower = undefined;
  };

  return {
    openCount: () => open,
    /** A new stream, or 429 when too many are open. */
    stream(): ReadableStream<Uint8Array> {
      if (open >= maxStreams) throw tooManyAdminStreams();
      open++;
      startFollowing();
      let released = false;
      let unsubscribe: (() => void) | undefined;
      let heartbeat: ReturnType<typeof setInterval> | undefined;
      let flush: ReturnType<typeof setTimeout> | undefined;
      const pending = new Map<string, { topic: 'checkout' | 'cashout'; id: string }>();
      const release = () => {
        if (released) return;
        released = true;
        open--;
        if (open === 0) stopFollowing();
        unsubscribe?.();
        clearInterval(heartbeat);
        clearTimeout(flush);
      };
      return new ReadableStream<Uint8Array>({
        start(controller) {
          const write = (text: string) => {
            if (released) return;
            try {
              controller.enqueue(encoder.encode(text));
            } catch {
              release();
            }
          };
          write('retry: 3000\n: connected\n\n');
          unsubscribe = hub.subscribeAll((id) => {
            const change = id.startsWith('cashout:')
              ? { topic: 'cashout' as const, id: id.slice('cashout:'.length) }
              : { topic: 'checkout' as const, id };
            pending.set(id, change);
            flush ??= setTimeout(() => {
              flush = undefined;
              for (const event of pending.values()) write(`event: ${event.topic}\ndata: ${JSON.stringify({ id: event.id })}\n\n`);
              pending.clear();
            }, coalesceMs);
          });
          heartbeat = setInterval(() => write(': heartbeat\n\n'), heartbeatMs);
        },
        cancel: release,
      });
    },
    close() {
      stopFollowing();
    },
  };
}
