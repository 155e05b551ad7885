/** What a payment method brings to the BFF: its payer rule, its provider call and the fields a browser sees. */
import type { Method } from '../../../core/methods';
import type { ProviderClient, TransactionRecord, WebhookConfig } from '../../provider';
import type { Activation, Checkout } from '../../store/types';
import type { PricedOrder } from '../orders';

export interface MethodStart {
  provider: ProviderClient;
  /** The reservation: order, amount, payer and the details of `draftDetails`. */
  checkout: Checkout;
  order: PricedOrder;
  /** Given to the provider with every transaction. */
  webhook: WebhookConfig;
  /** The provider's value object: the amount as a decimal string. */
  value: { original: string };
}

export interface MethodAdapter {
  readonly method: Method;
  /** Whether the payer's CPF must come with the request (mirrors `PAYER_CPF` of core/methods for the element). */
  readonly payerCpf: 'optional' | 'required';
  /** The method's fields known before the provider call, from the browser's request. */
  draftDetails(input: { returnUrl?: string | undefined }, defaults: { returnUrl: string }): Record<string, unknown>;
  /** Creates the provider transaction; its answer turns the reservation into a live checkout. */
  start(context: MethodStart): Promise<Activation>;
  /** Whether a provider transaction record is one of this method's (to adopt a transaction no checkout holds). */
  recognizes(record: TransactionRecord): boolean;
  /**
   * The method's fields recovered from a provider record, when a shopper can pay from them; undefined when the
   * record lacks what the shopper needs (so the transaction cannot be resumed, only followed).
   */
  resumable(record: TransactionRecord): Record<string, unknown> | undefined;
  /** The method's fields of a checkout as a browser sees them. */
  view(details: Checkout['details']): Record<string, string | null>;
}

/** A string field of `details`, or null: details are JSON from the store, so a field may be missing or mistyped. */
export const textField = (details: Checkout['details'], name: string): string | null => {
  const value = details[name];
  return typeof value === 'string' ? value : null;
};
