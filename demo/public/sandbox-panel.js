// The sandbox panel beside the checkout: shows the order's live checkout, drives the provider's sandbox outcomes
// through the demo server (the browser never holds provider credentials) and lists the webhooks the BFF received.
import { h, requestJson } from './common.js';

const FINAL = new Set(['Completed', 'Error', 'Cancelled', 'Reversed']);
const POLL_MS = 1000;
const KEEP_ENTRIES = 200;
const METHOD_NAMES = { pix: 'PIX', openfinance: 'Open Finance' };
const time = new Intl.DateTimeFormat('pt-BR', { hour: '2-digit', minute: '2-digit', second: '2-digit' });

const $ = (id) => document.getElementById(id);

/**
 * @param {{ orderId: string, element: HTMLElement, checkouts: Array<{ id: string, state: string, transactionId: string }> }} options
 *   `checkouts` are the order's checkouts as the order endpoint lists them, oldest first.
 */
export function startSandboxPanel({ orderId, element, checkouts }) {
  let current;
  /** The checkout last asked for: an older answer arriving late must not replace it. */
  let wanted;
  let busy = false;
  const knownCheckouts = new Set(checkouts.map((c) => c.id));
  const knownTransactions = new Set(checkouts.map((c) => c.transactionId).filter(Boolean));
  const buttons = [...document.querySelectorAll('#sandbox-panel [data-operation]')];

  function render() {
    const state = current?.state;
    $('sb-state').textContent = state ?? '—';
    $('sb-state').dataset.state = state ?? '';
    $('sb-method').textContent = current ? METHOD_NAMES[current.method] ?? current.method : '—';
    $('sb-transaction').textContent = current?.transactionId ?? '—';
    $('sb-checkout').textContent = current?.id ?? '—';
    $('sb-hint').hidden = Boolean(current);
    const live = current && !FINAL.has(current.state);
    for (const button of buttons) button.disabled = busy || !live || button.dataset.method !== current.method;
    const bank = $('sb-bank-link');
    bank.hidden = !(live && current.checkoutUrl);
    if (current?.checkoutUrl) bank.href = current.checkoutUrl;
  }

  /** Reads the checkout from the BFF: the element's events carry the state, not the transaction id. */
  async function load(checkoutId) {
    knownCheckouts.add(checkoutId);
    wanted = checkoutId;
    try {
      const checkout = await requestJson(`/api/checkouts/${encodeURIComponent(checkoutId)}`);
      knownTransactions.add(checkout.transactionId);
      if (checkoutId !== wanted) return;
      current = checkout;
      render();
    } catch (error) {
      if (checkoutId === wanted) $('sb-result').textContent = `Não foi possível ler o checkout: ${error.message}`;
    }
  }

  function follow(event) {
    const { checkoutId, state } = event.detail;
    if (current?.id === checkoutId) {
      current.state = state;
      render();
    } else {
      void load(checkoutId);
    }
  }
  for (const name of ['pix-checkout-created', 'pix-checkout-status']) element.addEventListener(name, follow);

  async function run(method, operation) {
    if (!current?.transactionId) return;
    const { transactionId } = current;
    busy = true;
    render();
    $('sb-result').textContent = `Enviando ${operation} para ${transactionId}…`;
    try {
      const path = `/demo/api/sandbox/${method}/${operation}/${encodeURIComponent(transactionId)}`;
      const answer = await requestJson(path, { method: 'POST' });
      const reached = answer?.data?.transactionState ?? answer?.data?.state;
      $('sb-result').textContent = `${operation}: o provedor aceitou${reached ? ` (${reached})` : ''}; webhook enviado ao backend.`;
    } catch (error) {
      $('sb-result').textContent = `${operation} recusado: ${error.message}`;
    } finally {
      busy = false;
      render();
    }
  }
  for (const button of buttons) button.addEventListener('click', () => run(button.dataset.method, button.dataset.operation));

  // Before the element says anything (a second tab still on the method chooser), show the order's live checkout.
  const live = [...checkouts].reverse().find((c) => !FINAL.has(c.state)) ?? checkouts.at(-1);
  if (live) void load(live.id);
  render();

  startWebhookLog({
    belongsToOrder: (entry) => knownCheckouts.has(entry.checkoutId) || knownTransactions.has(entry.transactionId),
    onEntries: async (entries) => {
      // A webhook about the checkout shown means its state moved: re-read it, even when this tab's element is not
      // following it (another tab created it).
      if (current && entries.some((e) => e.checkoutId === current.id)) await load(current.id);
      if (entries.some((e) => e.checkoutId && !knownCheckouts.has(e.checkoutId))) await refreshOrderCheckouts();
    },
  });

  async function refreshOrderCheckouts() {
    try {
      const order = await requestJson(`/demo/api/orders/${encodeURIComponent(orderId)}`);
      for (const c of order.checkouts) {
        knownCheckouts.add(c.id);
        if (c.transactionId) knownTransactions.add(c.transactionId);
      }
    } catch {
      // The next unknown webhook tries again.
    }
  }
}

function startWebhookLog({ belongsToOrder, onEntries }) {
  const list = $('sb-log');
  const onlyOrder = $('sb-only-order');
  let after = 0;
  let entries = [];

  function render() {
    const shown = onlyOrder.checked ? entries.filter(belongsToOrder) : entries;
    $('sb-log-empty').hidden = shown.length > 0;
    list.replaceChildren(
      ...shown.map((entry) =>
        h(
          'li',
          { class: 'sb-entry', 'data-outcome': entry.outcome },
          h('time', { datetime: entry.receivedAt }, time.format(new Date(entry.receivedAt))),
          h('span', { class: 'state-pill', 'data-state': entry.state ?? '' }, entry.state ?? 'sem estado'),
          h('span', { class: 'sb-outcome', lang: 'en' }, entry.outcome),
          h('code', { class: 'sb-entry-tx' }, entry.transactionId ?? '—'),
        ),
      ),
    );
  }
  onlyOrder.addEventListener('change', render);

  async function poll() {
    try {
      let page;
      do {
        page = (await requestJson(`/demo/api/webhooks?after=${after}`)).items;
        if (page.length === 0) break;
        after = page.at(-1).id;
        entries = [...page.reverse(), ...entries].slice(0, KEEP_ENTRIES);
        await onEntries(page);
        render();
      } while (page.length >= 100);
    } catch {
      // The server may be restarting; the next tick tries again.
    }
    setTimeout(poll, POLL_MS);
  }
  render();
  void poll();
}
