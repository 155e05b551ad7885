/**
 * The payments received, for the back-office under `/api/admin/checkouts`: the shop's checkouts filtered and paged by
 * cursor (checkout-filter.ts), each with its timeline (its events, the webhooks that moved it) and the provider's
 * record read on demand, late and duplicate payments flagged, each with its refunds (whole or partial) and what they
 * gave back. The CSV export is checkouts-export.ts, the refunds refunds.ts; both show the rows as `adminCheckoutView`
 * does.
 */
import { Hono } from 'hono';
import type { AdminCheckoutView, CheckoutDetail, CheckoutPage, ProviderRecord } from '../../core/backoffice';
import { paidLate } from '../../core/checkout-machine';
import { formatCents, formatDecimal, MICRO_SCALE, microsOf, parseDecimal } from '../../core/money';
import type { Clock } from '../lib/clock';
import type { ProviderClient, TransactionRecord } from '../provider';
import { holdsRefund, type CashOut } from '../store/back-office';
import type { Checkout, Store } from '../store/types';
import { cashOutView } from '../payments/cashouts';
import { refundTotals } from '../payments/refunds';
import { checkoutNotFound, noTransaction, providerReadFailed } from '../payments/errors';
import { parseQuery } from '../bff/validate';
import { expiresAtOf } from '../payments/window';
import { decodeCursor, encodeCursor, filterOf, listQuery } from './checkout-filter';

const COMPLETED = 'Completed';
/** Webhooks listed in a checkout's detail: the most recent ones (a provider retrying for days stays readable). */
const WEBHOOKS_SHOWN = 50;

const text = (details: Record<string, unknown>, name: string) => {
  const value = details[name];
  return typeof value === 'string' ? value : null;
};

/** Paid after its payment window ended (however the BFF heard of it): `paidLate` of core/checkout-machine.ts. */
export const isLate = (c: Checkout) => c.state === COMPLETED && paidLate(text(c.details, 'paidAt') ?? undefined, c.expiresAt);

/**
 * The provider's fee on a paid checkout (its charges, kept by payments/receipt.ts) and what the merchant nets, amount
 * − fee, both exact at the provider's six decimals ("0.599000", "9.401000"); null when the provider gave no charges.
 */
function feeAndNet(c: Checkout): { fee: string | null; net: string | null } {
  const charges = c.state === COMPLETED ? text(c.details, 'charges') : null;
  const fee = charges === null ? undefined : parseDecimal(charges, MICRO_SCALE);
  if (fee === undefined) return { fee: null, net: null };
  return { fee: formatDecimal(fee, MICRO_SCALE), net: formatDecimal(microsOf(c.amountCents) - fee, MICRO_SCALE) };
}

/** A refund counts while it holds its amount (waiting for approval, sending, under way or done); the latest one is shown. */
const liveRefund = (refunds: CashOut[]) => refunds.filter((r) => holdsRefund(r.state)).at(-1) ?? refunds.at(-1);

const NOTHING_REFUNDED = formatCents(0);

/** One row of the back-office list (core/backoffice's `AdminCheckoutView`): what the merchant needs, no payer data. */
export function adminCheckoutView(c: Checkout, refunds: CashOut[] = []): AdminCheckoutView {
  const refund = liveRefund(refunds);
  return {
    id: c.id,
    orderId: c.orderId,
    method: c.method,
    state: c.state,
    amount: formatCents(c.amountCents),
    description: c.description,
    transactionId: c.transactionId,
    createdAt: c.createdAt,
    updatedAt: c.updatedAt,
    expiresAt: expiresAtOf(c),
    paidAt: c.state === COMPLETED ? text(c.details, 'paidAt') : null,
    payerBank: c.state === COMPLETED ? text(c.details, 'payerBank') : null,
    ...feeAndNet(c),
    duplicateOf: c.duplicateOf,
    late: isLate(c),
    /** The latest refund that counts (else the latest one): kept for the pages that show one refund. */
    refund: refund ? cashOutView(refund) : null,
    refunds: refunds.map(cashOutView),
    refunded: refunds.length === 0 ? NOTHING_REFUNDED : formatCents(refundTotals(c, refunds).refundedCents),
  };
}

/** The rows' views, each with its refunds (one store query for all of them). */
export const viewsWithRefunds = (store: Store) => async (checkouts: Checkout[]) => {
  // Grouped once, in their order (oldest first): an export's page asks this for hundreds of checkouts, most with none.
  const byCheckout = new Map<string, CashOut[]>();
  for (const refund of await store.refundsOf(checkouts.map((c) => c.id))) {
    if (refund.refundOf === null) continue;
    const list = byCheckout.get(refund.refundOf);
    if (list) list.push(refund);
    else byCheckout.set(refund.refundOf, [refund]);
  }
  return checkouts.map((c) => adminCheckoutView(c, byCheckout.get(c.id)));
};

/** The checkout `id`, or a 404 for an unknown one or one still being created. */
export async function findCheckout(store: Store, id: string): Promise<Checkout> {
  const checkout = id.length <= 64 ? await store.getCheckout(id) : undefined;
  if (!checkout || checkout.state === 'Creating') throw checkoutNotFound('No such checkout.');
  return checkout;
}

/** The provider's record as the back-office may see it: the webhook's secret header value is never shown. */
function recordView(record: TransactionRecord) {
  const { customHeaderValue, ...webhook } = record.webhook;
  return { ...record, webhook: { ...webhook, ...(customHeaderValue ? { customHeaderValue: '********' } : {}) } };
}

export interface CheckoutRoutesOptions {
  provider: ProviderClient;
  store: Store;
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
