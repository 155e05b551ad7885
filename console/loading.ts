import type { ReactiveControllerHost } from 'lit';

/**
 * A list's loading state, for the host to render: `busy` while a load runs, and the last load's error message ('' once
 * one went through). `run(load)` wraps a load that stores what it read on the host, and asks the host to render.
 */
export class Loading {
  busy = false;
  error = '';

  constructor(private readonly host: ReactiveControllerHost) {}

  async run(load: () => Promise<void>): Promise<void> {
    this.busy = true;
    this.host.requestUpdate();
    try {
      await load();
      this.error = '';
    } catch (error) {
      this.error = (error as Error).message;
    } finally {
      this.busy = false;
      this.host.requestUpdate();
    }
  }
}
