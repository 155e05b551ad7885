/**
 * The order part of the checkout page, written by the server (demo/checkout-page.ts): the order's summary as the shop
 * priced it, and `<pix-checkout>` for it; or, when the address names no order the shop has, what is wrong and the way
 * back. The element is in the page itself, so it upgrades as soon as its script has run, with no page script to wait
 * for; the summary needs no request of its own. Only the order token is left to the browser: it rides in the
 * fragment, which no request carries, and the page's inline script (demo/pages/checkout-inline.ts) hands it over.
 */
import { formatMoneyCents, requireCents } from '../core/money';
import { METHODS } from '../core/methods';
import { escapeHtml } from '../server/sandbox/format';
import { ORDER_STATUS_LABELS } from './pages/common';
import type { DemoOrder, OrderStatus } from './store';

/** The notice that takes the order's place: `text`, then the way back to the shop. */
export function orderProblem(text: string): string {
  return `<p class="notice notice-error" id="order-status" role="status">${escapeHtml(text)} <a href="./">Voltar para a loja</a></p>`;
}

/** The summary of `order` (its `status` as the shop knows it) and its element. */
export function orderSection(order: DemoOrder, status: OrderStatus): string {
  const id = escapeHtml(order.orderId);
  const lines = order.items.map(
    (item) =>
      `<li class="order-line"><span class="order-line-quantity">${item.quantity}×</span>` +
      `<span class="order-line-name">${escapeHtml(item.name)}</span>` +
      `<span class="order-line-total">${formatMoneyCents(requireCents(item.unitPrice) * item.quantity)}</span></li>`,
  );
  return `<div class="checkout-grid" id="checkout-content">
          <section class="card order-summary" aria-labelledby="order-title">
            <h2 id="order-title">Resumo do pedido</h2>
            <p class="order-id">Pedido <code id="order-id">${id}</code></p>
            <p class="order-payment">Situação <span class="order-status-badge" id="order-payment-status" data-status="${escapeHtml(status)}">${escapeHtml(ORDER_STATUS_LABELS[status])}</span></p>
            <ul class="order-lines" id="order-lines">${lines.join('')}</ul>
            <dl class="order-total">
              <dt>Total</dt>
              <dd id="order-amount">${formatMoneyCents(order.amountCents)}</dd>
            </dl>
          </section>

          <section class="card payment" aria-labelledby="payment-title">
            <h2 id="payment-title">Forma de pagamento</h2>
            <div id="payment-slot"><pix-checkout endpoint="/api" methods="${METHODS.join(' ')}" lang="pt-BR" order-id="${id}" merchant-name="Armazém Cerrado"></pix-checkout></div>
          </section>
        </div>`;
}
