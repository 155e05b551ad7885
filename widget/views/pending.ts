/**
 * The screen of a PIX checkout that waits for the payer: the QR, the copy-and-paste code, the countdown. Open Finance's
 * (the payer goes to their bank) is in the lazy chunk (openfinance.ts), which its payer form needed first.
 */
import { html, nothing, type TemplateResult } from 'lit';
import type { Checkout } from '../api.js';
import type { Strings } from '../i18n.js';
import { qrSvg } from '../qr.js';
import { heading, renderSpinnerLine, renderSummary, type ViewContext } from './common.js';
import { checkIcon, copyIcon } from './icons.js';

export type CopyResult = 'idle' | 'copied' | 'failed';

export interface PixUi {
  /** Phones and tablets: the payer cannot scan their own screen, so copy-and-paste comes first. */
  touch: boolean;
  copyResult: CopyResult;
  /** A copy succeeded once: the next step stays on screen. */
  copiedOnce: boolean;
  codeExpanded: boolean;
  /** May be async, like `onSubmit`. */
  onCopy: () => void | Promise<void>;
  onToggleCode: () => void;
}

/** Codes longer than this show shortened ("00020101…E439") until expanded. */
const SHORT_CODE = 16;

// The ellipsis is drawn by CSS (.code-end::before), so the text of the code is the code and nothing else.
const shortened = (code: string) =>
  html`${code.slice(0, 8)}<span class="code-middle">${code.slice(8, -4)}</span><span class="code-end">${code.slice(-4)}</span>`;

/** The copy-and-paste code, shortened: the whole code stays in the DOM (for the copy fallback and tests), the middle hidden. */
function renderCode(t: Strings, code: string, expanded: boolean, onToggle: () => void): TemplateResult {
  const long = code.length > SHORT_CODE;
  const open = expanded || !long;
  return html`<div class="code-box">
    <p part="label" class="code-label">${t.codeLabel}</p>
    <p part="code" id="pix-code" class="code ${open ? 'expanded' : ''}">${long ? shortened(code) : code}</p>
    ${
      long
        ? html`<button type="button" part="button secondary-button" class="secondary code-toggle" aria-expanded=${open ? 'true' : 'false'}
            aria-controls="pix-code" @click=${onToggle}>${open ? t.hideCode : t.showCode}</button>`
        : nothing
    }
  </div>`;
}

/** Numbered steps: beside the QR on wide screens, after the copy button on touch screens. */
function renderSteps(t: Strings, touch: boolean): TemplateResult {
  return html`<div class="how">
    <h3 class="how-title" id="how-title">${t.howToPay}</h3>
    <ol part="steps" class="steps" aria-labelledby="how-title">
      <li>${t.stepOpenApp}</li>
      <li>${touch ? t.stepPaste : t.stepScan}</li>
      <li>${t.stepConfirm}</li>
    </ol>
  </div>`;
}

export function renderPix(ctx: ViewContext, checkout: Checkout, remainingMs: number | undefined, ui: PixUi): TemplateResult {
  const { t } = ctx;
  const code = checkout.qrCode ?? '';
  const qr = code ? qrSvg(checkout.qrMatrix, t.qrLabel) : undefined;
  const copied = ui.copyResult === 'copied';
  const copy = html`<div class="copy">
    <button type="button" part="button copy-button" class="copy-button ${copied ? 'copied' : ''}" @click=${ui.onCopy}>
      ${copied ? checkIcon() : copyIcon()}<span>${copied ? t.copied : t.copy}</span>
    </button>
    ${ui.copyResult === 'failed' ? html`<p part="message" class="copy-failed">${t.copyFailed}</p>` : nothing}
    ${ui.copiedOnce ? html`<p part="message" class="next-step">${t.nextStep}</p>` : nothing}
    ${code ? renderCode(t, code, ui.codeExpanded, ui.onToggleCode) : nothing}
  </div>`;
  const scan = qr ? html`<div class="scan">${qr}${ui.touch ? html`<p class="hint">${t.qrOtherDevice}</p>` : nothing}</div>` : nothing;
  const steps = renderSteps(t, ui.touch);
  const body = ui.touch ? html`${copy}${steps}${scan}` : html`<div class="scan-row">${scan}${steps}</div>${copy}`;
  return html`<section class="pending pix ${ui.touch ? 'touch' : ''}" data-method="pix" aria-labelledby="screen-title">
    ${heading(t.pixTitle)} ${renderSummary(ctx, checkout, remainingMs)} ${body} ${renderSpinnerLine(t.awaitingPayment)}
  </section>`;
}
