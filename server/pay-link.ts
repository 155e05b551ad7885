/**
 * A payment link (server/pay-page.ts serves its page): `<public base>/pay/<orderId>#t=<order token>`, the token signed
 * with the BFF's order-token key and valid for a number of days. Made by `npm run admin -- link` and by the console
 * (`POST /api/admin/payment-links`), both through here.
 */
import { signOrderToken } from './bff/order-token';

export const DEFAULT_LINK_DAYS = 7;
/** The longest a link may live: a year. */
export const MAX_LINK_DAYS = 365;

export interface PaymentLink {
  orderId: string;
  url: string;
  /** When the link's order token ends (ISO 8601). */
  expiresAt: string;
}

export function paymentLink({
  base,
  key,
  orderId,
  days,
  now,
}: {
  base: string;
  key: string;
  orderId: string;
  days: number;
  now: Date;
}): PaymentLink {
  const expires = new Date(now.getTime() + days * 86_400_000);
  const url = `${base.replace(/\/+$/, '')}/pay/${encodeURIComponent(orderId)}#t=${signOrderToken(key, orderId, expires)}`;
  return { orderId, url, expiresAt: expires.toISOString() };
}
