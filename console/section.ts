/**
 * What every console section's card opens with, written once: the heading (the focus target when the section opens,
 * so `tabindex="-1"`), the refresh button (off while a load runs), and the last load's error as an alert; and the
 * card an owner-only section shows anyone else.
 */
import { html, nothing, type TemplateResult } from 'lit';
import type { Loading } from './loading';

/** The card's head: `<h2 id=${id}>` and the refresh button. */
export function sectionHead(id: string, title: string, loading: Loading, refresh: () => void): TemplateResult {
  return html`<div class="head">
    <h2 id=${id} tabindex="-1">${title}</h2>
    <button class="secondary small" type="button" ?disabled=${loading.busy} @click=${refresh}>Atualizar</button>
  </div>`;
}

/** The last load's error, read out once as it appears. */
export const loadError = (loading: Loading) => (loading.error ? html`<p class="error" role="alert">${loading.error}</p>` : nothing);

/** The card of an owner-only section for another role: its heading, and who manages `what`. */
export function ownersOnly(id: string, title: string, what: string): TemplateResult {
  return html`<section class="card" aria-labelledby=${id}>
    <h2 id=${id} tabindex="-1">${title}</h2>
    <p class="muted">Apenas proprietários gerenciam ${what}.</p>
  </section>`;
}
