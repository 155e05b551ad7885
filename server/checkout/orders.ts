/** The merchant's side of pricing: the BFF asks it for the amount of an order and never trusts a browser's. */

export interface PricedOrder {
  /** Integer cents, for example 1050 for R$ 10,50. */
  amountCents: number;
  description: string;
}

export interface OrderResolver {
  /** The order's amount and description, or undefined when the order does not exist (or may not be paid). */
  resolve(orderId: string): Promise<PricedOrder | undefined>;
}
