// The checkout page: reads the order named in the address, shows its summary, adds <pix-checkout> for it and starts
// the sandbox panel beside it.
import { formatAmount, formatCents, h, requestJson, toCents } from './common.js';
import { startSandboxPanel } from './sandbox-panel.js';

const $ = (id) => document.getElementById(id);

function showProblem(text) {
  const status = $('order-status');
  status.classList.add('notice-error');
  status.replaceChildren(text, ' ', h('a', { href: './' }, 'Voltar para a loja'));
}

function renderSummary(order) {
  $('order-id').textContent = order.orderId;
  $('order-amount').textContent = formatAmount(order.amount);
  $('order-lines').replaceChildren(
    ...order.items.map((item) =>
      h(
        'li',
        { class: 'order-line' },
        h('span', { class: 'order-line-quantity' }, `${item.quantity}×`),
        h('span', { class: 'order-line-name' }, item.name),
        h('span', { class: 'order-line-total' }, formatCents(toCents(item.unitPrice) * item.quantity)),
      ),
    ),
  );
}

function createElement(orderId) {
  const element = document.createElement('pix-checkout');
  element.setAttribute('endpoint', '/api');
  element.setAttribute('methods', 'pix openfinance');
  element.setAttribute('lang', 'pt-BR');
  element.setAttribute('order-id', orderId);
  // The shop reacts like a merchant would: the title tells the outcome, so it shows in the tab strip too.
  element.addEventListener('pix-checkout-completed', () => (document.title = 'Pagamento confirmado · Armazém Cerrado'));
  return element;
}

async function main() {
  const orderId = new URLSearchParams(location.search).get('order');
  if (!orderId) {
    showProblem('Nenhum pedido informado no endereço.');
    return;
  }
  let order;
  try {
    order = await requestJson(`/demo/api/orders/${encodeURIComponent(orderId)}`);
  } catch (error) {
    showProblem(error.status === 404 ? 'Pedido não encontrado.' : `Não foi possível carregar o pedido: ${error.message}.`);
    return;
  }
  renderSummary(order);
  $('order-status').hidden = true;
  $('checkout-content').hidden = false;
  const element = createElement(order.orderId);
  // The panel listens before the element is connected, so it sees the element's very first event.
  startSandboxPanel({ orderId: order.orderId, element, checkouts: order.checkouts });
  $('payment-slot').replaceChildren(element);
}

main();
