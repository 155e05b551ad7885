/** The paging controls shared by the lists: page size select (5/10/20, as the provider allows) and previous/next. */
import { html } from 'lit';
import type { PageSize } from './api';

const SIZES: readonly PageSize[] = [5, 10, 20];

export const pageSizeField = (id: string, limit: PageSize, onChange: (limit: PageSize) => void) =>
  html`<div class="field narrow">
    <label for=${id}>Itens por página</label>
    <select id=${id} @change=${(e: Event) => onChange(Number((e.target as HTMLSelectElement).value) as PageSize)}>
      ${SIZES.map((size) => html`<option value=${size} ?selected=${size === limit}>${size}</option>`)}
    </select>
  </div>`;

/** Previous/next of a page of `what` ("recebedores"): each pager is its own landmark, named for its list. */
export function pager(
  page: { limit: number; offset: number; total: number; items: unknown[] },
  busy: boolean,
  go: (offset: number) => void,
  what: string,
) {
  const first = page.total === 0 ? 0 : page.offset + 1;
  const last = page.offset + page.items.length;
  return html`<nav class="pager" aria-label="Páginas de ${what}">
    <button class="secondary small" type="button" ?disabled=${busy || page.offset === 0} @click=${() => go(Math.max(0, page.offset - page.limit))}>
      Anterior
    </button>
    <span class="muted">${first}–${last} de ${page.total}</span>
    <button class="secondary small" type="button" ?disabled=${busy || last >= page.total} @click=${() => go(page.offset + page.limit)}>
      Próxima
    </button>
  </nav>`;
}
