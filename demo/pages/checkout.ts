/**
 * The checkout page (`checkout.html`): reads the order named in the address, shows its summary, adds
 * <pix-checkout> for it (with the order token the shop handed over in the fragment) and starts the sandbox panel
 * beside it. The token, the element's order lookup and the summary's request were already taken and sent by the
 * page's inline script (checkout-early.ts). The order's status is the shop's own, set on the server by the product's
 * signed webhooks alone: the page reads it again whenever the panel sees one about the order arrive.
 */
import { METHODS } from '../../core/methods';
import { formatMoney, formatMoneyCents, requireCents } from '../../core/money';
import { earlyCheckout, type EarlyCheckout } from './checkout-early';
import { byId, h, messageOf, ORDER_STATUS_LABELS, readJson, RequestError, requestJson, type ShopOrder } from './common';
import { startDeliveryLog } from './merchant-deliveries';
import { startSandboxPanel } from './sandbox-panel';
import type { PixCheckout } from '../../widget/index';

function showProblem(text: string): void {
  const status = byId('order-status');
  status.classList.add('notice-error');
  status.replaceChildren(text, ' ', h('a', { href: './' }, 'Voltar para a loja'));
}

function renderSummary(order: ShopOrder): void {
  byId('order-id').textContent = order.orderId;
  byId('order-amount').textContent = formatMoney(order.amount);
  byId('order-lines').replaceChildren(
    ...order.items.map((item) =>
      h(
        'li',
        { class: 'order-line' },
        h('span', { class: 'order-line-quantity' }, `${item.quantity}×`),
        h('span', { class: 'order-line-name' }, item.name),
        h('span', { class: 'order-line-total' }, formatMoneyCents(requireCents(item.unitPrice) * item.quantity)),
      ),
    ),
  );
}

function renderStatus(order: Pick<ShopOrder, 'status'>): void {
  const status = byId('order-payment-status');
  status.textContent = ORDER_STATUS_LABELS[order.status] ?? order.status;
  status.dataset.status = order.status;
}

function createElement(orderId: string, { orderToken, lookup }: EarlyCheckout): PixCheckout {
  const element = document.createElement('pix-checkout');
  element.setAttribute('endpoint', '/api');
  element.setAttribute('methods', METHODS.join(' '));
  element.setAttribute('lang', 'pt-BR');
  element.setAttribute('order-id', orderId);
  // Shown above the methods ("Pagamento para Armazém Cerrado"), and the receipt's way back to the shop.
  element.setAttribute('merchant-name', 'Armazém Cerrado');
  element.setAttribute('continue-url', new URL('./', location.href).href);
  // Without it the element can still resume a checkout this tab made, but not start one: it says so itself.
  if (orderToken) element.setAttribute('order-token', orderToken);
  // The element's first question, already on its way (the page's inline script sent it): the element reads the
  // answer as its own.
  if (lookup) element.orderLookup = lookup;
  // The shop reacts like a merchant would: the title tells the outcome, so it shows in the tab strip too.
  element.addEventListener('pix-checkout-completed', () => (document.title = 'Pagamento confirmado · Armazém Cerrado'));
  return element;
}

async function main(): Promise<void> {
  const early = earlyCheckout();
  const { orderId } = early;
  if (!orderId || !early.order) {
    showProblem('Nenhum pedido informado no endereço.');
    return;
  }
  // Connected at once, still hidden with the rest of the order: the element renders with the lookup's answer while
  // the page waits for the order's summary, both asked at the same time. Nobody can choose a method before the
  // summary shows, so the panel, started then, still hears the element's first checkout.
  const element = createElement(orderId, early);
  byId('payment-slot').replaceChildren(element);
  let order: ShopOrder;
  try {
    order = await readJson<ShopOrder>(early.order);
  } catch (error) {
    element.remove();
    const notFound = error instanceof RequestError && error.status === 404;
    showProblem(notFound ? 'Pedido não encontrado.' : `Não foi possível carregar o pedido: ${messageOf(error)}.`);
    return;
  }
  renderSummary(order);
  renderStatus(order);
  // The panel shows the order's live checkout itself, so it needs no event the element sent before this.
  startSandboxPanel({ orderId: order.orderId, element, checkouts: order.checkouts });
  startDeliveryLog({
    orderId: order.orderId,
    onOrderEvents: async () => {
      try {
        renderStatus(await requestJson<ShopOrder>(`/demo/api/orders/${encodeURIComponent(order.orderId)}`));
      } catch {
        // The next delivery about the order reads it again.
      }
    },
  });
  byId('order-status').hidden = true;
  byId('checkout-content').hidden = false;
}

void main();
