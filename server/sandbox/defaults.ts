/**
 * Built-in values of the sandbox: the key pair, the "magic" CPFs that trigger counterparty errors, the billing
 * plan and the participants that appear on completed transactions. docs/spec-gaps.md lists them for integrators.
 */

/** The key pair the login operation accepts unless `createSandbox` is given another one. */
export const SANDBOX_ACCESS_KEY = 'sandbox-access-key';
export const SANDBOX_SECRET = 'sandbox-secret';

/**
 * Valid CPFs (right check digits) the emulated counterparty refuses, like test card numbers of card acquirers.
 * `serviceError` → 409 CounterpartyServiceError; `restricted` → 409 CounterpartyTaxNumberInvalid.
 */
export const MAGIC_CPFS = {
  serviceError: ['90000000175', '90000000256'],
  restricted: ['90000000337'],
} as const;

/** Charges per transaction: a fixed part plus a percentage of the amount. */
export const DEFAULT_BILLING = { fixed: '0.50', ratePercent: '0.99' } as const;
export type BillingPlan = { fixed: string; ratePercent: string };

/** How long a token lives; the provider documents 60 minutes. */
export const TOKEN_TTL_SECONDS = 60 * 60;

/** Delay before a new cash-out moves from Created to Registered on its own. */
export const DEFAULT_REGISTER_DELAY_MS = 1_000;

/** Background webhook retries (before jitter) after a failed delivery. */
export const DEFAULT_RETRY_DELAYS_MS = [5_000, 30_000, 120_000, 600_000];

/** A webhook receiver that does not answer within this time counts as a failed delivery. */
export const DEFAULT_WEBHOOK_TIMEOUT_MS = 5_000;

/** Largest accepted request body; anything bigger is answered with 413. */
export const MAX_BODY_BYTES = 64 * 1024;

/** The merchant that owns the sandbox account (customerName, accountName, BR Code merchant fields). */
export const MERCHANT = {
  /** The account's id, for `/accounts/balance/{accountUid}` (the sandbox merchant has this one account). */
  accountUid: 'acc0sandbox0000000000001',
  name: 'Loja Sandbox',
  accountName: 'Loja Sandbox - Conta Principal',
  accountNumber: '99999-9',
  city: 'SAO PAULO',
} as const;

/** The sandbox bank every participant uses, as the provider's sandbox webhooks show. */
export const SANDBOX_BANK = {
  bankCode: '999',
  bankIspb: '99999999',
  bankName: 'Banco Sandbox',
  accountAgency: '99999',
  accountNumber: '99999',
  accountDigit: '9',
  accountType: 'CheckingAccount',
} as const;

/** The service operator: recipient of every cash-in and payer of every cash-out. */
export const OPERATOR = { name: 'Operadora Sandbox de Pagamentos', taxNumber: '99999999000191' } as const;

/**
 * The sandbox's stand-in payer. Its name is the effective payer's of an OpenFinance initiation, which names only the
 * payer's CPF. Completing an anonymous cash-in needs a payer in the body (the contract requires one); a demo or a
 * test that has none to name can send this one.
 */
export const SANDBOX_PAYER = { name: 'Pagador Sandbox', taxNumber: '52998224725' } as const;

/** Limits of the emulator where the provider publishes none. */
export const MAX_AMOUNT_CENTS = 100_000_000; // R$ 1.000.000,00

/** The sandbox account starts funded so cash-outs work before any cash-in; the balance adds transactions to it. */
export const DEFAULT_OPENING_BALANCE = '100000.00';

/** Company payments: an approved request's transaction is registered, then completed, after these delays. */
export const DEFAULT_COMPANY_REGISTER_DELAY_MS = 1_000;
export const DEFAULT_COMPANY_COMPLETE_DELAY_MS = 2_000;

/** How long an invoice upload address accepts its file, as the provider documents (emulator clock). */
export const UPLOAD_TTL_SECONDS = 300;

/** Largest invoice file; the provider publishes no limit. The 64 KiB JSON limit does not apply to uploads. */
export const MAX_UPLOAD_BYTES = 10 * 1024 * 1024;

/** Who approves or rejects in the admin routes when the caller names nobody. */
export const SANDBOX_REVIEWER = 'Revisor Sandbox';

/** Shortest key accepted for the admin routes (`createSandbox({ adminKey })`); a generated one has 43 characters. */
export const MIN_ADMIN_KEY_LENGTH = 16;

/** Shortest webhook signing key the sandbox takes (`createSandbox({ webhookSigningKey })` and the admin route). */
export const MIN_WEBHOOK_SIGNING_KEY_LENGTH = 16;
