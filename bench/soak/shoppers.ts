/**
 * The shoppers and payers of `npm run soak`: each shopper posts its order with its order token to one instance
 * (sometimes to both at once), retries on failure like the element does, sometimes reloads; the payer completes,
 * fails or cancels a share of the payments at the emulator; some paid checkouts are refunded in part, and some
 * shoppers' turns end with a cash-out (./money-out.ts).
 */
import { between, chance } from './odds';
import { sleep } from './proxy';

const VALID_CPF = '52998224725';

export interface ShopperStats {
  answers: Map<string, number>;
  gotCheckout: number;
  gaveUp: number;
  doubleSubmits: number;
  reloads: number;
  reloadsWithAnotherTransaction: number;
  actions: Map<string, number>;
  actionRetries: number;
  actionFailures: Map<string, number>;
}

export const newShopperStats = (): ShopperStats => ({
  answers: new Map(),
  gotCheckout: 0,
  gaveUp: 0,
  doubleSubmits: 0,
  reloads: 0,
  reloadsWithAnotherTransaction: 0,
  actions: new Map(),
  actionRetries: 0,
  actionFailures: new Map(),
});

const bump = (map: Map<string, number>, key: string, by = 1) => map.set(key, (map.get(key) ?? 0) + by);

export interface ShopperOptions {
  stats: ShopperStats;
  urlA: string;
  urlB: string;
  /** Either instance, at random: where a shopper's next request goes. */
  instance: () => string;
  emulatorUrl: string;
  /** The emulator's bearer token for its sandbox operations (the payer). */
  sandboxToken: string;
  /** Each order's amount in cents. */
  amounts: ReadonlyMap<string, number>;
  /** The back office's operators (./money-out.ts's `moneyOutOperators`). */
  moneyOut: { refund(checkoutId: string, paidCents: number): Promise<unknown>; payout(): Promise<unknown> };
}

type View = { id: string; transactionId: string; state: string; method: string };

/** One shopper's walk through their order, from the first POST to the payer's move and what follows it. */
export function shopperOf({ stats, urlA, urlB, instance, emulatorUrl, sandboxToken, amounts, moneyOut }: ShopperOptions) {
  const post = async (base: string, body: unknown, address: string): Promise<View | undefined> => {
    try {
      const response = await fetch(`${base}/api/checkouts`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': address },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(30_000),
      });
      const text = await response.text();
      bump(stats.answers, String(response.status));
      if (response.status !== 200 && response.status !== 201) return undefined;
      return JSON.parse(text) as View;
    } catch {
      bump(stats.answers, 'no answer (instance down)');
      return undefined;
    }
  };

  /**
   * The payer's move at the emulator; a 424 means its webhook was not accepted: the change stands all the same and the
   * emulator retries the webhook in the background.
   */
  async function act(view: View, action: 'complete' | 'error' | 'cancel') {
    const area = view.method === 'openfinance' ? 'payment-initiation' : 'transactions';
    // An anonymous PIX is completed with its payer named, as the contract wants.
    const named = view.method === 'pix' && action === 'complete';
    const response = await fetch(`${emulatorUrl}/sandbox/v1/partners-int/sandbox/${area}/${action}/${view.transactionId}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${sandboxToken}`, ...(named && { 'content-type': 'application/json' }) },
      ...(named && { body: JSON.stringify({ name: 'Pagador Soak', taxNumber: '52998224725' }) }),
    });
    await response.body?.cancel();
    if (response.status === 424) stats.actionRetries++;
    if (response.ok || response.status === 424) return bump(stats.actions, action);
    if (response.status === 409) return bump(stats.actionFailures, `${action}: already final (409)`);
    bump(stats.actionFailures, `${action}: HTTP ${response.status}`);
  }

  return async function shopper(order: { orderId: string; orderToken: string }, index: number) {
    const address = `10.${(index >> 16) & 255}.${(index >> 8) & 255}.${index & 255}`;
    const method = chance(0.85) ? 'pix' : 'openfinance';
    const body = { ...order, method, ...(method === 'openfinance' ? { payer: { cpf: VALID_CPF } } : {}) };
    let view: View | undefined;
    for (let attempt = 0; attempt < 8 && !view; attempt++) {
      if (attempt > 0) await sleep(between(200, 600) * attempt);
      if (chance(0.1)) {
        stats.doubleSubmits++;
        const both = await Promise.all([post(urlA, body, address), post(urlB, body, address)]);
        view = both.find(Boolean);
      } else view = await post(instance(), body, address);
    }
    if (!view) return void stats.gaveUp++;
    stats.gotCheckout++;
    if (chance(0.1)) {
      // A reload: the element posts the order again and must get the same checkout.
      await sleep(between(0, 2_000));
      stats.reloads++;
      const again = await post(instance(), body, address);
      if (again && again.transactionId !== view.transactionId) stats.reloadsWithAnotherTransaction++;
    }
    const roll = Math.random();
    const action = roll < 0.5 ? 'complete' : roll < 0.65 ? 'error' : roll < 0.7 && method === 'pix' ? 'cancel' : undefined;
    if (action) {
      await sleep(between(0, 1_500));
      const done = await act(view, action);
      if (done && action === 'complete' && chance(0.3)) await moneyOut.refund(view.id, amounts.get(order.orderId)!);
    }
    if (chance(0.1)) await moneyOut.payout();
  };
}
