/**
 * The payments received, for the back office under `/api/admin/checkouts`: the shop's checkouts filtered and paged by
 * cursor (../checkout-filter.ts), each with its timeline (its events, the webhooks that moved it) and the provider's
 * record read on demand. The CSV export is checkouts-export.ts, the refunds refunds.ts; all show the rows as
 * `adminCheckoutView` (../checkout-view.ts) does.
 */
import { Hono } from 'hono';
import type { CheckoutDetail, CheckoutPage, ProviderRecord } from '../../../core/backoffice';
import type { Clock } from '../../lib/clock';
import type { ProviderClient, TransactionRecord } from '../../provider';
import type { BackOfficeStore } from '../../store/back-office';
import type { CheckoutReadStore } from '../../store/checkout-store';
import { cashOutView } from '../../payments/cashouts';
import { noTransaction, providerReadFailed } from '../../payments/errors';
import { parseQuery } from '../../http/json-body';
import { maskCpf } from '../../../core/cpf';
import { maskPayerData } from '../payer-mask';
import { adminCheckoutView, findCheckout, viewsWithRefunds } from '../checkout-view';
import { decodeCursor, encodeCursor, filterOf, listQuery } from '../checkout-filter';

/** Webhooks listed in a checkout's detail: the most recent ones (a provider retrying for days stays readable). */
const WEBHOOKS_SHOWN = 50;

/**
 * The provider's record as the back-office may see it: the webhook's secret header value is never shown, the payer's
 * documents are masked and bank accounts left out (../payer-mask.ts; the full CPF is the audited reveal's, payer.ts).
 */
function recordView(record: TransactionRecord) {
  const { customHeaderValue, ...webhook } = record.webhook;
  return maskPayerData({ ...record, webhook: { ...webhook, ...(customHeaderValue ? { customHeaderValue: '********' } : {}) } });
}

export interface CheckoutRoutesOptions {
  provider: ProviderClient;
  store: CheckoutReadStore & BackOfficeStore;
  clock: Clock;
}

export function checkoutRoutes({ provider, store, clock }: CheckoutRoutesOptions) {
  const withRefunds = viewsWithRefunds(store);
  return new Hono()
    .get('/checkouts', async (c) => {
      const q = parseQuery(c, listQuery);
      const filter = { ...filterOf(q), ...(q.cursor ? { after: decodeCursor(q.cursor) } : {}) };
      const rows = await store.listCheckouts(filter, q.limit + 1);
      const page = rows.slice(0, q.limit);
      return c.json({
        items: await withRefunds(page),
        nextCursor: rows.length > q.limit ? encodeCursor(page.at(-1)!) : null,
      } satisfies CheckoutPage);
    })
    .get('/checkouts/:id', async (c) => {
      const checkout = await findCheckout(store, c.req.param('id'));
      const [events, order, refunds, received] = await Promise.all([
        store.eventsAfter(checkout.id, 0),
        store.findCheckoutsByOrder(checkout.orderId),
        store.refundsOf([checkout.id]),
        store.webhooksOf(checkout.id, WEBHOOKS_SHOWN),
      ]);
      return c.json({
        checkout: adminCheckoutView(checkout, refunds),
        payer: { cpf: checkout.payerCpf ? maskCpf(checkout.payerCpf) : null, name: checkout.payerName },
        events: events.map((e) => ({ seq: e.seq, state: e.state, source: e.source, at: e.at, data: e.data })),
        webhooks: {
          lastWebhookAt: checkout.lastWebhookAt,
          lastCheckedAt: checkout.lastCheckedAt,
          /** The events a provider webhook caused (its re-read moved the checkout). */
          applied: events.filter((e) => e.source === 'webhook').map((e) => ({ seq: e.seq, state: e.state, at: e.at })),
          /** Every webhook received about it (the most recent 50), oldest first: the state it claimed and what became of it. */
          received: received.map(({ receivedAt, state, outcome }) => ({ receivedAt, state, outcome })),
        },
        /** The order's other checkouts (a renewed code, the checkout a duplicate stands beside). */
        order: (await withRefunds(order.filter((o) => o.id !== checkout.id && o.state !== 'Creating'))).map(
          ({ id, state, amount, createdAt, paidAt, duplicateOf, late }) => ({ id, state, amount, createdAt, paidAt, duplicateOf, late }),
        ),
        refunds: refunds.map(cashOutView),
      } satisfies CheckoutDetail);
    })
    .get('/checkouts/:id/provider', async (c) => {
      const checkout = await findCheckout(store, c.req.param('id'));
      if (!checkout.transactionId) throw noTransaction();
      const record = await provider.transactions.retrieve(checkout.transactionId).catch((error: unknown) => {
        throw providerReadFailed(error);
      });
      return c.json({ readAt: clock.now().toISOString(), record: recordView(record) } satisfies ProviderRecord);
    });
}
