/**
 * The checkout page's own module (`checkout.html`), loaded by the page's inline script once the element has drawn its
 * first checkout or the page has been idle a while (checkout-inline.ts): the order's summary and <pix-checkout> are
 * already in the page, written by the server (demo/checkout-order.ts). This brings what the shopper did not wait for:
 * the sandbox panel beside the element (shown once its stylesheet applies), the log of the shop's own webhooks and
 * the shop's icon. The order's status is the shop's own, set on the server by the product's signed webhooks alone:
 * the page reads it again whenever the log sees one about the order arrive.
 */
import { byId, messageOf, ORDER_STATUS_LABELS, requestJson, type ShopOrder } from './common';
import { startDeliveryLog } from './merchant-deliveries';
import { startSandboxPanel } from './sandbox-panel';

function renderStatus(order: Pick<ShopOrder, 'status'>): void {
  const status = byId('order-payment-status');
  status.textContent = ORDER_STATUS_LABELS[order.status] ?? order.status;
  status.dataset.status = order.status;
}

/** Adds the stylesheet at `href`; resolves once it applies, or failed (the panel then shows unstyled, not never). */
function addStylesheet(href: string): Promise<void> {
  const link = document.createElement('link');
  link.rel = 'stylesheet';
  link.href = href;
  const settled = new Promise<void>((resolve) => {
    link.addEventListener('load', () => resolve());
    link.addEventListener('error', () => resolve());
  });
  document.head.append(link);
  return settled;
}

const readOrder = (orderId: string) => requestJson<ShopOrder>(`/demo/api/orders/${encodeURIComponent(orderId)}`);

async function main(): Promise<void> {
  const icon = document.getElementById('page-icon');
  if (icon instanceof HTMLLinkElement) {
    icon.type = 'image/svg+xml';
    icon.href = 'favicon.svg';
  }
  // A page with no order (the address named none, or one the shop does not have) has no element and no panel to run.
  const element = document.querySelector('#payment-slot pix-checkout');
  const orderId = element?.getAttribute('order-id');
  if (!element || !orderId) return;
  const styled = addStylesheet('sandbox-panel.css');
  // What the element says while the order is read, so the panel misses none of it.
  const earlier: Event[] = [];
  const keep = (event: Event) => earlier.push(event);
  for (const name of ['pix-checkout-created', 'pix-checkout-status']) element.addEventListener(name, keep);
  let order: ShopOrder;
  try {
    // Read now, not when the page was written: the order's checkouts as they are (the element may have made one).
    [order] = await Promise.all([readOrder(orderId), styled]);
  } catch (error) {
    byId('sandbox-panel').hidden = false;
    byId('sb-result').textContent = `Não foi possível ler o pedido: ${messageOf(error)}`;
    return;
  } finally {
    for (const name of ['pix-checkout-created', 'pix-checkout-status']) element.removeEventListener(name, keep);
  }
  renderStatus(order);
  byId('sandbox-panel').hidden = false;
  startSandboxPanel({ orderId, element, checkouts: order.checkouts, earlier });
  startDeliveryLog({
    orderId,
    onOrderEvents: async () => {
      try {
        renderStatus(await readOrder(orderId));
      } catch {
        // The next delivery about the order reads it again.
      }
    },
  });
}

void main();
