/** `POST /accounts/payment-initiation`: an OpenFinance cash-in; the payer approves it on the bank page. */
import { randomUUID } from 'node:crypto';
import { Hono } from 'hono';
import { formatAmount6 } from '../../../core/money';
import { initiationRequest } from '../../provider/schemas';
import { checkAmount, checkWebhook, urlsAsSent } from '../checks';
import type { SandboxContext } from '../context';
import { checkCpf } from '../counterparty';
import { methodNotAllowed } from '../errors';
import { newId, newTransaction } from '../records';
import { readBody } from '../request';

export function initiationRoutes(ctx: SandboxContext) {
  return new Hono()
    .post('/', async (c) => {
      const body = await readBody(c, initiationRequest, { asSent: urlsAsSent('/webhook/url', '/payment/redirectUrl') });
      const amountCents = checkAmount(body.payment.value.original, '/payment/value/original');
      checkWebhook(body.webhook);
      const cpf = body.payment.payer.taxNumber;
      checkCpf(cpf);
      const id = newId();
      // The uuid segment makes the bank page address unguessable even to someone who knows the transaction id.
      const checkoutUuid = randomUUID();
      const tx = newTransaction(
        {
          id,
          kind: 'openfinance',
          now: ctx.clock.now(),
          state: 'Registered',
          amountCents,
          orderId: body.transaction?.orderId,
          orderDescription: body.transaction?.orderDescription,
          webhook: body.webhook,
          // The record names the payer's document `cpf`; its value stays as sent.
          payment: { value: { original: formatAmount6(amountCents) }, payer: { cpf } },
          internal: { editable: false, anonymous: false, checkoutUuid, redirectUrl: body.payment.redirectUrl },
        },
        ctx.chargesOf,
      );
      ctx.store.insert(tx);
      return c.json({ statusCode: 'Done', data: { transactionId: id, checkoutUrl: ctx.addresses.checkout(checkoutUuid, id) } }, 201);
    })
    .all('/', methodNotAllowed);
}
