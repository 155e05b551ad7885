/**
 * The payments received, for the back-office under `/api/admin/checkouts`: the shop's checkouts filtered and paged by
 * cursor, each with its timeline (its events, the webhooks that moved it) and the provider's record read on demand, a
 * streamed CSV export of the filtered list, late and duplicate payments flagged, and the refund of a duplicate payment
 * by a PIX cash-out to its payer, linked to the checkout.
 */
import { Hono, type Context } from 'hono';
import { z } from 'zod';
import { isValidCpf } from '../../core/cpf';
import { METHODS } from '../../core/methods';
import { formatCents } from '../../core/money';
import { CHECKOUT_STATES } from '../../core/states';
import type { Clock } from '../lib/clock';
import type { ProviderClient, TransactionRecord } from '../provider';
import type { CashOut, CheckoutFilter } from '../store/back-office';
import type { Checkout, Store } from '../store/types';
import { cashOutView, IDEMPOTENCY_KEY, maskCpf, sha256, type CashOutDesk } from '../payments/cashouts';
import { ApiError } from '../payments/errors';
import { parseQuery } from '../bff/validate';
import { expiresAtOf } from '../payments/window';

const COMPLETED = 'Completed';
const PAGE_SIZES = [10, 20, 50] as const;
/** Rows the CSV export reads from the store at a time. */
const EXPORT_BATCH = 200;
/** The export stops after this many rows (a month of a busy shop); narrow the filters for more. */
export const MAX_EXPORT_ROWS = 100_000;
/** Webhooks listed in a checkout's detail: the most recent ones (a provider retrying for days stays readable). */
const WEBHOOKS_SHOWN = 50;

const instant = z.iso.datetime({ offset: true });
const filterQuery = z.object({
  state: z
    .string()
    .max(200)
    .transform((v) => v.split(',').filter(Boolean))
    .pipe(z.array(z.enum(CHECKOUT_STATES)))
    .optional(),
  method: z.enum(METHODS).optional(),
  from: instant.optional(),
  to: instant.optional(),
  orderId: z.string().trim().min(1).max(64).optional(),
  flag: z.enum(['duplicate', 'late', 'flagged']).optional(),
});
const listQuery = filterQuery.extend({
  limit: z.coerce
    .number()
    .pipe(z.union(PAGE_SIZES.map((n) => z.literal(n)) as unknown as [z.ZodLiteral<10>, z.ZodLiteral<20>, z.ZodLiteral<50>]))
    .default(20),
  cursor: z.string().max(200).optional(),
});

