/**
 * The back-office's only wire: the BFF's `/api/admin` routes with the bearer admin token, the invoice upload through
 * `XMLHttpRequest` (fetch reports no upload progress), the live updates (`/api/admin/events`, read with fetch so the
 * token goes in a header, never in an address), and the sandbox emulator's admin routes through the demo's proxy
 * (`/demo/api/sandbox-admin`), which takes the same token and adds the emulator's key on the server.
 */
import type {
  ApprovalFilter,
  Balance,
  DocumentPage,
  PaymentRequest,
  PaymentRequestDetail,
  PaymentRequestPage,
  Receiver,
  ReceiverAccount,
  ReceiverPage,
  TransactionList,
} from '../server/provider/schemas';
import type {
  CashOutInput,
  CashOutView,
  CheckoutDetail,
  CheckoutFilters,
  CheckoutPage,
  LiveChange,
  NewAccountInput,
  NewReceiverInput,
  PageSize,
  PaymentRequestInput,
  ProviderRecord,
  RefundPreview,
} from './api-types';

/** The wire's shapes, importable from here as from ./api-types. */
export type * from './api-types';

/** A refused or failed call: the BFF's `error.code` (or `network_error`) with a message fit for the page. */
export class AdminApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'AdminApiError';
  }
}

/** pt-BR wording for the codes a merchant meets; anything else keeps the server's own message. */
const MESSAGES: Record<string, string> = {
  admin_unauthorized: 'Token de administrador inválido. Confira o arquivo admin-token indicado no log do servidor.',
  network_error: 'Sem resposta do servidor. Verifique a conexão e tente de novo.',
  file_too_large: 'A nota fiscal deve ter no máximo 10 MiB.',
  pdf_required: 'A nota fiscal deve ser um PDF.',
  provider_unavailable: 'O provedor de pagamentos não respondeu. Tente de novo em instantes.',
  InsufficientBalance: 'Saldo insuficiente para o valor mais a tarifa.',
  refund_exists: 'Este pagamento já tem um reembolso em andamento ou concluído.',
  order_not_paid_twice: 'O pedido não tem outro pagamento concluído: este é o que o paga.',
  payer_not_refundable: 'O provedor não informa um pagador com CPF para este pagamento; reembolse manualmente.',
  idempotency_key_in_progress: 'A transferência ainda está sendo enviada. Aguarde um instante e confira a lista.',
};

function errorFrom(status: number, body: unknown): AdminApiError {
  const error = (body as { error?: { code?: string; message?: string } } | null)?.error;
  const code = error?.code ?? `http_${status}`;
  return new AdminApiError(status, code, MESSAGES[code] ?? error?.message ?? `Falha inesperada (HTTP ${status}).`);
}

const query = (params: Record<string, string | number | undefined>) => {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) if (value !== undefined && value !== '') search.set(key, String(value));
  const text = search.toString();
  return text ? `?${text}` : '';
};

export class AdminApi {
  /**
   * @param token - The admin token, sent as `Authorization: Bearer`.
   * @param onUnauthorized - Called when a call is refused for the token (it was changed on the server, say).
   */
  constructor(
    readonly token: string,
    private readonly onUnauthorized: () => void = () => {},
  ) {}

