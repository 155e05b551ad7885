/**
 * The payment window's countdown: a visible clock that ticks every second, and a few spoken steps (10, 5 and 1
 * minute left) so a screen reader is told what matters without hearing every second.
 */
import type { ReactiveController, ReactiveControllerHost } from 'lit';

/** Minutes left at which the live region speaks. */
export const ANNOUNCE_AT_MINUTES = [10, 5, 1] as const;
const DAY_MS = 24 * 60 * 60 * 1000;

const pad = (n: number) => String(n).padStart(2, '0');

/** "29:41", "1:05:09"; whole seconds rounded up, so "00:01" shows until the window really closes. */
export function formatRemaining(ms: number): string {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = total % 60;
  return hours ? `${hours}:${pad(minutes)}:${pad(seconds)}` : `${pad(minutes)}:${pad(seconds)}`;
}

/** Windows a day long or more are shown as a date, not a clock. */
export const isLongWindow = (ms: number): boolean => ms >= DAY_MS;

/**
 * The minutes to announce when the clock went from `before` to `after` ms left: set when a step of
 * ANNOUNCE_AT_MINUTES was crossed. A tab that slept through several steps announces what is left now, once.
 */
export function minutesToAnnounce(before: number, after: number): number | undefined {
  const crossed = ANNOUNCE_AT_MINUTES.some((minutes) => before > minutes * 60_000 && after <= minutes * 60_000);
  return crossed && after > 0 ? Math.ceil(after / 60_000) : undefined;
}

export interface CountdownOptions {
  /** Now, by the server's clock. */
  now: () => number;
  /** A step of ANNOUNCE_AT_MINUTES was crossed: this many minutes are left. */
  onStep: (minutesLeft: number) => void;
  /** The window closed (once per deadline). */
  onEnd: () => void;
}

/** Re-renders its host every second while a deadline is set, and reports the steps and the end. */
export class Countdown implements ReactiveController {
  private deadline: number | undefined;
  private last = Infinity;
  private ended = false;
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly host: ReactiveControllerHost,
    private readonly options: CountdownOptions,
  ) {
    host.addController(this);
  }

  /** Ms left, or undefined without a deadline. */
  remaining(): number | undefined {
    return this.deadline === undefined ? undefined : this.deadline - this.options.now();
  }

  /** Follows a new deadline (ms since the epoch), or stops with undefined. Setting the same one changes nothing. */
  set(deadline: number | undefined): void {
    if (deadline === this.deadline) return;
    this.deadline = deadline;
    this.last = this.remaining() ?? Infinity;
    this.ended = false;
    this.schedule();
  }

  hostConnected(): void {
    this.schedule();
  }

  hostDisconnected(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  private schedule(): void {
    clearTimeout(this.timer);
    const left = this.remaining();
    if (left === undefined || this.ended) return;
    // Wake just after the displayed second changes, so the clock never lags a whole second behind.
    this.timer = setTimeout(() => this.tick(), left <= 0 ? 0 : (left % 1000) + 15);
  }

  private tick(): void {
    const left = this.remaining();
    if (left === undefined) return;
    const minutes = minutesToAnnounce(this.last, left);
    this.last = left;
    this.host.requestUpdate();
    if (left <= 0) {
      this.ended = true;
      this.options.onEnd();
      return;
    }
    if (minutes !== undefined) this.options.onStep(minutes);
    this.schedule();
  }
}
