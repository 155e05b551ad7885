/**
 * The merchant's back-office API under `/api/admin`: balance, transactions, the payments received (admin-checkouts.ts),
 * cash-outs made safely (admin-cashouts.ts), company payments, and live updates (admin-stream.ts). Only a bearer admin
 * token opens it (no cookies, no CORS), so a storefront page can never reach it.
 */
import { Hono } from 'hono';
import { z } from 'zod';
import type { Clock } from '../lib/clock';
import { parseCents } from '../../core/money';
import { safeEqual } from '../lib/secrets';
import { approvalFilter, pixKeyType, ProviderError, type ProviderClient } from '../provider';
import type { StatusHub, Store } from '../store/types';
import { cashOutView, createCashOutDesk } from '../payments/cashouts';
import { adminCheckoutRoutes, idempotencyKey } from './checkouts';
import { createAdminStreams } from './stream';
import { ApiError, errorBody, fromProviderError } from '../payments/errors';
import type { WebhookTarget } from '../payments/service';
import { parseJson, parseQuery } from '../bff/validate';

/** Largest invoice the BFF streams to the provider. */
export const MAX_INVOICE_BYTES = 10 * 1024 * 1024;

const amount = z.string().refine((v) => (parseCents(v) ?? 0n) > 0n, 'A positive amount with at most 2 decimals, like "150.00"');
const cashOutBody = z.object({
  recipient: z.object({ name: z.string().trim().min(1).max(120), cpf: z.string().max(32) }),
  key: z.object({ type: pixKeyType, value: z.string().trim().min(1).max(140) }),
  amount,
  orderId: z.string().trim().min(1).max(64).optional(),
  description: z.string().trim().max(140).optional(),
});
const paymentRequestBody = z.object({
  amount,
  description: z.string().trim().min(1).max(140),
  receiverId: z.string().min(1).max(64),
  accountId: z.string().min(1).max(64),
});
const pageQuery = {
  limit: z.coerce
    .number()
    .pipe(z.union([z.literal(5), z.literal(10), z.literal(20)]))
    .default(10),
  offset: z.coerce.number().int().min(0).default(0),
};
const receiversQuery = z.object({ ...pageQuery, status: approvalFilter.optional() });
const cashOutsQuery = z.object({ limit: z.coerce.number().int().min(1).max(50).default(10) });
const quoteQuery = z.object({ amount });

/** Dates the back-office may ask about: from 2000 to a year from now (anything else is a typo or a probe). */
const EARLIEST = Date.UTC(2000, 0, 1);
const YEAR_MS = 366 * 24 * 60 * 60 * 1000;
const saneDates = (clock: Clock) => {
  const inRange = (iso: string) => {
    const ms = Date.parse(iso);
    return Number.isFinite(ms) && ms >= EARLIEST && ms <= clock.now().getTime() + YEAR_MS;
  };
  const message = 'A date from 2000-01-01 to a year from now';
  const instant = z.iso.datetime().refine(inRange, message);
  // The ISO pattern alone lets 2023-02-30 through; the date must also read back as itself. (Refinements run after a
  // failed format check too, so they must not throw on any string.)
  const calendarDay = (d: string) => {
    const ms = Date.parse(`${d}T00:00:00.000Z`);
    return Number.isFinite(ms) && new Date(ms).toISOString().startsWith(`${d}T`);
  };
  const day = z.iso
    .date()
    .refine(calendarDay, 'A calendar date')
    .refine((d) => inRange(`${d}T00:00:00.000Z`), message);
  return {
    requestsQuery: z
      .object({ ...pageQuery, status: approvalFilter.default('Pending'), startDate: instant, endDate: instant })
      .refine((q) => Date.parse(q.endDate) >= Date.parse(q.startDate), { message: 'Must not be before startDate', path: ['endDate'] }),
    transactionsQuery: z.object({ orderId: z.string().min(1).max(64), date: day.optional() }),
  };
};

