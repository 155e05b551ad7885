/** The DOM events the back-office elements send up to `<bo-app>`: their details, the one helper, their typing. */
import type { PaymentRequestView, ReceiverView, ReceiverAccountView } from '../core/backoffice';
import type { CashOutView, Session } from './api';

export interface BoNoticeDetail {
  message: string;
  /** `error` notices are announced assertively. */
  tone: 'info' | 'success' | 'error';
}

export interface BoEventMap {
  'bo-signed-in': CustomEvent<{ session: Session }>;
  'bo-sign-out': CustomEvent<null>;
  'bo-notice': CustomEvent<BoNoticeDetail>;
  'bo-account-selected': CustomEvent<{ receiver: ReceiverView; account: ReceiverAccountView }>;
  'bo-payment-request-created': CustomEvent<{ request: PaymentRequestView }>;
  'bo-payment-request-open': CustomEvent<{ id: string }>;
  'bo-payment-request-changed': CustomEvent<{ request: PaymentRequestView }>;
  'bo-balance-changed': CustomEvent<null>;
  'bo-checkout-open': CustomEvent<{ id: string }>;
  'bo-cashout-created': CustomEvent<{ cashOut: CashOutView }>;
  /** A second factor was turned on (console/mfa/). */
  'bo-mfa-enrolled': CustomEvent<null>;
}

/** Fires a bubbling, composed event from `target`. */
export function emit<K extends keyof BoEventMap>(target: EventTarget, name: K, detail: BoEventMap[K]['detail']): void {
  target.dispatchEvent(new CustomEvent(name, { detail, bubbles: true, composed: true }));
}

/** Shorthand for the live region of `<bo-app>`. */
export const notify = (target: EventTarget, message: string, tone: BoNoticeDetail['tone'] = 'info') =>
  emit(target, 'bo-notice', { message, tone });

declare global {
  interface GlobalEventHandlersEventMap extends BoEventMap {}
}
