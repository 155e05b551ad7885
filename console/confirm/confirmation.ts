import type { ReactiveController, ReactiveControllerHost } from 'lit';

/** The element a confirmation lives in: the step and the controls focus moves between are in its render root. */
export type ConfirmHost = ReactiveControllerHost & { readonly renderRoot: HTMLElement | DocumentFragment };

/**
 * Where focus goes when the step closes: a selector in the host, an element found then (the control the step was
 * asked from, if it is still there), or `null` when the action put focus somewhere itself (a dialog it opened).
 */
export type FocusTarget = string | (() => HTMLElement | null | undefined) | null;

export interface ConfirmationOptions<T> {
  /** The step's id in the host: its title is `<id>-title`, focused when the step opens. */
  id: string;
  /** Where focus goes back when the step closes without an action, or after one that names no other place. */
  back: (subject: T) => FocusTarget;
}

/**
 * The console's confirm-then-act step, as a Lit reactive controller: `ask(subject)` opens it on what is about to be
 * done (its title takes focus, so a keyboard reaches the confirmation next); `cancel()` closes it and gives focus
 * back; `run(act)` does it once at a time (`busy` meanwhile, so a double click acts once), closes it when `act`
 * went through and moves focus where `act` says; a failure keeps it open with the message as `error`, to try again.
 * The host renders it with `confirmStep` (./confirm-step.ts).
 */
export class Confirmation<T> implements ReactiveController {
  /** What is about to be done; undefined while the step is closed. */
  subject?: T;
  /** An action is under way. */
  busy = false;
  /** Why the last action failed ('' when none did). */
  error = '';

  constructor(
    private readonly host: ConfirmHost,
    private readonly options: ConfirmationOptions<T>,
  ) {
    host.addController(this);
  }

  /** A step left open is not found open again when the element comes back to the page. */
  hostDisconnected(): void {
    this.subject = undefined;
    this.error = '';
  }

  get id(): string {
    return this.options.id;
  }

  /** Opens the step on `subject` (or moves it there): its title takes focus. */
  async ask(subject: T): Promise<void> {
    this.subject = subject;
    this.error = '';
    this.host.requestUpdate();
    await this.focus(`#${this.id}-title`);
  }

  /** Closes the step without acting; focus goes back to where it was asked from. */
  async cancel(): Promise<void> {
    const subject = this.subject;
    this.close();
    if (subject !== undefined) await this.focus(this.options.back(subject));
  }

  /** Closes the step where focus is (its subject went away, or the page moved on). */
  close(): void {
    this.subject = undefined;
    this.error = '';
    this.host.requestUpdate();
  }

  /**
   * Does `act` on the subject, unless the step is closed or an action is under way. When it went through, the step
   * closes and focus goes where `act` answered (its `back` place when it answered nothing). When it threw, the step
   * stays open with its message; `failed` may then look at the error, and close the step by answering a focus target.
   */
  async run(
    act: (subject: T) => Promise<FocusTarget | void>,
    failed?: (error: unknown, subject: T) => Promise<FocusTarget | void> | FocusTarget | void,
  ): Promise<void> {
    const subject = this.subject;
    if (subject === undefined || this.busy) return;
    this.busy = true;
    this.error = '';
    this.host.requestUpdate();
    let next: FocusTarget | void;
    try {
      next = await act(subject);
    } catch (error) {
      this.error = (error as Error).message;
      next = await failed?.(error, subject);
      if (next === undefined) return;
    } finally {
      this.busy = false;
      this.host.requestUpdate();
    }
    this.close();
    await this.focus(next === undefined ? this.options.back(subject) : next);
  }

  private async focus(target: FocusTarget): Promise<void> {
    await this.host.updateComplete;
    const element = typeof target === 'string' ? this.host.renderRoot.querySelector<HTMLElement>(target) : target?.();
    element?.focus();
  }
}