/** The uploaded file's name as the client percent-encoded it, or a 400 when that encoding is broken. */
function invoiceFileName(header: string | undefined): string {
  let name: string;
  try {
    name = decodeURIComponent(header ?? 'invoice.pdf');
  } catch {
    throw new ApiError(400, 'invalid_file_name', 'X-File-Name must be percent-encoded (encodeURIComponent).');
  }
  return name.replace(/[^\w.\- ]/g, '_').slice(0, 120) || 'invoice.pdf';
}

export interface AdminRoutesOptions {
  provider: ProviderClient;
  adminToken: string;
  clock: Clock;
  webhook: WebhookTarget;
  store: Store;
  hub: StatusHub;
  /** Tuning of the live stream and of a repeated cash-out key (tests). */
  tuning?: { cashOutWaitMs?: number; cashOutStaleMs?: number; followMs?: number; heartbeatMs?: number };
}

/** A provider refusal the merchant can act on keeps its status and reason; anything else is a 502. */
function adminError(error: unknown): ApiError {
  if (error instanceof ProviderError && error.status >= 400 && error.status < 500 && error.status !== 401) {
    return new ApiError(error.status as 400, error.reason ?? error.code ?? 'provider_refused', error.message, error.details);
  }
  return fromProviderError(error);
}

