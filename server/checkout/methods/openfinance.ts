/** OpenFinance: the payer authorises the payment on their bank's page and comes back to the storefront. CPF required. */
import type { MethodAdapter } from './adapter';

const text = (value: unknown) => (typeof value === 'string' ? value : null);

export const openFinance: MethodAdapter = {
  method: 'openfinance',
  label: 'OpenFinance',
  payerCpf: 'required',
  // Kept with the reservation, so a retried creation sends the payer back to the same page.
  draftDetails: (input, defaults) => ({ returnUrl: input.returnUrl ?? defaults.returnUrl }),
  async start({ provider, checkout, order, webhook, value }) {
    const created = await provider.openFinance.createInitiation({
      payment: { payer: { taxNumber: checkout.payerCpf ?? '' }, value, redirectUrl: String(checkout.details.returnUrl) },
      transaction: { orderId: checkout.orderId, orderDescription: order.description },
      webhook,
    });
    // The initiation answer carries no state; an initiation waits for the payer like a registered cash-in.
    return { state: 'Registered', transactionId: created.transactionId, details: { checkoutUrl: created.checkoutUrl } };
  },
  view: (details) => ({ checkoutUrl: text(details.checkoutUrl) }),
};
