/**
 * The sandbox panel beside the checkout: shows the order's live checkout, drives the provider's sandbox outcomes
 * through the demo server (the browser never holds provider credentials) and lists the webhooks the BFF received.
 * Its late-payment control pays the order's expired code after all, so the demo shows expired → new code → old code
 * paid late.
 */
import { methodLabel } from '../../core/method-labels';
import { isMethod, type Method } from '../../core/methods';
import { EXPIRED, isFinal, type CheckoutState } from '../../core/states';
import type { PixCheckoutDetail } from '../../widget/index';
import {
  byId,
  clockTime,
  h,
  messageOf,
  requestJson,
  type CheckoutInfo,
  type OrderCheckout,
  type ShopOrder,
  type WebhookLogEntry,
} from './common';

const POLL_MS = 1000;
const KEEP_ENTRIES = 200;
/** The demo server answers at most this many webhook log entries at once. */
const LOG_PAGE = 100;

export interface SandboxPanelOptions {
  orderId: string;
  /** The order's <pix-checkout>. */
  element: Element;
  /** The order's checkouts as the order endpoint lists them, oldest first. */
  checkouts: OrderCheckout[];
  /** What the element said since that list was asked for, oldest first: followed as if heard. */
  earlier?: Event[];
}

/** What the demo server answers for a sandbox operation: the provider's own answer under `data`. */
interface SandboxAnswer {
  data?: { transactionState?: string; state?: string; webhookDelivered?: boolean };
}

export function startSandboxPanel({ orderId, element, checkouts, earlier = [] }: SandboxPanelOptions): void {
  let current: CheckoutInfo | undefined;
  /** The checkout last asked for: an older answer arriving late must not replace it. */
  let wanted: string | undefined;
  let busy = false;
  const knownCheckouts = new Set(checkouts.map((c) => c.id));
  const knownTransactions = new Set(checkouts.flatMap((c) => (c.transactionId ? [c.transactionId] : [])));
  /** The state of each of the order's checkouts as last seen: the late-payment control needs the expired ones. */
  const states = new Map<string, CheckoutState>(checkouts.map((c) => [c.id, c.state]));
  const buttons = [...document.querySelectorAll<HTMLButtonElement>('#sandbox-panel [data-operation]')];
  const payExpired = lateSection();

  function render(): void {
    const state = current?.state;
    const stateField = byId('sb-state');
    stateField.textContent = state ?? '—';
    stateField.dataset.state = state ?? '';
    byId('sb-method').textContent = current ? methodLabel(current.method) : '—';
    byId('sb-transaction').textContent = current?.transactionId ?? '—';
    byId('sb-checkout').textContent = current?.id ?? '—';
    byId('sb-hint').hidden = Boolean(current);
    const live = current !== undefined && !isFinal(current.state);
    for (const button of buttons) button.disabled = busy || !live || button.dataset.method !== current?.method;
    payExpired.disabled = busy || ![...states.values()].includes(EXPIRED);
    const bank = byId<HTMLAnchorElement>('sb-bank-link');
    bank.hidden = !(live && current?.checkoutUrl);
    if (current?.checkoutUrl) bank.href = current.checkoutUrl;
  }

  /** Reads the checkout from the BFF: the element's events carry the state, not the transaction id. */
  async function load(checkoutId: string): Promise<void> {
    knownCheckouts.add(checkoutId);
    wanted = checkoutId;
    try {
      const checkout = await requestJson<CheckoutInfo>(`/api/checkouts/${encodeURIComponent(checkoutId)}`);
      knownTransactions.add(checkout.transactionId);
      states.set(checkout.id, checkout.state);
      if (checkoutId !== wanted) return;
      current = checkout;
      render();
    } catch (error) {
      if (checkoutId === wanted) byId('sb-result').textContent = `Não foi possível ler o checkout: ${messageOf(error)}`;
    }
  }

  /** The checkout a read is already on its way for: the element's `created` and first `status` name the same one. */
  let loading: string | undefined;

  function follow(event: Event): void {
    const { checkoutId, state } = (event as CustomEvent<PixCheckoutDetail>).detail;
    states.set(checkoutId, state);
    if (current?.id === checkoutId) {
      current.state = state;
      render();
    } else if (loading !== checkoutId) {
      loading = checkoutId;
      // After the element's next frame: the shopper's QR is drawn first, and only then does this developer's panel
      // ask for the transaction id and parse the answer.
      requestAnimationFrame(() =>
        setTimeout(() => {
          void load(checkoutId).finally(() => {
            if (loading === checkoutId) loading = undefined;
          });
        }),
      );
    }
  }
  for (const name of ['pix-checkout-created', 'pix-checkout-status']) element.addEventListener(name, follow);
  for (const event of earlier) follow(event);

  async function run(method: Method, operation: string): Promise<void> {
    if (!current?.transactionId) return;
    const { transactionId } = current;
    busy = true;
    render();
    byId('sb-result').textContent = `Enviando ${operation} para ${transactionId}…`;
    try {
      const path = `/demo/api/sandbox/${method}/${operation}/${encodeURIComponent(transactionId)}`;
      const answer = await requestJson<SandboxAnswer | undefined>(path, { method: 'POST' });
      const reached = answer?.data?.transactionState ?? answer?.data?.state;
      const webhook =
        answer?.data?.webhookDelivered === false ? 'o webhook não chegou ao backend e será reenviado' : 'webhook enviado ao backend';
      byId('sb-result').textContent = `${operation}: o provedor aceitou${reached ? ` (${reached})` : ''}; ${webhook}.`;
    } catch (error) {
      byId('sb-result').textContent = `${operation} recusado: ${messageOf(error)}`;
    } finally {
      busy = false;
      render();
    }
  }
  for (const button of buttons) {
    const { method, operation } = button.dataset;
    if (isMethod(method) && operation) button.addEventListener('click', () => void run(method, operation));
  }

  /** Pays the order's expired code at the emulator; the BFF hears of it by webhook, like any payment. */
  async function payLate(): Promise<void> {
    busy = true;
    render();
    byId('sb-result').textContent = 'Pagando o código expirado…';
    try {
      const path = `/demo/api/orders/${encodeURIComponent(orderId)}/pay-expired`;
      const answer = await requestJson<SandboxAnswer | undefined>(path, { method: 'POST' });
      const reached = answer?.data?.transactionState ?? answer?.data?.state;
      const webhook =
        answer?.data?.webhookDelivered === false ? 'o webhook não chegou ao backend e será reenviado' : 'webhook enviado ao backend';
      byId('sb-result').textContent = `Código expirado pago com atraso${reached ? ` (${reached})` : ''}; ${webhook}.`;
    } catch (error) {
      byId('sb-result').textContent = `Pagamento atrasado recusado: ${messageOf(error)}`;
    } finally {
      busy = false;
      await refreshOrderCheckouts();
      render();
    }
  }
  payExpired.addEventListener('click', () => void payLate());

  // Before the element says anything (a second tab still on the method chooser), show the order's live checkout.
  const live = [...checkouts].reverse().find((c) => !isFinal(c.state)) ?? checkouts.at(-1);
  if (live) void load(live.id);
  render();

  async function refreshOrderCheckouts(): Promise<void> {
    try {
      const order = await requestJson<ShopOrder>(`/demo/api/orders/${encodeURIComponent(orderId)}`);
      for (const c of order.checkouts) {
        knownCheckouts.add(c.id);
        states.set(c.id, c.state);
        if (c.transactionId) knownTransactions.add(c.transactionId);
      }
      render();
    } catch {
      // The next unknown webhook tries again.
    }
  }

  startWebhookLog({
    belongsToOrder: (entry) =>
      (entry.checkoutId !== null && knownCheckouts.has(entry.checkoutId)) ||
      (entry.transactionId !== null && knownTransactions.has(entry.transactionId)),
    onEntries: async (entries) => {
      // A webhook about the checkout shown means its state moved: re-read it, even when this tab's element is not
      // following it (another tab created it).
      if (current && entries.some((e) => e.checkoutId === current?.id)) await load(current.id);
      // An unknown checkout, or another of the order's (an expired code paid late): re-read the order's list.
      if (
        entries.some((e) => e.checkoutId && e.checkoutId !== current?.id && (!knownCheckouts.has(e.checkoutId) || states.has(e.checkoutId)))
      ) {
        await refreshOrderCheckouts();
      }
    },
  });
}

