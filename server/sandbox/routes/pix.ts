/** PIX cash-in (QR code, starts Registered) and cash-out (to a PIX key, starts Created). */
import { randomBytes } from 'node:crypto';
import { Hono } from 'hono';
import { formatAmount6, formatCents, MICRO_SCALE, microsOf, parseDecimal } from '../../../core/money';
import { cashInRequest, cashOutRequest } from '../../provider/schemas';
import { encodeBrCode } from '../brcode';
import { checkAmount, checkWebhook, urlsAsSent } from '../checks';
import type { SandboxContext } from '../context';
import { checkCpf, checkPixKey, recordKeyType } from '../counterparty';
import { MERCHANT } from '../defaults';
import { invalidRequest, methodNotAllowed, operationError } from '../errors';
import { newId, newTransaction } from '../records';
import { readBody } from '../request';
import { availableMicros } from './balance';

/** A 400 `required` for `property` missing from the object at `path`, as the schema would report it. */
const requiredAt = (path: string, property: string) =>
  invalidRequest([{ path, code: 'required', message: `must have required property '${property}'`, info: { missingProperty: property } }]);

export function pixRoutes(ctx: SandboxContext) {
  return new Hono()
    .post('/cashin', async (c) => {
      const body = await readBody(c, cashInRequest, { asSent: urlsAsSent('/webhook/url') });
      const amountCents = checkAmount(body.payment.value.original, '/payment/value/original');
      checkWebhook(body.webhook);
      // The record's `payment` is "the request as made": the payer's CPF stays as sent (punctuated or not).
      const payer = body.payment.payer;
      if (payer) checkCpf(payer.cpf);
      const editable = body.payment.value.editable ?? false;
      const id = newId();
      const cobId = randomBytes(16).toString('hex');
      const qrCode = encodeBrCode({
        location: ctx.addresses.cobLocation(cobId),
        // An editable charge carries no amount, so the payer's app asks for one.
        amount: editable ? undefined : formatCents(amountCents),
        merchantName: MERCHANT.name,
        merchantCity: MERCHANT.city,
        reference: id,
      });
      const tx = newTransaction(
        {
          id,
          kind: 'pix-cashin',
          now: ctx.clock.now(),
          state: 'Registered',
          amountCents,
          orderId: body.transaction?.orderId,
          orderDescription: body.transaction?.orderDescription,
          webhook: body.webhook,
          payment: {
            value: { original: formatAmount6(amountCents), editable },
            ...(payer ? { payer } : {}),
            qrCode,
            qrCodeLocation: ctx.addresses.qrCodeLocation(id),
          },
          internal: { editable, anonymous: !payer, cobId },
        },
        ctx.chargesOf,
      );
      ctx.store.insert(tx);
      const t = tx.record.transaction;
      return c.json(
        {
          statusCode: 'Done',
          data: {
            transaction: { id: t.id, orderId: t.orderId, date: t.date, state: t.state, amount: t.amount },
            payment: { qrCode, qrCodeLocation: tx.record.payment.qrCodeLocation },
          },
        },
        201,
      );
    })
    .post('/cashout', async (c) => {
      const body = await readBody(c, cashOutRequest, { asSent: urlsAsSent('/webhook/url') });
      const amountCents = checkAmount(body.payment.value, '/payment/value');
      checkWebhook(body.webhook);
      const { key, recipient } = body.payment;
      const account = recipient.account;
      // Three bodies (the public docs): a key, a key plus an account, or an account alone, which needs its digit.
      if (!key && !account) throw requiredAt('/payment', 'key');
      if (!key && account && account.digit === undefined) throw requiredAt('/payment/recipient/account', 'digit');
      if (key && !key.type) throw operationError('PixKeyTypeNotAllowed', 'The PIX key type is missing or not allowed');
      if (key?.type) checkPixKey(key.type, key.value);
      checkCpf(recipient.cpf);
      const id = newId();
      const tx = newTransaction(
        {
          id,
          kind: 'pix-cashout',
          now: ctx.clock.now(),
          state: 'Created',
          amountCents,
          orderId: body.transaction.orderId,
          orderDescription: body.transaction.orderDescription,
          webhook: body.webhook,
          payment: {
            value: { original: formatAmount6(amountCents) },
            // As sent, like the cash-in payer: the key and the recipient's CPF keep their punctuation and case.
            receiver: { name: recipient.name, cpf: recipient.cpf, ...(account ? { account } : {}) },
            key: key?.value ?? null,
            keyType: key?.type ? recordKeyType[key.type] : null,
          },
          internal: { editable: false, anonymous: false },
        },
        ctx.chargesOf,
      );
      const needed = microsOf(amountCents) + (parseDecimal(tx.record.transaction.charges ?? '0', MICRO_SCALE) ?? 0n);
      if (needed > availableMicros(ctx))
        throw operationError('InsufficientBalance', 'The account balance does not cover the amount and its charges');
      ctx.store.insert(tx);
      ctx.lifecycle.scheduleRegistration(id);
      const t = tx.record.transaction;
      return c.json(
        { statusCode: 'Done', data: { transaction: { id: t.id, orderId: t.orderId, date: t.date, state: t.state, amount: t.amount } } },
        201,
      );
    })
    .all('/cashin', methodNotAllowed)
    .all('/cashout', methodNotAllowed);
}
