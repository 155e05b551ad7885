/**
 * The console's only wire: the BFF's `/api/admin` routes, opened by the session (`/api/admin/session`: sign in with
 * e-mail and password, read who is signed in, sign out). The session is an HttpOnly cookie the browser sends on these
 * same-origin calls by itself: the page never holds a token or a password after the sign-in call. The invoice upload
 * goes through `XMLHttpRequest` (fetch reports no upload progress) and the live updates (`/api/admin/events`) are read
 * with fetch. Nothing here knows the demo or the emulator: their controls live in the demo's sandbox portal.
 */
import type {
  AccountSessions,
  AdminUser,
  ApiKey,
  ApprovalFilter,
  ApprovalList,
  ApprovalView,
  AuditFilters,
  AuditPage,
  BalanceView,
  CashOutInput,
  CashOutQuote,
  CashOutView,
  CheckoutDetail,
  CheckoutFilters,
  CheckoutPage,
  CheckoutRefunds,
  CreatedApiKey,
  CsvFormat,
  EndedSessions,
  DocumentView,
  LiveChange,
  MerchantEventPage,
  MfaStatus,
  NewApiKeyInput,
  NewUserInput,
  PageSize,
  PasswordChanged,
  PasswordChangeInput,
  PaymentLink,
  PaymentRequestCreated,
  PaymentRequestDetailView,
  PaymentRequestInput,
  PaymentRequestView,
  ProviderPage,
  PayerReveal,
  ProviderRecord,
  ReceiverAccountView,
  ReceiverView,
  RecoveryCodes,
  TotpEnrolment,
  UserChange,
  WebhookEndpointInput,
  WebhookEndpointView,
  WebhookEndpointWithSecret,
  WebhookTestResult,
} from '../core/backoffice';

import { AdminApiError, errorFrom, MESSAGES } from './api-errors';
import { AdminApiBase, query, type PasskeyOptions } from './api-base';

export { AdminApiError } from './api-errors';

/** The wire's shapes (core/backoffice, which the server builds its answers against), importable from here too. */
export type * from '../core/backoffice';

export class AdminApi extends AdminApiBase {
  balance = () => this.call<BalanceView>('GET', '/balance');

  receivers = (p: { status?: ApprovalFilter; limit: PageSize; offset: number }) =>
    this.call<ProviderPage<ReceiverView>>('GET', `/receivers${query(p)}`);

  accounts = (receiverId: string) =>
    this.call<{ items: ReceiverAccountView[] }>('GET', `/receivers/${encodeURIComponent(receiverId)}/accounts`);

  /**
   * One payment request per `idempotencyKey`: the provider's request (201), or, above the approval threshold, the
   * request kept for another owner's approval (202, `kind: 'payment_request'`, state `PendingApproval`).
   */
  createPaymentRequest = (input: PaymentRequestInput, idempotencyKey: string) =>
    this.call<PaymentRequestCreated>('POST', '/payment-requests', input, {
      'idempotency-key': idempotencyKey,
    });

  paymentRequests = (p: { status: ApprovalFilter; startDate: string; endDate: string; limit: PageSize; offset: number }) =>
    this.call<ProviderPage<PaymentRequestView>>('GET', `/payment-requests${query(p)}`);

  paymentRequest = (id: string) => this.call<PaymentRequestDetailView>('GET', `/payment-requests/${encodeURIComponent(id)}`);

  cancelPaymentRequest = (id: string) => this.call<unknown>('POST', `/payment-requests/${encodeURIComponent(id)}/cancel`);

  documents = (id: string) => this.call<ProviderPage<DocumentView>>('GET', `/payment-requests/${encodeURIComponent(id)}/documents`);

  deleteDocument = (id: string) => this.call<unknown>('DELETE', `/documents/${encodeURIComponent(id)}`);

  /** One cash-out per `idempotencyKey`: sending it again (a double click, a retry) answers the same cash-out. */
  cashOut = (input: CashOutInput, idempotencyKey: string) =>
    this.call<CashOutView>('POST', '/cashouts', input, { 'idempotency-key': idempotencyKey });

  cashOuts = (limit = 10) => this.call<{ items: CashOutView[] }>('GET', `/cashouts${query({ limit })}`);

  /** The charges the provider's plan takes from `amount` (a decimal string), null while unknown. */
  quote = (amount: string) => this.call<CashOutQuote>('GET', `/cashouts/quote${query({ amount })}`);

  checkouts = (filters: CheckoutFilters, cursor?: string, limit = 10) =>
    this.call<CheckoutPage>('GET', `/checkouts${query({ ...filters, limit, cursor })}`);

