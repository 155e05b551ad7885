/**
 * The parts of the store, each written once over a `Db` (./sql/db), composed: what both openers (./sqlite,
 * ./postgres) give besides their connection.
 */
import { accountsPart } from './accounts-part';
import type { AccountStore } from './accounts';
import { apiKeysPart, type ApiKeyStore } from './api-keys';
import type { BackOfficeStore } from './back-office';
import { backOfficePart } from './back-office-part';
import type { CompanyPaymentStore } from './company-payments';
import { companyPaymentsPart } from './company-payments-part';
import type { ReconcileStore } from './checkout-store';
import { checkoutsPart, type CheckoutsPart } from './checkouts';
import { deliveriesPart, type DeliveryStore } from './deliveries';
import { deliveryLogPart, type DeliveryLogStore } from './delivery-log';
import { endpointsPart, type EndpointStore } from './endpoints';
import { payerDataPart, type PayerDataStore } from './payer-data';
import { mfaPart, type MfaStore } from './mfa';
import { readinessPart, type ReadinessStore } from './readiness';
import { reconcilePart } from './reconcile';
import { sealedValuesPart, type SealedValueStore } from './sealed-columns';
import { sessionListPart, type SessionListStore } from './session-list';
import { signInBrakesPart, type SignInBrakeStore } from './sign-in-brakes';
import type { Db } from './sql/db';

export type SharedParts = CheckoutsPart &
  ReconcileStore &
  DeliveryStore &
  EndpointStore &
  DeliveryLogStore &
  AccountStore &
  SignInBrakeStore &
  SessionListStore &
  ApiKeyStore &
  MfaStore &
  BackOfficeStore &
  CompanyPaymentStore &
  PayerDataStore &
  ReadinessStore &
  SealedValueStore;

export function sharedParts(db: Db): SharedParts {
  return {
    ...checkoutsPart(db),
    ...reconcilePart(db),
    ...readinessPart(db),
    ...deliveriesPart(db),
    ...endpointsPart(db),
    ...deliveryLogPart(db),
    ...accountsPart(db),
    ...signInBrakesPart(db),
    ...sessionListPart(db),
    ...apiKeysPart(db),
    ...mfaPart(db),
    ...backOfficePart(db),
    ...companyPaymentsPart(db),
    ...payerDataPart(db),
    ...sealedValuesPart(db),
  };
}
