/**
 * What a back-office cash-out (or refund) request is, apart from how it is made (./cashouts.ts): the keys a client
 * may send, the request and its fingerprint, the approval threshold's rule, and the view the back office shows of a
 * stored cash-out (the recipient's CPF masked).
 */
import { createHash } from 'node:crypto';
import type { CashOutView } from '../../core/backoffice';
import { maskCpf } from '../../core/cpf';
import { formatCents } from '../../core/money';
import type { PixKeyType } from '../provider';
import type { CashOut } from '../store/back-office';

/** Keys a client may send: 8 to 128 letters, digits and `-_.:`; a UUID is typical. */
export const IDEMPOTENCY_KEY = /^[A-Za-z0-9._:-]{8,128}$/;

export interface CashOutRequest {
  recipient: { name: string; cpf: string };
  key: { type: PixKeyType; value: string };
  amountCents: number;
  /** The provider's order id; chosen from the key when not given. */
  orderId?: string | undefined;
  description?: string | undefined;
  /** The checkout whose payment (all or part of it) this refunds. */
  refundOf?: string | undefined;
  /** What the key stands for, when not the request itself (a refund: its checkout and amount). */
  fingerprint?: string | undefined;
  /**
   * A refund of whatever was left: the key's refund of the same checkout answers it, whatever its amount (a retry
   * finds less left, since its first attempt took it).
   */
  wholeRefund?: boolean | undefined;
  /** Who asks for it (the back office's actor): kept, and never the one who may approve it. */
  requestedBy?: string | undefined;
}

/**
 * What the back-office sees of a cash-out (core/backoffice's `CashOutView`, which the console reads). The recipient's
 * CPF is shown masked: the key says where money goes.
 */
export function cashOutView(c: CashOut): CashOutView {
  return {
    idempotencyKey: c.idempotencyKey,
    transactionId: c.transactionId,
    orderId: c.orderId,
    state: c.state,
    amount: formatCents(c.amountCents),
    charges: c.charges,
    recipient: { name: c.recipientName, cpf: maskCpf(c.recipientCpf) },
    key: { type: c.keyType, value: c.keyType === 'CPF' ? maskCpf(c.keyValue) : c.keyValue },
    description: c.description,
    refundOf: c.refundOf,
    /** Who asked for it; who approved or rejected it, and when, when it needed an owner's approval. */
    requestedBy: c.requestedBy,
    decidedBy: c.decidedBy,
    decidedAt: c.decidedAt,
    createdAt: c.createdAt,
    updatedAt: c.updatedAt,
  };
}
export type { CashOutView };

/** The CPF masking of core/cpf (also the emulator's), re-exported for the back-office's views. */
export { maskCpf };

export const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** Fingerprint of a request, so the same key with another request is refused. */
export function fingerprintOf(request: CashOutRequest): string {
  return sha256(
    JSON.stringify([
      request.recipient.name,
      request.recipient.cpf,
      request.key.type,
      request.key.value,
      request.amountCents.toString(),
      request.orderId ?? null,
      request.description ?? null,
      request.refundOf ?? null,
    ]),
  );
}

/** The approval threshold when none is configured: R$ 1000.00 (APPROVAL_ABOVE). */
export const DEFAULT_APPROVAL_ABOVE_CENTS = 100_000;

/** Whether a movement of `amountCents` waits for an owner's approval under the threshold `aboveCents` (0: always). */
export const needsApproval = (amountCents: number, aboveCents: number | undefined): boolean =>
  aboveCents !== undefined && (aboveCents === 0 || amountCents > aboveCents);

/** The request a stored cash-out was made of: what an approval sends. */
export const requestOf = (c: CashOut): CashOutRequest => ({
  recipient: { name: c.recipientName, cpf: c.recipientCpf },
  key: { type: c.keyType as PixKeyType, value: c.keyValue },
  amountCents: c.amountCents,
  orderId: c.orderId,
  description: c.description ?? undefined,
  refundOf: c.refundOf ?? undefined,
});
