/**
 * The back-office's only wire: the BFF's `/api/admin` routes with the bearer admin token, the invoice upload through
 * `XMLHttpRequest` (fetch reports no upload progress), and the sandbox emulator's reviewer routes through the demo's
 * proxy (`/demo/api/sandbox-admin`), which takes the same token and adds the emulator's key on the server.
 */
import type {
  ApprovalFilter,
  Balance,
  CashOutResponse,
  DocumentPage,
  PaymentRequest,
  PaymentRequestDetail,
  PaymentRequestPage,
  PixKeyType,
  ReceiverAccount,
  ReceiverPage,
  TransactionList,
} from '../../server/provider/schemas';

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

export type PageSize = 5 | 10 | 20;

export interface CashOutInput {
  recipient: { name: string; cpf: string };
  key: { type: PixKeyType; value: string };
  amount: string;
  orderId: string;
  description?: string;
}

export interface PaymentRequestInput {
  amount: string;
  description: string;
  receiverId: string;
  accountId: string;
}

/** pt-BR wording for the codes a merchant meets; anything else keeps the server's own message. */
const MESSAGES: Record<string, string> = {
  admin_unauthorized: 'Token de administrador inválido. Confira o arquivo admin-token indicado no log do servidor.',
  network_error: 'Sem resposta do servidor. Verifique a conexão e tente de novo.',
  file_too_large: 'A nota fiscal deve ter no máximo 10 MiB.',
  pdf_required: 'A nota fiscal deve ser um PDF.',
  provider_unavailable: 'O provedor de pagamentos não respondeu. Tente de novo em instantes.',
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
  private async call<T>(method: string, path: string, body?: unknown, target: 'bff' | 'sandbox' = 'bff'): Promise<T> {
    const base = target === 'bff' ? '/api/admin' : '/demo/api/sandbox-admin';
    const headers: Record<string, string> = { accept: 'application/json', authorization: `Bearer ${this.token}` };
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

  cashOut = (input: CashOutInput) => this.call<CashOutResponse>('POST', '/cashouts', input);

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
