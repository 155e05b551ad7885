/**
 * Company payments in the sandbox: receivers and their accounts, payment requests with their approval flow and
 * execution, invoice documents. Built once by `createSandbox` and shared by the partner API and the admin routes.
 */
import type Database from 'better-sqlite3';
import type { Clock } from '../../lib/clock';
import type { WebhookConfig } from '../../provider/schemas';
import { MOUNT_PATH } from '../addresses';
import type { ChargesOf } from '../billing';
import type { Lifecycle } from '../lifecycle';
import type { TransactionStore } from '../store';
import type { WebhookDispatcher } from '../webhooks';
import { createCompanyWebhookConfig } from './config';
import { createDocumentStore } from './documents-store';
import { createExecution } from './execution';
import { createPaymentRequests } from './requests';
import { seedCompanyPayments } from './seed';
import { createCompanyStore } from './store';

export interface CompanyPaymentsOptions {
  db: Database.Database;
  /** Where upload addresses point: `<publicBaseUrl>/sandbox/v1/uploads/<token>`. */
  publicBaseUrl: string;
  clock: Clock;
  transactions: TransactionStore;
  lifecycle: Lifecycle;
  webhooks: WebhookDispatcher;
  chargesOf: ChargesOf;
  availableMicros: () => bigint;
  webhook: WebhookConfig | undefined;
  registerDelayMs: number;
  completeDelayMs: number;
  /** Compared with the `x-sandbox-admin-key` header every admin route requires. */
  adminKey: string;
}

export function createCompanyPayments(options: CompanyPaymentsOptions) {
  const store = createCompanyStore(options.db);
  const documents = createDocumentStore(options.db);
  const webhook = createCompanyWebhookConfig(options.db, options.webhook);
  const execution = createExecution({ company: store, ...options });
  const requests = createPaymentRequests({ company: store, ...options, webhook, execution });
  seedCompanyPayments(options.db, store, options.clock);
  const base = new URL(options.publicBaseUrl).href.replace(/\/+$/, '') + MOUNT_PATH;
  return {
    store,
    documents,
    webhook,
    requests,
    adminKey: options.adminKey,
    /** The pre-signed address of one upload; the token is its only credential. */
    uploadAddress: (token: string) => `${base}/v1/uploads/${token}`,
    /** Picks up executions interrupted by a restart. */
    resume: () => execution.resume(),
    close: () => execution.close(),
  };
}

export type CompanyPayments = ReturnType<typeof createCompanyPayments>;