/**
 * The late-payment control, in a section of its own before the result line (built here, so the page needs no
 * markup for it; a page that has its own `#sb-pay-expired` keeps it).
 */
function lateSection(): HTMLButtonElement {
  const existing = document.getElementById('sb-pay-expired');
  if (existing instanceof HTMLButtonElement) return existing;
  const button = h('button', { type: 'button', class: 'sb-button sb-good', id: 'sb-pay-expired', disabled: true }, 'Pagar código expirado');
  byId('sb-result').before(
    h(
      'section',
      { class: 'sandbox-section', 'aria-labelledby': 'sb-late-title' },
      h('h3', { id: 'sb-late-title' }, 'Pagamento atrasado'),
      h('div', { class: 'sb-actions' }, button),
      h('p', { class: 'sb-hint' }, 'Paga o código expirado do pedido, como quem o pagou depois do prazo.'),
    ),
  );
  return button;
}

interface WebhookLogOptions {
  belongsToOrder: (entry: WebhookLogEntry) => boolean;
  onEntries: (entries: WebhookLogEntry[]) => Promise<void>;
}

function startWebhookLog({ belongsToOrder, onEntries }: WebhookLogOptions): void {
  const list = byId('sb-log');
  const onlyOrder = byId<HTMLInputElement>('sb-only-order');
  let after = 0;
  let entries: WebhookLogEntry[] = [];

  function render(): void {
    const shown = onlyOrder.checked ? entries.filter(belongsToOrder) : entries;
    byId('sb-log-empty').hidden = shown.length > 0;
    list.replaceChildren(
      ...shown.map((entry) =>
        h(
          'li',
          { class: 'sb-entry', 'data-outcome': entry.outcome },
          h('time', { datetime: entry.receivedAt }, clockTime(entry.receivedAt)),
          h('span', { class: 'state-pill', 'data-state': entry.state ?? '' }, entry.state ?? 'sem estado'),
          h('span', { class: 'sb-outcome', lang: 'en' }, entry.outcome),
          h('code', { class: 'sb-entry-tx' }, entry.transactionId ?? '—'),
        ),
      ),
    );
  }
  onlyOrder.addEventListener('change', render);

  async function poll(): Promise<void> {
    try {
      let page: WebhookLogEntry[];
      do {
        page = (await requestJson<{ items: WebhookLogEntry[] }>(`/demo/api/webhooks?after=${after}`)).items;
        const last = page.at(-1);
        if (!last) break;
        after = last.id;
        entries = [...[...page].reverse(), ...entries].slice(0, KEEP_ENTRIES);
        await onEntries(page);
        render();
      } while (page.length >= LOG_PAGE);
    } catch {
      // The server may be restarting; the next tick tries again.
    }
    setTimeout(() => void poll(), POLL_MS);
  }
  render();
  void poll();
}
