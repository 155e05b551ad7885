/**
 * The back-office's live updates, `GET /api/admin/events`: server-sent events telling the open lists that a checkout
 * or a cash-out changed, so they reload what they show without a reload of the page. The status hub carries every
 * change (from any instance with PostgreSQL); while a stream is open, cash-outs still moving are re-read at the
 * provider every few seconds, since their webhooks concern no checkout. The event says only what changed, never
 * data: the page reads it through the authenticated API. A stream is its holder's: each user holds a share of the
 * streams (so one viewer cannot take them all from the owner), and a stream ends with what opened it: at once when
 * its session signs out or its user is disabled here (`end`), and at its next heartbeat when its holder is no longer
 * allowed (a session ended on another instance, idle or past its 12 hours; a user disabled by `npm run admin`).
 */
import { tooManyBackOfficeStreams } from '../payments/errors';
import type { LiveChange } from '../../core/backoffice';
import type { CashOutDesk } from '../payments/cashouts';
import type { StatusHub } from '../store/types';

export interface BackOfficeStreamOptions {
  hub: StatusHub;
  desk: CashOutDesk;
  heartbeatMs?: number;
  /** How often cash-outs still moving are re-read while a stream is open. */
  followMs?: number;
  /** Changes within this window go out as one event per topic. */
  coalesceMs?: number;
  /** Open back-office streams allowed at once (a few tabs of a few merchants' staff). */
  maxStreams?: number;
  /** Open streams one user (or the bearer token) may hold at once, within `maxStreams`: a few tabs. */
  maxPerUser?: number;
  logger?: Pick<Console, 'warn'>;
}

/** Who holds a stream. */
export interface StreamHolder {
  /** The user's id, or `api-token` for the bearer token: each holds at most `maxPerUser` streams. */
  userId: string;
  /** The hash of the session token that opened it (sessions.ts); none for the bearer token. */
  session?: string;
  /** Whether the holder may still read, asked at each heartbeat: the stream ends on false. */
  allowed?: () => Promise<boolean>;
}

export interface BackOfficeStreams {
  /** A new stream for `holder`, or 429 `too_many_streams` when it holds its share or all are open. */
  stream(holder: StreamHolder): ReadableStream<Uint8Array>;
  /** Ends at once the open streams of a session (its sign-out) or of a user (disabled). */
  end(which: { session: string } | { userId: string }): void;
  close(): void;
}

const encoder = new TextEncoder();

export function createBackOfficeStreams({
  hub,
  desk,
  heartbeatMs = 15_000,
  followMs = 2_000,
  coalesceMs = 200,
  maxStreams = 32,
  maxPerUser = 4,
  logger = console,
}: BackOfficeStreamOptions): BackOfficeStreams {
  /** Each open stream's holder, and how to end it. */
  const open = new Map<() => void, StreamHolder>();
  const heldBy = (userId: string) => [...open.values()].filter((holder) => holder.userId === userId).length;
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
    stream(holder) {
      if (open.size >= maxStreams || heldBy(holder.userId) >= maxPerUser) throw tooManyBackOfficeStreams();
      let released = false;
      let unsubscribe: (() => void) | undefined;
      let heartbeat: ReturnType<typeof setInterval> | undefined;
      let flush: ReturnType<typeof setTimeout> | undefined;
      const pending = new Map<string, LiveChange>();
      let ending: () => void = () => undefined;
      const release = () => {
        if (released) return;
        released = true;
        open.delete(ending);
        if (open.size === 0) stopFollowing();
        unsubscribe?.();
        clearInterval(heartbeat);
        clearTimeout(flush);
      };
      return new ReadableStream<Uint8Array>({
        start(controller) {
          ending = () => {
            release();
            controller.close();
          };
          open.set(ending, holder);
          startFollowing();
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
          heartbeat = setInterval(() => {
            write(': heartbeat\n\n');
            holder.allowed?.().then(
              (allowed) => {
                if (!allowed && !released) ending();
              },
              (error: unknown) => logger.warn('back-office stream holder check:', (error as Error).message),
            );
          }, heartbeatMs);
        },
        cancel: release,
      });
    },
    end(which) {
      for (const [ending, holder] of open) {
        if ('session' in which ? holder.session === which.session : holder.userId === which.userId) ending();
      }
    },
    close() {
      stopFollowing();
    },
  };
}
