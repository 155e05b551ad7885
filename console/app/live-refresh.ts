import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { AdminApi } from '../api';

/** Changes arriving within this window reload each list once. */
const LIVE_DEBOUNCE_MS = 250;

/** What a change touches: the lists and panels to reload. */
export interface LiveTargets {
  /** A checkout changed: the payments list. */
  checkout(): void;
  /** A cash-out changed (a refund is one): transfers, the payments' refund column, balance and approvals. */
  cashout(): void;
  /** Either: the open payment's detail. */
  any(): void;
}

/**
 * The console's live stream (`GET /api/admin/events`) as a Lit controller: it runs while its host is signed in,
 * reports its state to the host (`state`), and turns each burst of changes into one reload of what they touch.
 * Kept out of `<bo-app>` so the app holds the layout and the session, and this the timing.
 */
export class LiveRefresh implements ReactiveController {
  state: 'connecting' | 'on' | 'off' = 'connecting';
  private stream?: AbortController;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private readonly changed = new Set<'checkout' | 'cashout'>();

  constructor(
    private readonly host: ReactiveControllerHost,
    private readonly targets: LiveTargets,
  ) {
    host.addController(this);
  }

  /** Opens the stream (closing any before it). */
  start(api: AdminApi) {
    this.stop();
    const stream = new AbortController();
    this.stream = stream;
    this.setState('connecting');
    void api.live(
      (change) => this.note(change.topic),
      (connected) => this.setState(connected ? 'on' : 'off'),
      stream.signal,
    );
  }

  stop() {
    this.stream?.abort();
    this.stream = undefined;
    clearTimeout(this.timer);
    this.timer = undefined;
    this.changed.clear();
  }

  hostDisconnected() {
    this.stop();
  }

  private setState(state: LiveRefresh['state']) {
    this.state = state;
    this.host.requestUpdate();
  }

  /** Reloads what a change touches, once per burst of changes. */
  private note(topic: 'checkout' | 'cashout') {
    this.changed.add(topic);
    this.timer ??= setTimeout(() => {
      this.timer = undefined;
      const topics = new Set(this.changed);
      this.changed.clear();
      if (topics.has('checkout')) this.targets.checkout();
      if (topics.has('cashout')) this.targets.cashout();
      this.targets.any();
    }, LIVE_DEBOUNCE_MS);
  }
}
