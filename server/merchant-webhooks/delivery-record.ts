/**
 * How the delivery worker (./delivery.ts) records its attempts: as they finish (each endpoint in its own lane), but
 * never one transaction each. An attempt that finishes waits `RECORD_WAIT_MS` for others to join its write (no
 * longer: `batch` of them are written at once), and everything that finished while one write ran goes into the
 * next, so a backlog is recorded in batches while an endpoint that hangs holds up only its own attempts. After each
 * write, each stored endpoint's health is noted (its last 2xx, the first failure since), which disables one failing
 * for too long; the environment's is not stored, so not noted.
 */
import type { DeliveryStore, RecordedAttempt } from '../store/deliveries';
import type { EndpointStore } from '../store/endpoints';

/**
 * How long a finished attempt waits for others before it is written. On loopback a lane's sixteen answers come within
 * a few milliseconds of each other: written one turn of the event loop apart, they took a transaction for every
 * eight. The receiver has its event already; only the record (and the lane's room) waits.
 */
export const RECORD_WAIT_MS = 5;

export interface AttemptRecorderOptions {
  store: Pick<DeliveryStore, 'recordAttempts'> & Pick<EndpointStore, 'noteEndpointAttempt'>;
  /** The worker's lease owner: an attempt is recorded only while it still holds the delivery's lease. */
  owner: string;
  /** Attempts recorded at most in one transaction. */
  batch: number;
  logger: Pick<Console, 'warn'>;
  /** How long an endpoint fails every attempt before it is disabled. */
  disableAfterMs: number;
  /** Called when an endpoint was disabled here (the worker reads its endpoints again). */
  onDisabled: () => void;
  /** Called after each write. */
  onWritten: () => void;
}

export function attemptRecorder(options: AttemptRecorderOptions) {
  const { store, owner, batch, logger, disableAfterMs, onDisabled, onWritten } = options;
  const finished: { made: RecordedAttempt; stored: boolean; done: () => void }[] = [];
  let writing = false;
  let wake: (() => void) | undefined;

  /**
   * Tells the store how each endpoint fared in a batch (one write per endpoint, not per attempt): its last success,
   * and the first failure after it, if any, which starts its failing time.
   */
  async function noteEndpoints(recorded: RecordedAttempt[]) {
    for (const endpointId of new Set(recorded.map((r) => r.endpointId))) {
      const mine = recorded.filter((r) => r.endpointId === endpointId).sort((a, b) => a.attempt.at.localeCompare(b.attempt.at));
      const lastSuccess = mine.findLastIndex((r) => !r.attempt.error);
      const failure = mine.slice(lastSuccess + 1).find((r) => r.attempt.error);
      const notes = [lastSuccess >= 0 ? mine[lastSuccess] : undefined, failure].filter((r) => r !== undefined);
      for (const note of notes) {
        const cutoff = new Date(Date.parse(note.attempt.at) - disableAfterMs).toISOString();
        if (await store.noteEndpointAttempt(endpointId, note.attempt.at, !note.attempt.error, cutoff)) {
          logger.warn(`merchant webhook endpoint ${endpointId} disabled: every attempt failed since ${cutoff} or before`);
          onDisabled();
        }
      }
    }
  }

  async function write() {
    writing = true;
    // The attempts finishing meanwhile join the first write (a full batch goes at once).
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, RECORD_WAIT_MS);
      wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });
    wake = undefined;
    while (finished.length > 0) {
      const taken = finished.splice(0, batch);
      try {
        const recorded = await store.recordAttempts(
          owner,
          taken.map((t) => t.made),
        );
        await noteEndpoints(taken.filter((t, i) => recorded[i] && t.stored).map((t) => t.made));
      } catch (error) {
        // Not recorded: each delivery is left to its lease, and sent again (same webhook-id) once it runs out.
        logger.warn('merchant webhooks: attempts not recorded:', error);
      }
      for (const t of taken) t.done();
      onWritten();
    }
    writing = false;
  }

  return {
    /** Attempts waiting to be written. */
    backlog: () => finished.length,
    /** Resolves once the attempt is recorded (or its write failed, which is logged); `stored`: a stored endpoint's. */
    record(made: RecordedAttempt, stored: boolean): Promise<void> {
      return new Promise((done) => {
        finished.push({ made, stored, done });
        if (!writing) void write();
        else if (finished.length >= batch) wake?.();
      });
    },
  };
}
