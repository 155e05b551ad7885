/**
 * The element's page of the browser rows, served from an origin of its own (a storefront), with the marks the bench
 * reads (connected, created, QR drawn, Completed); and what sets up the BFF alone on the stand-in provider.
 */
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { PricedOrder } from '../../server/payments/orders';
import type { startTestBff, TestServer } from '../../test/server/helpers/server';

export const anyOrder = { resolve: async (): Promise<PricedOrder> => ({ amountCents: 7_980, description: 'Bench order' }) };
export const PAYER = { name: 'Bench', taxNumber: '52998224725' };

/** Marks of the element's page: connected (the element defined and upgraded), created, QR drawn, Completed. */
const MARKS = `
window.benchTimes = [];
window.benchMarks = {};
const deep = (root, selector) => {
  const found = root.querySelector(selector);
  if (found) return found;
  for (const el of root.querySelectorAll('*')) if (el.shadowRoot) { const inner = deep(el.shadowRoot, selector); if (inner) return inner; }
  return null;
};
document.addEventListener('pix-checkout-completed', () => benchTimes.push(performance.timeOrigin + performance.now()));
document.addEventListener('pix-checkout-created', (event) => { benchMarks.checkout = event.detail; });
customElements.whenDefined('pix-checkout').then(() => {
  benchMarks.connected = performance.now();
  const el = document.querySelector('pix-checkout');
  const check = () => {
    if (benchMarks.qr || !el.shadowRoot || !deep(el.shadowRoot, 'svg[part~="qr"]')) return false;
    requestAnimationFrame(() => { benchMarks.qr = performance.now(); });
    return true;
  };
  if (check()) return;
  const observer = new MutationObserver(() => { if (check()) observer.disconnect(); });
  observer.observe(el.shadowRoot ?? el, { subtree: true, childList: true, attributes: true });
});`;

function pageHtml(bff: string, orderId: string, orderToken: string, polling: boolean) {
  return `<!doctype html><html lang="pt-BR"><meta charset="utf-8"><title>bench</title>
<script>${polling ? 'window.EventSource = undefined;' : ''}${MARKS}</script>
<script type="module" src="${bff}/widget/pix-checkout.js"></script>
<pix-checkout endpoint="${bff}/api" order-id="${orderId}" order-token="${orderToken}"></pix-checkout></html>`;
}

/** A BFF the element's page can point at: its address, and the order token its merchant would sign. */
export interface Target {
  url: string;
  token: (orderId: string) => string;
}

/** Serves the element's page from its own origin (a storefront) for `target`, the order id in the query. */
export async function startPageServer(target: () => Target) {
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const orderId = url.searchParams.get('order') ?? `B-${randomUUID()}`;
    const { url: bff, token } = target();
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
    res.end(pageHtml(bff, orderId, token(orderId), url.searchParams.has('polling')));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/**
 * Has the stand-in provider record a completion from the emulator: a transaction the emulator made through it (the
 * first checkout created on the BFF alone, made now if there is none), completed by the emulator's sandbox, whose
 * webhook and re-read go through the stand-in.
 */
export async function recordCompletion(
  alone: Awaited<ReturnType<typeof startTestBff>>,
  demo: TestServer,
  stub: { emulatedTransaction: () => string | undefined },
) {
  let transactionId = stub.emulatedTransaction();
  if (!transactionId) {
    const orderId = `R-${randomUUID()}`;
    const created = await alone.json('POST', '/api/checkouts', { orderId, orderToken: alone.orderTokenFor(orderId), method: 'pix' });
    if (created.status !== 201) throw new Error(`bench: creation on the BFF alone failed: ${created.text}`);
    transactionId = stub.emulatedTransaction();
  }
  if (!transactionId) throw new Error('bench: the stand-in provider forwarded no creation to the emulator');
  await demo.provider.sandbox.pix.complete(transactionId, PAYER);
}