  /**
   * `sandbox` calls go to the emulator's admin routes through the demo's proxy: the page never holds the emulator's
   * admin key, and the emulator never sees the BFF's admin token.
   */
  private async call<T>(
    method: string,
    path: string,
    body?: unknown,
    target: 'bff' | 'sandbox' = 'bff',
    extra: Record<string, string> = {},
  ): Promise<T> {
    const base = target === 'bff' ? '/api/admin' : '/demo/api/sandbox-admin';
    const headers: Record<string, string> = { accept: 'application/json', authorization: `Bearer ${this.token}`, ...extra };
    if (body !== undefined) headers['content-type'] = 'application/json';
    let response: Response;
    try {
      response = await fetch(`${base}${path}`, { method, headers, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
    } catch {
      throw new AdminApiError(0, 'network_error', MESSAGES.network_error!);
    }
    const data: unknown = await response.json().catch(() => null);
    if (response.ok) return data as T;
    const error = errorFrom(response.status, data);
    if (error.code === 'admin_unauthorized') this.onUnauthorized();
    throw error;
  }

  balance = () => this.call<Balance & { credits?: string; debits?: string; charges?: string }>('GET', '/balance');

  receivers = (p: { status?: ApprovalFilter; limit: PageSize; offset: number }) => this.call<ReceiverPage>('GET', `/receivers${query(p)}`);

  accounts = (receiverId: string) =>
    this.call<{ items: ReceiverAccount[] }>('GET', `/receivers/${encodeURIComponent(receiverId)}/accounts`);

  createPaymentRequest = (input: PaymentRequestInput) => this.call<PaymentRequest>('POST', '/payment-requests', input);

  paymentRequests = (p: { status: ApprovalFilter; startDate: string; endDate: string; limit: PageSize; offset: number }) =>
    this.call<PaymentRequestPage>('GET', `/payment-requests${query(p)}`);

  paymentRequest = (id: string) => this.call<PaymentRequestDetail>('GET', `/payment-requests/${encodeURIComponent(id)}`);

  cancelPaymentRequest = (id: string) => this.call<unknown>('POST', `/payment-requests/${encodeURIComponent(id)}/cancel`);

  documents = (id: string) => this.call<DocumentPage>('GET', `/payment-requests/${encodeURIComponent(id)}/documents`);

  deleteDocument = (id: string) => this.call<unknown>('DELETE', `/documents/${encodeURIComponent(id)}`);

  /** One cash-out per `idempotencyKey`: sending it again (a double click, a retry) answers the same cash-out. */
  cashOut = (input: CashOutInput, idempotencyKey: string) =>
    this.call<CashOutView>('POST', '/cashouts', input, 'bff', { 'idempotency-key': idempotencyKey });

  cashOuts = (limit = 10) => this.call<{ items: CashOutView[] }>('GET', `/cashouts${query({ limit })}`);

  /** The charges the provider's plan takes from `amount` (a decimal string), null while unknown. */
  quote = (amount: string) => this.call<{ amount: string; charges: string | null }>('GET', `/cashouts/quote${query({ amount })}`);

  checkouts = (filters: CheckoutFilters, cursor?: string, limit = 10) =>
    this.call<CheckoutPage>('GET', `/checkouts${query({ ...filters, limit, cursor })}`);

  checkout = (id: string) => this.call<CheckoutDetail>('GET', `/checkouts/${encodeURIComponent(id)}`);

  providerRecord = (id: string) => this.call<ProviderRecord>('GET', `/checkouts/${encodeURIComponent(id)}/provider`);

  refundPreview = (id: string) => this.call<RefundPreview>('GET', `/checkouts/${encodeURIComponent(id)}/refund`);

  refund = (id: string, idempotencyKey: string) =>
    this.call<CashOutView>('POST', `/checkouts/${encodeURIComponent(id)}/refund`, {}, 'bff', { 'idempotency-key': idempotencyKey });

  /** The filtered list as CSV, streamed by the BFF; returned as a file to save. */
  async exportCsv(filters: CheckoutFilters): Promise<Blob> {
    let response: Response;
    try {
      response = await fetch(`/api/admin/checkouts/export.csv${query({ ...filters })}`, {
        headers: { authorization: `Bearer ${this.token}`, accept: 'text/csv' },
      });
    } catch {
      throw new AdminApiError(0, 'network_error', MESSAGES.network_error!);
    }
    if (!response.ok) {
      const error = errorFrom(response.status, await response.json().catch(() => null));
      if (error.code === 'admin_unauthorized') this.onUnauthorized();
      throw error;
    }
    return response.blob();
  }

  /**
   * Follows `/api/admin/events` until `signal` aborts, calling `onChange` per change and `onState` when the
   * connection opens or drops; reconnects after a drop (1 s, doubling to 30 s).
   */
  async live(onChange: (change: LiveChange) => void, onState: (connected: boolean) => void, signal: AbortSignal): Promise<void> {
    let delay = 1_000;
    while (!signal.aborted) {
      try {
        const response = await fetch('/api/admin/events', {
          headers: { authorization: `Bearer ${this.token}`, accept: 'text/event-stream' },
          signal,
        });
        if (response.status === 401) {
          this.onUnauthorized();
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

  /** Sandbox only: true when the emulator's admin routes answer (the back-office then shows its controls). */
  async sandboxMode(): Promise<boolean> {
    try {
      await this.call<unknown>('GET', '/company-webhook', undefined, 'sandbox');
      return true;
    } catch (error) {
      if ((error as AdminApiError).code === 'admin_unauthorized') throw error;
      return false;
    }
  }

  /** Sandbox only: the bank's decision on a cash-out (`complete`, `error`, `cancel`). */
  cashOutControl = (transactionId: string, operation: 'complete' | 'error' | 'cancel') =>
    this.call<unknown>('POST', `/cashouts/${encodeURIComponent(transactionId)}/${operation}`, {}, 'sandbox');

  /** Sandbox only: registers a receiver (Pending) as the provider's portal would. */
  createReceiver = (input: NewReceiverInput) => this.call<{ data: Receiver }>('POST', '/receivers', input, 'sandbox');

  addAccount = (receiverId: string, input: NewAccountInput) =>
    this.call<{ data: ReceiverAccount }>('POST', `/receivers/${encodeURIComponent(receiverId)}/accounts`, input, 'sandbox');

  reviewReceiver = (receiverId: string, decision: 'approve' | 'reject') =>
    this.call<{ data: Receiver }>('POST', `/receivers/${encodeURIComponent(receiverId)}/${decision}`, {}, 'sandbox');

  transactions = (orderId: string) => this.call<TransactionList>('GET', `/transactions${query({ orderId })}`);

  /** Sandbox only: the emulator's reviewer decides a payment request, as the provider's portal would. */
  review = (id: string, decision: 'approve' | 'reject') =>
    this.call<unknown>('POST', `/transaction-requests/${encodeURIComponent(id)}/${decision}`, {}, 'sandbox');

  /** Streams the PDF to the BFF; `onProgress` gets the fraction sent, from 0 to 1. */
  uploadInvoice(id: string, file: File, onProgress: (fraction: number) => void): Promise<void> {
    return new Promise((resolve, reject) => {
      const xhr = new XMLHttpRequest();
      xhr.open('PUT', `/api/admin/payment-requests/${encodeURIComponent(id)}/invoice`);
      xhr.setRequestHeader('authorization', `Bearer ${this.token}`);
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
        if (error.code === 'admin_unauthorized') this.onUnauthorized();
        reject(error);
      });
      xhr.addEventListener('error', () => reject(new AdminApiError(0, 'network_error', MESSAGES.network_error!)));
      // The browser sets Content-Length from the File itself.
      xhr.send(file);
    });
  }
}
