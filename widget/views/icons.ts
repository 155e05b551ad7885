/**
 * The element's pictures, drawn here as small inline SVGs (no image files, nothing fetched). All are decorative
 * (`aria-hidden`), the words beside them carrying the meaning, but for the Pix symbol of the method list, named "Pix".
 */
import { html, svg, type SVGTemplateResult, type TemplateResult } from 'lit';
import type { Method } from '../../core/methods.js';

export const icon = (name: string, body: SVGTemplateResult): TemplateResult =>
  html`<svg class="icon-svg icon-${name}" viewBox="0 0 24 24" aria-hidden="true" focusable="false" fill="none" stroke="currentColor"
    stroke-width="2" stroke-linecap="round" stroke-linejoin="round">${body}</svg>`;

/**
 * The Pix symbol, drawn here after the Banco Central's mark (nothing fetched): a diamond whose top and bottom are cut
 * by two curves that reach for the centre, so it reads as the three parts of the Pix mark, in the current colour.
 */
const pixBody = () =>
  svg`<path d="M12 2.5 21.5 12 12 21.5 2.5 12Z"></path><path d="M7.25 7.25Q12 14 16.75 7.25"></path><path
    d="M7.25 16.75Q12 10 16.75 16.75"></path>`;

/** The Pix symbol as a decorative picture, beside words that say "Pix". */
export const pixMark = (): TemplateResult => icon('pix', pixBody());

/** The Pix symbol as an image named `label` ("Pix"): the method list's mark, which carries the method's name. */
export const pixSymbol = (label: string): TemplateResult =>
  html`<svg class="icon-svg icon-pix" viewBox="0 0 24 24" role="img" aria-label=${label} focusable="false" fill="none"
    stroke="currentColor" stroke-width="1.75" stroke-linecap="round" stroke-linejoin="round">${pixBody()}</svg>`;

/** A bank building, for Open Finance: the payment is authorized in the payer's own bank. */
export const bankMark = (): TemplateResult =>
  icon('bank', svg`<path d="M3 9.5 12 4l9 5.5"></path><path d="M4.5 10v8M9.5 10v8M14.5 10v8M19.5 10v8M3 20.5h18"></path>`);

export const METHOD_MARK: Record<Method, () => TemplateResult> = { pix: pixMark, openfinance: bankMark };

export const checkIcon = (): TemplateResult => icon('check', svg`<path d="m5 12.5 4.5 4.5L19 7.5"></path>`);
export const alertIcon = (): TemplateResult => icon('alert', svg`<path d="M12 7v6"></path><path d="M12 17h.01"></path>`);
export const copyIcon = (): TemplateResult =>
  icon(
    'copy',
    svg`<rect x="8.5" y="8.5" width="11" height="11" rx="2"></rect><path d="M15.5 8.5V6a1.5 1.5 0 0 0-1.5-1.5H6A1.5 1.5 0 0 0 4.5 6v8A1.5 1.5 0 0 0 6 15.5h2.5"></path>`,
  );
