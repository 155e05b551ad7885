/**
 * "Salvar comprovante": the receipt to keep. The button opens the browser's print dialog, where the shopper prints it
 * or saves it as a PDF (every desktop and phone browser offers that), with no new dependency and nothing the strict
 * CSP forbids (no blob download, no inline style). What the page prints is the receipt alone, black on white
 * (payer-receipt.styles.ts). In the lazy chunk with the receipt (views/screens.ts), so Lit's `html` comes from the entry.
 */
import type { TemplateResult } from 'lit';
import type { Strings } from '../i18n.js';
import type { Kit } from './kit.js';

/** Opens the print dialog; a browser without one (some in-app web views) does nothing. */
export function printReceipt(): void {
  if (typeof window.print === 'function') window.print();
}

export const saveReceiptButton = ({ html }: Pick<Kit, 'html'>, t: Strings): TemplateResult =>
  html`<button type="button" part="button secondary-button save-button" class="secondary save-receipt" @click=${printReceipt}>
    ${t.saveReceipt}
  </button>`;
