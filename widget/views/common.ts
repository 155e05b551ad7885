/** What every screen shares: the view context, the heading that takes focus, the spinner line, the amount. */
import { html, nothing, type TemplateResult } from 'lit';
import type { Method } from '../../core/methods.js';
import { formatMoney } from '../../core/money.js';
import { dateFormat } from '../date-format.js';
import type { Checkout } from '../api.js';
import { isLongWindow } from '../countdown.js';
import { fill, type Locale, type Strings } from '../i18n.js';

export interface ViewContext {
  t: Strings;
  locale: Locale;
  /** The `merchant-name` attribute; empty when not given. */
  merchantName: string;
  /** The methods the page offers, in order. */
  offered: readonly Method[];
}

/** Id of the heading of the screen on display: the element moves focus there when the screen changes. */
export const HEADING_ID = 'screen-title';

/** The screen's heading: focusable by script only (tabindex -1), so focus can land on it without a tab stop. */
export const heading = (text: string): TemplateResult => html`<h2 part="title" class="title" id=${HEADING_ID} tabindex="-1">${text}</h2>`;

export function renderSpinnerLine(text: string): TemplateResult {
  return html`<p part="status" class="status"><span part="spinner" class="spinner" aria-hidden="true"></span>${text}</p>`;
}

export const renderLoading = (t: Strings): TemplateResult => renderSpinnerLine(t.loading);

export const money = (checkout: Checkout, locale: Locale): string =>
  formatMoney(checkout.amount, { locale, currency: checkout.currency || 'BRL' });

/** Amount, payee and description: what the shopper checks before paying. */
export function renderSummary(ctx: ViewContext, checkout: Checkout, remainingMs: number | undefined): TemplateResult {
  const { t, locale, merchantName } = ctx;
  return html`<div class="summary">
    <p part="amount" class="amount"><span class="visually-hidden">${t.amountLabel}: </span>${money(checkout, locale)}</p>
    ${merchantName ? html`<p part="merchant" class="merchant">${fill(t.payingTo, { merchant: merchantName })}</p>` : nothing}
    ${checkout.description ? html`<p part="description" class="description">${checkout.description}</p>` : nothing}
    ${remainingMs === undefined ? nothing : renderCountdown(ctx, checkout, remainingMs)}
  </div>`;
}

/**
 * What is left, with its units: "29 min 05 s", "45 s", "1 h 05 min 09 s" (the same symbols in every language). Whole
 * seconds rounded up, so "1 s" shows until the window really closes.
 */
export function formatDuration(ms: number): string {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = String(total % 60).padStart(2, '0');
  if (hours) return `${hours} h ${String(minutes).padStart(2, '0')} min ${seconds} s`;
  return minutes ? `${minutes} min ${seconds} s` : `${total} s`;
}

/**
 * "Pague em até 29 min 41 s (até 14:32)": the time left with its units, and the clock time it ends by the shopper's
 * own clock (the deadline follows the server's clock, so now + what is left, in minutes, rounded down). The time left
 * is a `timer`, which screen readers do not read on every change; the element speaks the steps that matter through
 * its live region instead (countdown.ts).
 */
export function renderCountdown({ t, locale }: ViewContext, checkout: Checkout, remainingMs: number): TemplateResult {
  if (isLongWindow(remainingMs)) {
    const date = dateFormat(locale, 'dateTime').format(new Date(checkout.expiresAt));
    return html`<p part="countdown" class="countdown">${fill(t.countdownUntil, { date })}</p>`;
  }
  const urgent = remainingMs <= 60_000;
  const time = dateFormat(locale, 'time').format(new Date(Date.now() + Math.max(0, remainingMs)));
  return html`<p part="countdown" class="countdown ${urgent ? 'urgent' : ''}">
    ${t.countdown} <span role="timer" class="countdown-time">${formatDuration(remainingMs)}</span>
    <span class="countdown-clock">${fill(t.countdownClock, { time })}</span>
  </p>`;
}
