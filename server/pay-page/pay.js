/* global document, location, history */
/**
 * The payment link's own script, written into the page (server/pay-page.ts) right after the element's slot, so it runs
 * while the page is parsed, before the element's script has come: the order token comes in the address fragment
 * (`#t=<token>`), never to a server. Taken first, kept for the tab in sessionStorage and wiped from the address, so
 * neither a reload, a shared address nor the OpenFinance return address carries it. Then the page adds <pix-checkout>
 * for the order, with the page's fallback paragraph as its child (shown until the element is defined, and again if it
 * cannot start), sends the element's first request, and asks for the shop's name, which only the order's token
 * unlocks. A classic script in a function of its own: nothing of it lands in the page's global scope.
 */
(() => {
  const KEY = 'pix-checkout:pay-link-token:';
  const slot = document.getElementById('pay-slot');
  const orderId = slot?.dataset.orderId;

  /** The token of the fragment, else the one this tab kept for the order; undefined when the page never had one. */
  function takeToken(id) {
    const fromFragment = new URLSearchParams(location.hash.slice(1)).get('t');
    if (fromFragment !== null) history.replaceState(history.state, '', location.pathname + location.search);
    try {
      if (fromFragment) sessionStorage.setItem(KEY + id, fromFragment);
      return fromFragment || sessionStorage.getItem(KEY + id) || undefined;
    } catch {
      // Storage refused (private modes): the token lives as long as the page.
      return fromFragment || undefined;
    }
  }

  /** `POST /api/orders/<id>/checkout`, exactly as the element sends it (widget/api.ts, `sendOrderLookup`). */
  function lookUp(id, token) {
    const sent = fetch(`/api/orders/${encodeURIComponent(id)}/checkout`, {
      method: 'POST',
      headers: { accept: 'application/json', 'content-type': 'application/json' },
      body: JSON.stringify({ orderToken: token }),
    });
    // Handled by the element; this only keeps a failure from being reported twice when the element never runs.
    sent.catch(() => undefined);
    return sent;
  }

  /** Shows the shop's name in the heading, the tab's title and the element ("Pagamento para …"). */
  async function showShopName(element, id, token) {
    try {
      const response = await fetch(`/pay/_/shop/${encodeURIComponent(id)}`, { headers: { 'x-order-token': token } });
      if (response.status !== 200) return;
      const { shopName } = await response.json();
      if (typeof shopName !== 'string' || !shopName) return;
      document.getElementById('pay-title').textContent = shopName;
      document.title = `Pagamento · ${shopName}`;
      element.setAttribute('merchant-name', shopName);
    } catch {
      // The neutral title stays.
    }
  }

  if (!slot || !orderId) return;
  const token = takeToken(orderId);
  const element = document.createElement('pix-checkout');
  element.setAttribute('endpoint', '/api');
  element.setAttribute('order-id', orderId);
  element.setAttribute('methods', 'pix openfinance');
  element.setAttribute('lang', document.documentElement.lang || 'pt-BR');
  // Without it the element can still resume a checkout this tab made, but not start one: it says so itself.
  if (token) element.setAttribute('order-token', token);
  // The element's first question, asked while its script is still on the way (this one is in the page itself): the
  // answer is there when the element first renders, a round trip earlier than if the element asked. The element
  // reads it as its own (its orderLookup property) and asks again for anything later.
  if (token) element.orderLookup = lookUp(orderId, token);
  element.append(...slot.childNodes);
  slot.append(element);
  if (token) void showShopName(element, orderId, token);
  // The tab's title tells the outcome too.
  element.addEventListener(
    'pix-checkout-completed',
    () => (document.title = `Pagamento confirmado · ${document.getElementById('pay-title').textContent}`),
  );
})();
