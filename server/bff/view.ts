/** What a browser may see of a checkout: no payer data beyond what it sent, no provider secrets. */
import { RECEIPT_FIELDS, type CheckoutMethodFields, type CheckoutWire } from '../../core/contract';
import { formatCents } from '../../core/money';
import { isLive, type CheckoutState } from '../../core/states';
import type { Checkout, CheckoutEvent } from '../store/types';
import { METHOD_ADAPTERS } from '../payments/methods';
import { textField } from '../payments/methods/adapter';
import { qrMatrixOf, type QrMatrix } from '../lib/qr/matrix';
import { expiresAtOf } from '../payments/window';

/**
 * The wire shape of a checkout (core/contract.ts); `state` is never `Creating` here, because routes treat such a
 * checkout as not found. With `at`, the checkout as it was at that event (an event stream replaying older states): its
 * state and date, and the receipt (receipt.ts keeps it in the details) only when that state is Completed. A PIX code
 * still payable comes with its QR symbol (`qrMatrix`) unless `qr` is false: event streams leave it out, since the code
 * never changes and the element keeps the symbol it was given.
 */
export function toView(checkout: Checkout, at?: Pick<CheckoutEvent, 'state' | 'at'>, { qr = true } = {}): CheckoutWire {
  const state = (at?.state ?? checkout.state) as CheckoutState;
  const fields = Object.entries(METHOD_ADAPTERS[checkout.method].view(checkout.details)).filter(([, value]) => value !== null);
  const receipt =
    state === 'Completed'
      ? RECEIPT_FIELDS.flatMap((name) => {
          const value = textField(checkout.details, name);
          return value === null ? [] : [[name, value] as const];
        })
      : [];
  // Only a code that can still be paid is drawn; encoding one costs about a millisecond of CPU.
  const code = qr && isLive(state) ? textField(checkout.details, 'qrCode') : null;
  const qrMatrix: QrMatrix | undefined = code ? qrMatrixOf(code) : undefined;
  return {
    id: checkout.id,
    orderId: checkout.orderId,
    method: checkout.method,
    state,
    amount: formatCents(checkout.amountCents),
    currency: checkout.currency,
    description: checkout.description,
    transactionId: checkout.transactionId,
    // The method adapters' fields (server/payments/methods): `qrCode`, `qrCodeLocation`, `checkoutUrl`.
    ...(Object.fromEntries(fields) as CheckoutMethodFields),
    ...(qrMatrix && { qrMatrix }),
    ...(Object.fromEntries(receipt) as Partial<Pick<CheckoutWire, (typeof RECEIPT_FIELDS)[number]>>),
    expiresAt: expiresAtOf(checkout),
    createdAt: checkout.createdAt,
    updatedAt: at?.at ?? checkout.updatedAt,
  };
}
