/**
 * The parts of the store written once over a `Db` (./sql/db), composed: what both openers (./sqlite, ./postgres)
 * give besides their back office's own parts and their connection.
 */
import { accountsPart } from './accounts-part';
import type { AccountStore } from './accounts';
import type { ReconcileStore } from './checkout-store';
import { checkoutsPart, type CheckoutsPart } from './checkouts';
import { deliveriesPart, type DeliveryStore } from './deliveries';
import { deliveryLogPart, type DeliveryLogStore } from './delivery-log';
import { endpointsPart, type EndpointStore } from './endpoints';
import { reconcilePart } from './reconcile';
import type { Db } from './sql/db';

export type SharedParts = CheckoutsPart & ReconcileStore & DeliveryStore & EndpointStore & DeliveryLogStore & AccountStore;

export function sharedParts(db: Db): SharedParts {
  return {
    ...checkoutsPart(db),
    ...reconcilePart(db),
    ...deliveriesPart(db),
    ...endpointsPart(db),
    ...deliveryLogPart(db),
    ...accountsPart(db),
  };
}
