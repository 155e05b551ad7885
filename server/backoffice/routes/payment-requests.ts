/**
 * The company's payment requests (paying a receiver's bank account), for the back office. They move the merchant's
 * money (the provider's approval flow executes what it is asked), so they are movements like cash-outs: `POST
 * /payment-requests` asks the provider once per `Idempotency-Key` (server/payments/company-payments.ts), or keeps the
 * request for an owner's approval above the threshold (202, `PendingApproval`: nothing reaches the provider before,
 * see approvals.ts); `POST /payment-requests/:id/cancel` cancels one at the provider. Both are audited as movements
 * (`payment_request.create`, `payment_request.cancel`: asked, waiting, refused, failed). Lists and reads are the
 * provider's. Their invoices are invoices.ts.
 */
import { Hono } from 'hono';
import { z } from 'zod';
import { CASH_OUT_PENDING_APPROVAL } from '../../../core/cashout-machine';
import { formatCents, parseCents } from '../../../core/money';
import type { Clock } from '../../lib/clock';
import type { ProviderClient } from '../../provider';
import type { CompanyPaymentStore } from '../../store/company-payments';
import type { CompanyPaymentDesk, DeskPayment } from '../../payments/company-payments';
import { parseJson, parseQuery } from '../../http/json-body';
import type { BackOfficeEnv } from '../actor';
import { companyPaymentView } from '../company-payment-view';
import { keyOrNew } from '../idempotency-key';
import { auditedMovement } from '../movement-audit';
import { callProvider } from '../provider-call';
import { amount, saneDates } from '../queries';
import type {
  PaymentRequestCreated,
  PaymentRequestDetailView,
  PaymentRequestInput,
  PaymentRequestView,
  ProviderPage,
} from '../../../core/backoffice';
import { taking } from '../wire-check';

const paymentRequestBody = taking<PaymentRequestInput>()(
  z.object({
    amount,
    description: z.string().trim().min(1).max(140),
    receiverId: z.string().min(1).max(64),
    accountId: z.string().min(1).max(64),
  }),
);

export interface PaymentRequestRoutesOptions {
  provider: ProviderClient;
  store: CompanyPaymentStore;
  desk: CompanyPaymentDesk;
  clock: Clock;
}

export function paymentRequestRoutes({ provider, store, desk, clock }: PaymentRequestRoutesOptions) {
  const { requestsQuery } = saneDates(clock);

  /** The provider's request a payment became, as the provider answered (or now reads) it, with the key it is kept under. */
  async function requested(payment: DeskPayment): Promise<PaymentRequestCreated> {
    const answer = payment.answer ?? (await callProvider(provider.paymentRequests.retrieve(payment.requestId!))).entity;
    return { ...answer, idempotencyKey: payment.idempotencyKey };
  }

  return new Hono<BackOfficeEnv>()
    .post('/payment-requests', async (c) => {
      const key = keyOrNew(c);
      const body = await parseJson(c, paymentRequestBody);
      const details = { idempotencyKey: key, amount: body.amount, receiverId: body.receiverId, accountId: body.accountId };
      const { created, payment } = await auditedMovement(
        c,
        { action: 'payment_request.create', target: key, details },
        () =>
          desk.request(key, {
            amountCents: parseCents(body.amount)!,
            description: body.description,
            receiverId: body.receiverId,
            accountId: body.accountId,
            requestedBy: c.get('actor').name,
          }),
        (result) => ({
          outcome: result.payment.state === CASH_OUT_PENDING_APPROVAL ? 'pending_approval' : 'ok',
          details: { state: result.payment.state, requestId: result.payment.requestId, repeated: !result.created },
        }),
      );
      // Kept for approval (or rejected there): ours to show. Asked for: the provider's request, as before.
      if (payment.requestId === null) return c.json(companyPaymentView(payment), !created ? 200 : 202);
      return c.json(await requested(payment), created ? 201 : 200);
    })
    .get('/payment-requests', async (c) => {
      const q = parseQuery(c, requestsQuery);
      const page = await callProvider(
        provider.paymentRequests.list({
          'dataset.limit': q.limit,
          'dataset.offset': q.offset,
          status: q.status,
          startDate: q.startDate,
          endDate: q.endDate,
        }),
      );
      return c.json(page satisfies ProviderPage<PaymentRequestView>);
    })
    .get('/payment-requests/:id', async (c) => {
      const detail = await callProvider(provider.paymentRequests.retrieve(c.req.param('id')));
      return c.json(detail satisfies PaymentRequestDetailView);
    })
    .post('/payment-requests/:id/cancel', async (c) => {
      const id = c.req.param('id');
      const ours = await store.findCompanyPaymentByRequest(id);
      const details = { requestId: id, ...(ours && { idempotencyKey: ours.idempotencyKey, amount: formatCents(ours.amountCents) }) };
      await auditedMovement(
        c,
        { action: 'payment_request.cancel', target: id, details },
        () => callProvider(provider.paymentRequests.cancel(id)),
        () => ({ outcome: 'ok' }),
      );
      return c.json({ statusCode: 'Done' });
    });
}
