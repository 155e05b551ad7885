/** Everything the route files share, passed as one plain argument (no module-level state). */
import type { Clock } from '../lib/clock';
import type { Addresses } from './addresses';
import type { TokenIssuer } from './auth';
import type { ChargesOf } from './billing';
import type { CompanyPayments } from './company';
import type { Lifecycle } from './lifecycle';
import type { TransactionStore } from './store';
import type { WebhookDispatcher } from './webhooks';

export interface SandboxContext {
  store: TransactionStore;
  clock: Clock;
  tokens: TokenIssuer;
  lifecycle: Lifecycle;
  addresses: Addresses;
  chargesOf: ChargesOf;
  /** Money the sandbox account starts with, in cents, before any transaction. */
  openingBalanceCents: number;
  webhooks: WebhookDispatcher;
  company: CompanyPayments;
}
