/** PIX: a BR Code the payer scans or pastes in their bank's app. Payer optional (an identified PIX when given). */
import { fromTransactionState } from '../../../core/states';
import { textField, type MethodAdapter } from './adapter';

export const pix: MethodAdapter = {
  method: 'pix',
  payerCpf: 'optional',
  draftDetails: () => ({}),
  async start({ provider, checkout, order, webhook, value }) {
    const payer = checkout.payerCpf ? { cpf: checkout.payerCpf, ...(checkout.payerName ? { name: checkout.payerName } : {}) } : undefined;
    const created = await provider.pix.createCashIn({
      payment: { ...(payer ? { payer } : {}), value },
      transaction: { orderId: checkout.orderId, orderDescription: order.description },
      webhook,
    });
    return {
      state: fromTransactionState(created.transaction.state) ?? 'Registered',
      transactionId: created.transaction.id,
      details: { qrCode: created.payment.qrCode, qrCodeLocation: created.payment.qrCodeLocation },
    };
  },
  // A cash-in: a credit that is not an OpenFinance initiation (the provider's samples say paymentType "PIX").
  recognizes: ({ transaction }) => transaction.type === 'Credit' && (transaction.paymentType ?? 'PIX').toUpperCase() === 'PIX',
  // The record carries the code, so a cash-in found after a crash or a timeout can still be shown and paid.
  resumable: ({ payment }) => (payment.qrCode ? { qrCode: payment.qrCode, qrCodeLocation: payment.qrCodeLocation ?? null } : undefined),
  view: (details) => ({ qrCode: textField(details, 'qrCode'), qrCodeLocation: textField(details, 'qrCodeLocation') }),
};