  checkout = (id: string) => this.call<CheckoutDetail>('GET', `/checkouts/${encodeURIComponent(id)}`);

  providerRecord = (id: string) => this.call<ProviderRecord>('GET', `/checkouts/${encodeURIComponent(id)}/provider`);

  /** The payer in full (operators and owners): each call is in the audit trail as `payer.reveal`. */
  revealPayer = (id: string) => this.call<PayerReveal>('POST', `/checkouts/${encodeURIComponent(id)}/payer`);

  /** What is paid, refunded and refundable of a payment, to whom, and its refunds. */
  checkoutRefunds = (id: string) => this.call<CheckoutRefunds>('GET', `/checkouts/${encodeURIComponent(id)}/refunds`);

  /** One refund per `idempotencyKey`; its state is `PendingApproval` when it waits for an owner's approval. */
  refundCheckout = (id: string, amount: string, idempotencyKey: string) =>
    this.call<CashOutView>('POST', `/checkouts/${encodeURIComponent(id)}/refunds`, { amount }, { 'idempotency-key': idempotencyKey });

  approvals = (state: 'pending' | 'decided') => this.call<ApprovalList>('GET', `/approvals${query({ state })}`);

  /** Decides a movement waiting for approval; a payment request's key is its own (`/approvals/payment-requests/…`). */
  decideApproval = (item: ApprovalView, decision: 'approve' | 'reject') =>
    this.call<ApprovalView>(
      'POST',
      `/approvals/${item.kind === 'payment_request' ? 'payment-requests/' : ''}${encodeURIComponent(item.idempotencyKey)}/${decision}`,
      {},
    );

  audit = (filters: AuditFilters, after?: number, limit = 50) =>
    this.call<AuditPage>('GET', `/audit${query({ ...filters, after, limit })}`);

  /** The address of the audit trail's CSV with these filters: a plain download link (the session cookie opens it). */
  auditExportUrl = (filters: AuditFilters, format: CsvFormat) => `/api/admin/audit/export.csv${query({ format, ...filters })}`;

  users = () => this.call<{ data: AdminUser[] }>('GET', '/users');

  mySessions = () => this.call<AccountSessions>('GET', '/me/sessions');

  endSession = (id: string) => this.call<unknown>('DELETE', `/me/sessions/${encodeURIComponent(id)}`);

  endOtherSessions = () => this.call<EndedSessions>('DELETE', '/me/sessions');

  changeMyPassword = (input: PasswordChangeInput) => this.call<PasswordChanged>('POST', '/me/password', input);

  mfaStatus = () => this.call<MfaStatus>('GET', '/me/mfa');

  startTotp = () => this.call<TotpEnrolment>('POST', '/me/mfa/totp', {});

  confirmTotp = (code: string) => this.call<RecoveryCodes>('POST', '/me/mfa/totp/confirm', { code });

  passkeyOptions = () => this.call<PasskeyOptions>('POST', '/me/mfa/passkeys/options', {});

  addPasskey = (response: unknown) => this.call<unknown>('POST', '/me/mfa/passkeys', { response });

  removePasskey = (id: string) => this.call<unknown>('DELETE', `/me/mfa/passkeys/${encodeURIComponent(id)}`);

  addUser = (input: NewUserInput) => this.call<AdminUser>('POST', '/users', input);

  changeUser = (id: string, change: UserChange) => this.call<AdminUser>('PATCH', `/users/${encodeURIComponent(id)}`, change);

  apiKeys = () => this.call<{ data: ApiKey[] }>('GET', '/api-keys');

  /** The answer carries the key: the only time it is shown. */
  addApiKey = (input: NewApiKeyInput) => this.call<CreatedApiKey>('POST', '/api-keys', input);

  revokeApiKey = (id: string) => this.call<ApiKey>('DELETE', `/api-keys/${encodeURIComponent(id)}`);

  webhookEndpoints = () => this.call<{ items: WebhookEndpointView[] }>('GET', '/webhook-endpoints');

  /** The answer carries the endpoint's secret: the only time it is shown. */
  addWebhookEndpoint = (input: WebhookEndpointInput) => this.call<WebhookEndpointWithSecret>('POST', '/webhook-endpoints', input);

  setWebhookEndpoint = (id: string, action: 'disable' | 'enable') =>
    this.call<WebhookEndpointView>('POST', `/webhook-endpoints/${encodeURIComponent(id)}/${action}`, {});

  /** A new secret (the answer is the only time it is shown); the previous one keeps signing for 24 hours. */
  rotateWebhookSecret = (id: string) =>
    this.call<WebhookEndpointWithSecret>('POST', `/webhook-endpoints/${encodeURIComponent(id)}/rotate`, {});

