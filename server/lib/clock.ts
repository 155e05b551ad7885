/** Time source passed to everything that stamps dates, so tests can set and move time. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** A clock that only moves when told to. */
export class ManualClock implements Clock {
  #ms: number;
  constructor(start: Date | string = '2026-01-15T12:00:00.000Z') {
    this.#ms = new Date(start).getTime();
  }
  now(): Date {
    return new Date(this.#ms);
  }
  set(date: Date | string): void {
    this.#ms = new Date(date).getTime();
  }
  advance(ms: number): void {
    this.#ms += ms;
  }
}
