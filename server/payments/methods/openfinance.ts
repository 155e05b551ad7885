/** OpenFinance: the payer authorises the payment on their bank's page and comes back to the storefront. CPF required. */
import { textField, type MethodAdapter } from './adapter';

export const openFinance: MethodAdapter = {
  method: 'openfinance',
  payerCpf: 'required',
  // Kept with the reservation, so a retried creation sends the payer back to the same page.
  draftDetails: (input, defaults) => ({ returnUrl: input.returnUrl ?? defaults.returnUrl }),
  async start({ provider, checkout, order, webhook, value }) {
    const created = await provider.openFinance.createInitiation({
      payment: { payer: { taxNumber: checkout.payerCpf ?? '' }, value, redirectUrl: textField(checkout.details, 'returnUrl') ?? '' },
      transaction: { orderId: checkout.orderId, orderDescription: order.description },
      webhook,
    });
    // The initiation answer carries no state; an initiation waits for the payer like a registered cash-in.
    return { state: 'Registered', transactionId: created.transactionId, details: { checkoutUrl: created.checkoutUrl } };
  },
  recognizes: ({ transaction }) => transaction.type === 'Credit' && transaction.paymentType?.toLowerCase() === 'openfinance',
  // The record has no bank address, so an initiation whose answer was lost cannot be sent to its payer again.
  resumable: () => undefined,
  view: (details) => ({ checkoutUrl: textField(details, 'checkoutUrl') }),
};
