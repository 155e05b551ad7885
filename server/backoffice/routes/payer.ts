/**
 * `POST /checkouts/:id/payer`: a payment's payer in full, for operators and owners (a write's least role, ../actor.ts),
 * each reveal recorded in the audit trail as `payer.reveal` on the checkout, without the CPF itself. Every other route
 * shows the payer masked (../payer-mask.ts, ../checkout-view.ts); this is the one way to read a full CPF or account.
 */
import { Hono } from 'hono';
import type { PayerReveal } from '../../../core/backoffice';
import { formatCpf } from '../../../core/cpf';
import type { ProviderClient } from '../../provider';
import type { CheckoutReadStore } from '../../store/checkout-store';
import type { BackOfficeEnv } from '../actor';
import { findCheckout } from '../checkout-view';

const orNull = (value: string | null | undefined) => (value ? value : null);

export function payerRoutes({ provider, store }: { provider: ProviderClient; store: CheckoutReadStore }) {
  return new Hono<BackOfficeEnv>().post('/checkouts/:id/payer', async (c) => {
    const checkout = await findCheckout(store, c.req.param('id'));
    // Who paid is the provider's (filled once paid); an unreadable record still reveals what the shopper gave.
    const record =
      checkout.transactionId && checkout.state === 'Completed'
        ? await provider.transactions.retrieve(checkout.transactionId).catch(() => undefined)
        : undefined;
    const payer = record?.transaction.payer;
    const answer: PayerReveal = {
      checkoutId: checkout.id,
      requested: { cpf: checkout.payerCpf ? formatCpf(checkout.payerCpf) : null, name: checkout.payerName },
      paid: payer
        ? {
            name: orNull(payer.name),
            taxNumber: orNull(payer.taxNumber),
            bankName: orNull(payer.bankName),
            accountAgency: orNull(payer.accountAgency),
            accountNumber: orNull(payer.accountNumber),
            accountDigit: orNull(payer.accountDigit),
          }
        : null,
    };
    const shown = [
      ...(answer.requested.cpf ? ['requested.cpf'] : []),
      ...(answer.paid?.taxNumber ? ['paid.taxNumber'] : []),
      ...(answer.paid?.accountNumber ? ['paid.account'] : []),
    ];
    // Recorded before the answer leaves: a reveal the trail could not keep is not made.
    await c.get('audit')({ action: 'payer.reveal', target: checkout.id, outcome: 'ok', details: { shown } });
    return c.json(answer);
  });
}