export function backOfficeRoutes({ provider, adminToken, clock, webhook, store, hub, tuning = {} }: AdminRoutesOptions) {
  const desk = createCashOutDesk({
    provider,
    store,
    hub,
    clock,
    webhook,
    ...(tuning.cashOutWaitMs !== undefined ? { waitMs: tuning.cashOutWaitMs } : {}),
    ...(tuning.cashOutStaleMs !== undefined ? { staleMs: tuning.cashOutStaleMs } : {}),
  });
  const streams = createAdminStreams({
    hub,
    desk,
    ...(tuning.followMs !== undefined ? { followMs: tuning.followMs } : {}),
    ...(tuning.heartbeatMs !== undefined ? { heartbeatMs: tuning.heartbeatMs } : {}),
  });
  const call = <T>(work: Promise<T>) => work.catch((error: unknown) => Promise.reject(adminError(error)));
  const { requestsQuery, transactionsQuery } = saneDates(clock);

  return (
    new Hono()
      .use(async (c, next) => {
        const header = c.req.header('authorization') ?? '';
        const token = header.startsWith('Bearer ') ? header.slice(7) : undefined;
        if (!safeEqual(token, adminToken)) {
          return c.json(errorBody('AuthenticationError', 'admin_unauthorized', 'A valid admin token is required.'), 401);
        }
        c.header('cache-control', 'no-store');
        await next();
      })
      .get('/balance', async (c) => c.json(await call(provider.balance.retrieve())))
      .get('/transactions', async (c) => {
        const { orderId, date } = parseQuery(c, transactionsQuery);
        // The provider lists at most one day at a time; the day is UTC.
        const day = date ?? clock.now().toISOString().slice(0, 10);
        const startDate = `${day}T00:00:00.000Z`;
        const endDate = `${day}T23:59:59.999Z`;
        return c.json(
          await call(
            provider.transactions.list({ transactionOrderId: orderId, startDate, endDate, 'dataset.limit': 20, 'dataset.offset': 0 }),
          ),
        );
      })
      // One cash-out per Idempotency-Key: the same key (a double click, a retry, another instance) answers the same one.
      .post('/cashouts', async (c) => {
        const key = idempotencyKey(c);
        const body = await parseJson(c, cashOutBody);
        const { created, cashOut } = await desk.send(key, {
          recipient: { name: body.recipient.name, cpf: body.recipient.cpf.replace(/\D/g, '') },
          key: body.key,
          amountCents: parseCents(body.amount)!,
          orderId: body.orderId,
          description: body.description,
        });
        return c.json(cashOutView(cashOut), created ? 201 : 200);
      })
      .get('/cashouts', async (c) => {
        const { limit } = parseQuery(c, cashOutsQuery);
        return c.json({ items: (await desk.recent(limit)).map(cashOutView) });
      })
      .get('/cashouts/quote', async (c) => {
        const q = parseQuery(c, quoteQuery);
        const charges = await desk.quote(parseCents(q.amount)!).catch(() => undefined);
        return c.json({ amount: q.amount, charges: charges ?? null });
      })
      .get('/events', () => {
        const body = streams.stream();
        return new Response(body, {
          headers: { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-store', 'x-accel-buffering': 'no' },
        });
      })
      .route('/', adminCheckoutRoutes({ provider, store, clock, desk }))
      .get('/receivers', async (c) => {
        const q = parseQuery(c, receiversQuery);
        return c.json(
          await call(
            provider.receivers.list({
              'dataset.limit': q.limit,
              'dataset.offset': q.offset,
              ...(q.status ? { receiverStatus: q.status } : {}),
            }),
          ),
        );
      })
      .get('/receivers/:id', async (c) => c.json(await call(provider.receivers.retrieve(c.req.param('id')))))
      .get('/receivers/:id/accounts', async (c) => c.json({ items: await call(provider.receivers.listAccounts(c.req.param('id'))) }))
      .post('/payment-requests', async (c) => {
        const body = await parseJson(c, paymentRequestBody);
        const created = await call(
          provider.paymentRequests.create({
            amount: body.amount,
            description: body.description,
            refReceiver: body.receiverId,
            refBankAccount: body.accountId,
          }),
        );
        return c.json(created, 201);
      })
      .get('/payment-requests', async (c) => {
        const q = parseQuery(c, requestsQuery);
        return c.json(
          await call(
            provider.paymentRequests.list({
              'dataset.limit': q.limit,
              'dataset.offset': q.offset,
              status: q.status,
              startDate: q.startDate,
              endDate: q.endDate,
            }),
          ),
        );
      })
      .get('/payment-requests/:id', async (c) => c.json(await call(provider.paymentRequests.retrieve(c.req.param('id')))))
      .post('/payment-requests/:id/cancel', async (c) => {
        await call(provider.paymentRequests.cancel(c.req.param('id')));
        return c.json({ statusCode: 'Done' });
      })
      .put('/payment-requests/:id/invoice', async (c) => {
        const id = c.req.param('id');
        const size = Number(c.req.header('content-length'));
        if (!Number.isSafeInteger(size) || size <= 0) throw new ApiError(411, 'length_required', 'Send the file with its Content-Length.');
        if (size > MAX_INVOICE_BYTES)
          throw new ApiError(413, 'file_too_large', `The invoice must be at most ${MAX_INVOICE_BYTES / 1024 / 1024} MiB.`);
        const contentType = c.req.header('content-type') ?? 'application/octet-stream';
        if (contentType !== 'application/pdf') throw new ApiError(415, 'pdf_required', 'The invoice must be a PDF.');
        const fileName = invoiceFileName(c.req.header('x-file-name'));
        const address = await call(
          provider.documents.createUploadAddress({
            properties: { name: fileName },
            ownerType: 'Transaction',
            owner: id,
            type: 'Invoice',
            fileName,
          }),
        );
        // The browser's bytes go straight through to the provider's address; the BFF never buffers the file.
        const document = await call(provider.documents.upload(address, c.req.raw.body!, { contentType, size }));
        return c.json({ statusCode: 'Done', data: document ?? null }, 201);
      })
      .get('/payment-requests/:id/documents', async (c) =>
        c.json(await call(provider.documents.list({ type: 'Invoice', ownerType: 'Transaction', owner: c.req.param('id') }))),
      )
      .delete('/documents/:id', async (c) => {
        await call(provider.documents.delete(c.req.param('id')));
        return c.json({ statusCode: 'Done' });
      })
  );
}