  testWebhookEndpoint = (id: string) => this.call<WebhookTestResult>('POST', `/webhook-endpoints/${encodeURIComponent(id)}/test`, {});

  /** The merchant's events after the cursor `after`, oldest first, with their deliveries. */
  webhookEvents = (after: string | undefined, limit: number) =>
    this.call<MerchantEventPage>('GET', `/webhook-events${query({ after, limit })}`);

  /** A payment link for an order (`/pay/<orderId>#t=<token>`), valid `days` days; 404 `order_not_found` for an unknown order. */
  paymentLink = (orderId: string, days: number) => this.call<PaymentLink>('POST', '/payment-links', { orderId, days });

  redeliver = (eventId: string, endpointId: string) =>
    this.call<unknown>('POST', `/webhook-events/${encodeURIComponent(eventId)}/redeliver${query({ endpoint: endpointId })}`, {});

  /** The filtered list as CSV, streamed by the BFF; returned as a file to save. */
  async exportCsv(filters: CheckoutFilters, format: CsvFormat = 'csv'): Promise<Blob> {
    const generation = this.generation;
    let response: Response;
    try {
      response = await fetch(`/api/admin/checkouts/export.csv${query({ format, ...filters })}`, {
        headers: { accept: 'text/csv' },
        credentials: 'same-origin',
      });
    } catch {
      throw new AdminApiError(0, 'network_error', MESSAGES.network_error);
    }
    if (!response.ok) {
      const error = errorFrom(response.status, await response.json().catch(() => null));
      if (error.code === 'admin_unauthorized') this.unauthorized(generation);
      throw error;
    }
    return response.blob();
  }

  /**
   * Follows `/api/admin/events` until `signal` aborts, calling `onChange` per change and `onState` when the
   * connection opens or drops; reconnects after a drop (1 s, doubling to 30 s).
   */
  async live(onChange: (change: LiveChange) => void, onState: (connected: boolean) => void, signal: AbortSignal): Promise<void> {
    const generation = this.generation;
    let delay = 1_000;
    while (!signal.aborted) {
      try {
        const response = await fetch('/api/admin/events', {
          headers: { accept: 'text/event-stream' },
          credentials: 'same-origin',
          signal,
        });
        if (response.status === 401) {
          this.unauthorized(generation);
          return;
        }
        if (!response.ok || !response.body) throw new Error(`HTTP ${response.status}`);
        onState(true);
        delay = 1_000;
        const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
        let buffer = '';
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          buffer += value;
          let end: number;
          while ((end = buffer.indexOf('\n\n')) >= 0) {
            const frame = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            const event = /^event: (checkout|cashout)$/m.exec(frame)?.[1] as LiveChange['topic'] | undefined;
            const data = /^data: (.*)$/m.exec(frame)?.[1];
            if (event && data) onChange({ topic: event, id: (JSON.parse(data) as { id: string }).id });
          }
        }
      } catch {
        // A drop or a refusal: try again below, unless we were told to stop.
      }
      if (signal.aborted) return;
      onState(false);
      await new Promise((resolve) => setTimeout(resolve, delay));
      delay = Math.min(delay * 2, 30_000);
    }
  }

  /** Streams the PDF to the BFF; `onProgress` gets the fraction sent, from 0 to 1. */
  uploadInvoice(id: string, file: File, onProgress: (fraction: number) => void): Promise<void> {
    const generation = this.generation;
    return new Promise((resolve, reject) => {
      const xhr = new XMLHttpRequest();
      xhr.open('PUT', `/api/admin/payment-requests/${encodeURIComponent(id)}/invoice`);
      xhr.setRequestHeader('content-type', 'application/pdf');
      xhr.setRequestHeader('x-file-name', encodeURIComponent(file.name));
      xhr.responseType = 'json';
      xhr.upload.addEventListener('progress', (event) => {
        if (event.lengthComputable && event.total > 0) onProgress(event.loaded / event.total);
      });
      xhr.addEventListener('load', () => {
        if (xhr.status >= 200 && xhr.status < 300) {
          onProgress(1);
          resolve();
          return;
        }
        const error = errorFrom(xhr.status, xhr.response);
        if (error.code === 'admin_unauthorized') this.unauthorized(generation);
        reject(error);
      });
      xhr.addEventListener('error', () => reject(new AdminApiError(0, 'network_error', MESSAGES.network_error)));
      // The browser sets Content-Length from the File itself.
      xhr.send(file);
    });
  }
}
