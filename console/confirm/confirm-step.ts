/** The look of a confirmation: the facts of what is about to be done, its error, and the two buttons. */
import { html, nothing, type TemplateResult } from 'lit';
import type { Confirmation } from './confirmation';

export interface ConfirmStepOptions {
  title: string;
  /** `4` inside a section whose own title is an h3 (a payment's refund); `3` otherwise. */
  level?: 3 | 4;
  /** What is confirmed: its facts, what follows from it, a field it still needs. */
  body: TemplateResult;
  /** The button that acts, and its text while the action runs (the same text when not given). */
  confirm: string;
  busy?: string;
  /** The button that closes the step without acting. */
  back?: string;
  /** A step whose action cannot be undone the way it was done (a refund, a disabled user): red. */
  danger?: boolean;
  /** The frame's colour, when it differs from the button's (a refund's frame is red, its button too). */
  frame?: 'danger';
  /** Disables both buttons while something else of the host runs. */
  blocked?: boolean;
  /** The error's `data-testid`. */
  errorTestId?: string;
}

/** The step of `confirmation`, with `onConfirm` on its action button; render it only while it is open. */
export function confirmStep<T>(confirmation: Confirmation<T>, o: ConfirmStepOptions, onConfirm: () => void) {
  const id = `${confirmation.id}-title`;
  const disabled = confirmation.busy || !!o.blocked;
  const title = o.level === 4 ? html`<h4 id=${id} tabindex="-1">${o.title}</h4>` : html`<h3 id=${id} tabindex="-1">${o.title}</h3>`;
  return html`<section class="confirm" data-tone=${o.frame ?? nothing} aria-labelledby=${id}>
    ${title} ${o.body}
    ${confirmation.error ? html`<p class="error" role="alert" data-testid=${o.errorTestId ?? nothing}>${confirmation.error}</p>` : nothing}
    <div class="actions">
      <button class=${o.danger ? 'danger' : nothing} type="button" ?disabled=${disabled} @click=${onConfirm}>
        ${confirmation.busy && o.busy ? o.busy : o.confirm}
      </button>
      <button class="secondary" type="button" ?disabled=${disabled} @click=${() => confirmation.cancel()}>${o.back ?? 'Voltar'}</button>
    </div>
  </section>`;
}
