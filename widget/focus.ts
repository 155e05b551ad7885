/**
 * Moves focus to each new screen's heading and brings it into view, so keyboard and screen-reader users land on
 * what changed and a phone shows the new screen from its top. It leaves the page's focus alone when the page has
 * just loaded or the shopper is busy elsewhere on it (typing in the shop's own form, say).
 */
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { HEADING_ID } from './views/common.js';

/** Screens that are steps on the way, not places to land. */
const TRANSIENT = new Set(['idle', 'loading']);
/** Phones: the new screen starts at the top of the viewport, so what follows its heading is above the fold. */
const NARROW = 600;

export class ScreenFocus implements ReactiveController {
  private key: string | undefined;
  private focusInside = false;
  private landed = false;
  /** A selector to focus instead of the heading on the next new screen (the CPF field after "use another CPF"). */
  next: string | undefined;

  constructor(
    private readonly host: ReactiveControllerHost & HTMLElement,
    private readonly currentKey: () => string,
  ) {
    host.addController(this);
  }

  /** Moved or re-added by the page: its first screen after that is a page load again. */
  hostDisconnected(): void {
    this.key = undefined;
    this.landed = false;
  }

  hostUpdate(): void {
    this.focusInside = Boolean(this.host.shadowRoot?.activeElement);
  }

  hostUpdated(): void {
    const key = this.currentKey();
    if (key === this.key || TRANSIENT.has(key)) return;
    this.key = key;
    const first = !this.landed;
    this.landed = true;
    const active = document.activeElement;
    const free = active === null || active === document.body || active === this.host;
    if (first || (!this.focusInside && !free)) return;
    const root = this.host.shadowRoot!;
    const target = (this.next && root.querySelector<HTMLElement>(this.next)) || root.getElementById(HEADING_ID);
    this.next = undefined;
    if (!target) return;
    target.focus({ preventScroll: true });
    reveal(target);
  }
}

function reveal(target: HTMLElement): void {
  const { top, bottom } = target.getBoundingClientRect();
  const offScreen = top < 0 || bottom > window.innerHeight;
  const lowOnPhone = window.innerWidth <= NARROW && top > window.innerHeight * 0.25;
  if (offScreen || lowOnPhone) target.scrollIntoView({ block: 'start' });
}
