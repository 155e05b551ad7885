/**
 * The sandbox panel's list of the signed webhooks the shop received from the product as the merchant's backend
 * (`/demo/api/merchant-deliveries`): each verified event's time, type and order (a refused one is not kept). A new one about this
 * page's order tells the page, which re-reads the order's status (set by those events only).
 */
import { byId, clockTime, h, requestJson, type MerchantDelivery } from './common';

const POLL_MS = 1000;
const KEEP_ENTRIES = 200;
/** The demo server answers at most this many deliveries at once. */
const PAGE = 100;

export interface DeliveryLogOptions {
  orderId: string;
  /** Called after new deliveries about the order arrived. */
  onOrderEvents: () => Promise<void>;
}

export function startDeliveryLog({ orderId, onOrderEvents }: DeliveryLogOptions): void {
  const list = byId('sb-deliveries');
  const onlyOrder = byId<HTMLInputElement>('sb-deliveries-only-order');
  let after = 0;
  let entries: MerchantDelivery[] = [];

  function render(): void {
    const shown = onlyOrder.checked ? entries.filter((entry) => entry.orderId === orderId) : entries;
    byId('sb-deliveries-empty').hidden = shown.length > 0;
    list.replaceChildren(
      ...shown.map((entry) =>
        h(
          'li',
          { class: 'sb-entry', 'data-outcome': entry.verified ? 'verified' : 'invalid' },
          h('time', { datetime: entry.receivedAt }, clockTime(entry.receivedAt)),
          h('span', { class: 'state-pill', 'data-verified': String(entry.verified) }, entry.verified ? 'verificado' : 'recusado'),
          h('code', { class: 'sb-outcome' }, entry.type),
          h('code', { class: 'sb-entry-tx' }, entry.orderId ?? entry.webhookId),
        ),
      ),
    );
  }
  onlyOrder.addEventListener('change', render);

  async function poll(): Promise<void> {
    try {
      let page: MerchantDelivery[];
      do {
        page = (await requestJson<{ items: MerchantDelivery[] }>(`/demo/api/merchant-deliveries?after=${after}`)).items;
        const last = page.at(-1);
        if (!last) break;
        after = last.id;
        entries = [...[...page].reverse(), ...entries].slice(0, KEEP_ENTRIES);
        render();
        if (page.some((entry) => entry.orderId === orderId)) await onOrderEvents();
      } while (page.length >= PAGE);
    } catch {
      // The server may be restarting; the next tick tries again.
    }
    setTimeout(() => void poll(), POLL_MS);
  }
  render();
  void poll();
}