/** The cursor is the last row's (createdAt, id), opaque to the client. */
const encodeCursor = (c: Checkout) => Buffer.from(JSON.stringify([c.createdAt, c.id])).toString('base64url');
function decodeCursor(cursor: string): { createdAt: string; id: string } {
  try {
    const [createdAt, id] = z
      .tuple([instant, z.string().min(1).max(64)])
      .parse(JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')));
    return { createdAt, id };
  } catch {
    throw new ApiError(400, 'invalid_cursor', 'The cursor is not one this list gave.');
  }
}

function filterOf(q: z.output<typeof filterQuery>): CheckoutFilter {
  if (q.from && q.to && Date.parse(q.to) <= Date.parse(q.from)) {
    throw new ApiError(400, 'invalid_request', 'Query: to must be after from.', [{ path: 'to', message: 'Must be after from' }]);
  }
  return {
    ...(q.state?.length ? { states: q.state } : {}),
    ...(q.method ? { method: q.method } : {}),
    ...(q.from ? { from: q.from } : {}),
    ...(q.to ? { to: q.to } : {}),
    ...(q.orderId ? { orderId: q.orderId } : {}),
    ...(q.flag ? { flag: q.flag } : {}),
  };
}

const text = (details: Record<string, unknown>, name: string) => {
  const value = details[name];
  return typeof value === 'string' ? value : null;
};

/** Paid after its payment window ended (however the BFF heard of it). */
export const isLate = (c: Checkout) => c.state === COMPLETED && (text(c.details, 'paidAt') ?? '') > expiresAtOf(c);

/** A refund counts while it is sending, under way or done; the latest one is shown. */
const liveRefund = (refunds: CashOut[]) =>
  refunds.filter((r) => !['Error', 'Cancelled', 'Reversed'].includes(r.state)).at(-1) ?? refunds.at(-1);

/** One row of the back-office list: what the merchant needs, no payer data. */
export function adminCheckoutView(c: Checkout, refunds: CashOut[] = []) {
  const refund = liveRefund(refunds);
  return {
    id: c.id,
    orderId: c.orderId,
    method: c.method,
    state: c.state,
    amount: formatCents(BigInt(c.amountCents)),
    description: c.description,
    transactionId: c.transactionId,
    createdAt: c.createdAt,
    updatedAt: c.updatedAt,
    expiresAt: expiresAtOf(c),
    paidAt: c.state === COMPLETED ? text(c.details, 'paidAt') : null,
    payerBank: c.state === COMPLETED ? text(c.details, 'payerBank') : null,
    /** The checkout of the order this one duplicates: the order was paid twice when both are Completed. */
    duplicateOf: c.duplicateOf,
    late: isLate(c),
    refund: refund ? cashOutView(refund) : null,
  };
}
export type AdminCheckoutView = ReturnType<typeof adminCheckoutView>;

const CSV_COLUMNS = [
  'id',
  'orderId',
  'method',
  'state',
  'amount',
  'currency',
  'createdAt',
  'expiresAt',
  'paidAt',
  'transactionId',
  'duplicateOf',
  'late',
  'refundState',
  'refundTransactionId',
  'description',
] as const;

/** RFC 4180 quoting; a cell a spreadsheet would run as a formula (`=`, `+`, `-`, `@`, tab, CR) is prefixed with `'`. */
export function csvCell(value: string | number | boolean | null | undefined): string {
  let cell = value === null || value === undefined ? '' : String(value);
  if (/^[=+\-@\t\r]/.test(cell)) cell = `'${cell}`;
  return /[",\r\n]/.test(cell) ? `"${cell.replace(/"/g, '""')}"` : cell;
}

function csvRow(v: AdminCheckoutView): string {
  const cells: Record<(typeof CSV_COLUMNS)[number], string | boolean | null> = {
    id: v.id,
    orderId: v.orderId,
    method: v.method,
    state: v.state,
    amount: v.amount,
    currency: 'BRL',
    createdAt: v.createdAt,
    expiresAt: v.expiresAt,
    paidAt: v.paidAt,
    transactionId: v.transactionId,
    duplicateOf: v.duplicateOf,
    late: v.late,
    refundState: v.refund?.state ?? null,
    refundTransactionId: v.refund?.transactionId ?? null,
    description: v.description,
  };
  return `${CSV_COLUMNS.map((name) => csvCell(cells[name])).join(',')}\r\n`;
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
  desk: CashOutDesk;
}

/** The `Idempotency-Key` header of a request that moves money; 400 when missing or malformed. */
export function idempotencyKey(c: Context): string {
  const key = c.req.header('idempotency-key');
  if (!key) throw new ApiError(400, 'idempotency_key_required', 'Send an Idempotency-Key header (a new UUID per cash-out).');
  if (!IDEMPOTENCY_KEY.test(key)) {
    throw new ApiError(400, 'idempotency_key_invalid', 'The Idempotency-Key must be 8 to 128 letters, digits, or . _ : -');
  }
  return key;
}

export function adminCheckoutRoutes({ provider, store, clock, desk }: CheckoutRoutesOptions) {
  const withRefunds = async (checkouts: Checkout[]) => {
    const refunds = await store.refundsOf(checkouts.map((c) => c.id));
    return checkouts.map((c) =>
      adminCheckoutView(
        c,
        refunds.filter((r) => r.refundOf === c.id),
      ),
    );
  };
  const checkoutOr404 = async (id: string) => {
    const checkout = id.length <= 64 ? await store.getCheckout(id) : undefined;
    if (!checkout || checkout.state === 'Creating') throw new ApiError(404, 'checkout_not_found', 'No such checkout.');
    return checkout;
  };

  /**
   * Who gets a refund of this checkout, or why it cannot have one: only a Completed duplicate of an order that was
   * also paid by another checkout, whose payer the provider names with a valid CPF (the refund goes to that CPF as
   * a PIX key).
   */
  async function refundPlan(checkout: Checkout) {
    if (!checkout.duplicateOf || checkout.state !== COMPLETED) {
      throw new ApiError(409, 'not_a_duplicate_payment', 'Only a completed duplicate payment of an order can be refunded here.');
    }
    const order = await store.findCheckoutsByOrder(checkout.orderId);
    if (!order.some((c) => c.id !== checkout.id && c.state === COMPLETED)) {
      throw new ApiError(409, 'order_not_paid_twice', 'The order has no other completed payment: this one is the one that pays it.');
    }
    const record = await provider.transactions.retrieve(checkout.transactionId!).catch((error: unknown) => {
      throw new ApiError(502, 'provider_unavailable', 'Could not read the payment at the provider.', undefined, { cause: error });
    });
    const payer = record.transaction.payer;
    const cpf = payer?.taxNumber?.replace(/\D/g, '') ?? '';
    if (!payer?.name || !isValidCpf(cpf)) {
      throw new ApiError(409, 'payer_not_refundable', 'The provider names no payer with a CPF for this payment; refund it by hand.');
    }
    return {
      recipient: { name: payer.name.slice(0, 120), cpf },
      key: { type: 'CPF' as const, value: cpf },
      amountCents: BigInt(checkout.amountCents),
      refundOf: checkout.id,
      description: `Reembolso do pagamento duplicado do pedido ${checkout.orderId}`.slice(0, 140),
    };
  }

  return new Hono()
    .get('/checkouts', async (c) => {
      const q = parseQuery(c, listQuery);
      const filter = { ...filterOf(q), ...(q.cursor ? { after: decodeCursor(q.cursor) } : {}) };
      const rows = await store.listCheckouts(filter, q.limit + 1);
      const page = rows.slice(0, q.limit);
      return c.json({ items: await withRefunds(page), nextCursor: rows.length > q.limit ? encodeCursor(page.at(-1)!) : null });
    })
    .get('/checkouts/export.csv', (c) => {
      const filter = filterOf(parseQuery(c, filterQuery));
      let after: { createdAt: string; id: string } | undefined;
      let sent = 0;
      const encoder = new TextEncoder();
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          // The BOM lets spreadsheets read the accents; then the header row.
          controller.enqueue(encoder.encode(`\uFEFF${CSV_COLUMNS.join(',')}\r\n`));
        },
        // One batch per pull: the response is written as the client reads it, never held whole in memory.
        async pull(controller) {
          const batch = await store.listCheckouts({ ...filter, ...(after ? { after } : {}) }, EXPORT_BATCH);
          if (batch.length > 0) {
            controller.enqueue(encoder.encode((await withRefunds(batch)).map(csvRow).join('')));
            sent += batch.length;
            after = { createdAt: batch.at(-1)!.createdAt, id: batch.at(-1)!.id };
          }
          if (batch.length < EXPORT_BATCH || sent >= MAX_EXPORT_ROWS) controller.close();
        },
      });
      const day = clock.now().toISOString().slice(0, 10);
      return new Response(body, {
        headers: {
          'content-type': 'text/csv; charset=utf-8',
          'content-disposition': `attachment; filename="pagamentos-${day}.csv"`,
          'cache-control': 'no-store',
          'x-content-type-options': 'nosniff',
        },
      });
    })
    .get('/checkouts/:id', async (c) => {
      const checkout = await checkoutOr404(c.req.param('id'));
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
      });
    })
    .get('/checkouts/:id/provider', async (c) => {
      const checkout = await checkoutOr404(c.req.param('id'));
      if (!checkout.transactionId) throw new ApiError(409, 'no_transaction', 'This checkout has no provider transaction.');
      const record = await provider.transactions.retrieve(checkout.transactionId).catch((error: unknown) => {
        throw new ApiError(502, 'provider_unavailable', 'Could not read the payment at the provider.', undefined, { cause: error });
      });
      return c.json({ readAt: clock.now().toISOString(), record: recordView(record) });
    })
    .get('/checkouts/:id/refund', async (c) => {
      const checkout = await checkoutOr404(c.req.param('id'));
      const plan = await refundPlan(checkout);
      const charges = await desk.quote(plan.amountCents).catch(() => undefined);
      return c.json({
        checkoutId: checkout.id,
        recipient: { name: plan.recipient.name, cpf: maskCpf(plan.recipient.cpf) },
        key: { type: plan.key.type, value: maskCpf(plan.key.value) },
        amount: formatCents(plan.amountCents),
        charges: charges ?? null,
        description: plan.description,
      });
    })
    .post('/checkouts/:id/refund', async (c) => {
      const key = idempotencyKey(c);
      const checkout = await checkoutOr404(c.req.param('id'));
      // A key already used answers its cash-out, even once the checkout can no longer be refunded (it was).
      const existing = await store.getCashOut(key);
      if (existing && existing.refundOf === checkout.id && existing.fingerprint === sha256(`refund:${checkout.id}`)) {
        return c.json(cashOutView(existing), 200);
      }
      const plan = await refundPlan(checkout);
      const { created, cashOut } = await desk.send(key, { ...plan, fingerprint: sha256(`refund:${checkout.id}`) });
      return c.json(cashOutView(cashOut), created ? 201 : 200);
    });
}
