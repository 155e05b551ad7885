/**
 * The sandbox's controls for a PIX cash-out, at `/sandbox/admin/cashouts/{transactionId}/{complete|error|cancel}`:
 * what the bank would decide, so a back-office can show a cash-out reaching each end. The same lifecycle as the
 * partner API's sandbox operations (the webhook must be delivered, a final state never changes: 409), limited to
 * cash-outs the partner API made (a company payment's execution runs by itself). Portal stand-ins like the other
 * admin routes: every call needs the sandbox admin key.
 */
import { Hono } from 'hono';
import { requireAdminKey } from '../company/routes/admin';
import type { SandboxContext } from '../context';
import { methodNotAllowed, notFound } from '../errors';
import type { TransactionState } from '../../provider/schemas';
import { readPartnerJson } from '../request';

const OUTCOMES: Record<string, TransactionState> = { complete: 'Completed', error: 'Error', cancel: 'Cancelled' };

export function cashOutControlRoutes(ctx: SandboxContext) {
  return new Hono()
    .use('*', requireAdminKey(ctx.company.adminKey))
    .post('/:transactionId/:operation{complete|error|cancel}', async (c) => {
      // No body is needed; one sent anyway is read (so a malformed one gets its 400) and ignored.
      await readPartnerJson(c, { optional: true });
      const id = c.req.param('transactionId');
      const tx = ctx.store.get(id);
      if (!tx || tx.kind !== 'pix-cashout' || tx.record.transaction.category === 'PartnerRecipientPayments') {
        throw notFound(`Cash-out ${id} not found`);
      }
      const to = OUTCOMES[c.req.param('operation')]!;
      const done = await ctx.lifecycle.simulate({
        id,
        to,
        kinds: ['pix-cashout'],
        // The recipient the merchant named is who received the money.
        settle: (stored) => ({
          counterparty: { name: stored.record.payment.receiver?.name ?? '*', taxNumber: stored.record.payment.receiver?.cpf ?? '' },
        }),
      });
      const t = done.record.transaction;
      return c.json({
        statusCode: 'Done',
        data: { transactionId: t.id, transactionState: t.state, ...(t.state === 'Error' ? { stateErrorCause: t.stateErrorCause } : {}) },
      });
    })
    .all('/:transactionId/:operation{complete|error|cancel}', methodNotAllowed);
}
