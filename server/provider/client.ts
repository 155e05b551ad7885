/**
 * Typed client of the partner API. Resources are plain objects of verb methods (stripe-node style); every
 * call goes through the one `Requester`, which owns the token, timeouts, retries and error mapping.
 */
import { z } from 'zod';
import { explainKeyRefusal } from './key-refusal';
import { Requester, type RequesterOptions } from './request';
import type { TokenCache } from './token';
import * as s from './schemas';

export interface ProviderClientOptions extends RequesterOptions {
  /** The spec states both GET and POST for the transaction record; GET unless the provider needs POST. */
  transactionRecordMethod?: 'GET' | 'POST';
}

type Out<T extends z.ZodType> = z.output<T>;

/**
 * The partner API as the product sees it: one resource per area, each a plain object of verb methods. Declared
 * here rather than inferred from the factory, so a reader (and go-to-definition) stops at the contract, and a
 * test double states what it stands in for.
 */
export interface ProviderClient {
  /** Token cache of this client; `logins` counts logins performed. */
  readonly tokens: TokenCache;
  /** Logs in now (normally implicit on first call) and returns the token. */
  login(): Promise<string>;
  readonly pix: {
    /** Creates a PIX cash-in: a QR code and copy-and-paste code the end user pays. Starts Registered. */
    createCashIn(body: s.CashInRequest): Promise<s.CashInResponse>;
    /**
     * Creates a PIX cash-out to a PIX key, a key plus the recipient's bank account, or the bank account alone
     * (`payment.recipient.account`, digit included). Starts Created. Key types are upper case (`CPF`, `EMAIL`,
     * `PHONE`, `EVP`) and phone keys `+55…`: a refusal of another spelling says so in its message.
     */
    createCashOut(body: s.CashOutRequest): Promise<s.CashOutResponse>;
  };
  readonly openFinance: {
    /** Creates an OpenFinance payment initiation; redirect the end user to `checkoutUrl`. */
    createInitiation(body: s.InitiationRequest): Promise<s.InitiationResponse>;
  };
  readonly transactions: {
    /** The record (transaction, payment, webhook) of a PIX or OpenFinance transaction; `view: 'status'` checks only its status fields. */
    retrieve(transactionId: string): Promise<s.TransactionRecord>;
    retrieve(transactionId: string, options: { view: 'status' }): Promise<s.TransactionStatus>;
    retrieve(transactionId: string, options?: RetrieveOptions): Promise<s.TransactionRecord | s.TransactionStatus>;
    /** Transactions of one order id within a date range of at most one day. */
    list(query: s.ListTransactionsQuery): Promise<s.TransactionList>;
  };
  readonly balance: {
    /**
     * The balance now, of the key's own account or of `accountUid`; with `filterDate` (a Date or an ISO 8601 day,
     * read in UTC) the closing balance of that day. The provider does not publish the answer's shape: `balance` is
     * the amount as decimal text, other known fields are optional, and `raw` is the answer as it came.
     */
    retrieve(options?: s.BalanceQuery): Promise<s.Balance>;
  };
  /** The emulator's simulations (`/partners-int/sandbox/…`); a real provider answers them with 404. */
  readonly sandbox: {
    readonly pix: {
      complete(transactionId: string, payer?: s.SandboxCompleteRequest): Promise<s.SandboxResult>;
      error(transactionId: string): Promise<s.SandboxResult>;
      cancel(transactionId: string): Promise<s.SandboxResult>;
      reverse(transactionId: string): Promise<s.SandboxResult>;
    };
    readonly openFinance: {
      complete(transactionId: string): Promise<s.SandboxResult>;
      error(transactionId: string): Promise<s.SandboxResult>;
    };
  };
  readonly receivers: {
    list(query: s.ListReceiversQuery): Promise<s.ReceiverPage>;
    /** One receiver, answered in the list shape with a single item. */
    retrieve(receiverId: string): Promise<s.ReceiverPage>;
    listAccounts(receiverId: string, page?: { offset?: number; limit?: number }): Promise<Out<typeof s.receiverAccountList>>;
  };
  readonly paymentRequests: {
    /** Pays one account of an approved receiver; the request starts Pending and waits for approval. */
    create(body: s.CreatePaymentRequest): Promise<s.PaymentRequest>;
    list(query: s.ListPaymentRequestsQuery): Promise<s.PaymentRequestPage>;
    retrieve(id: string): Promise<s.PaymentRequestDetail>;
    /** Cancels a request that is not yet approved and executed. */
    cancel(id: string): Promise<void>;
  };
  readonly documents: {
    /** A time-limited (300 s) address that accepts the invoice file once. */
    createUploadAddress(body: s.DocumentUploadRequest): Promise<Out<typeof s.uploadAddress>>;
    /**
     * PUTs the file's raw bytes to an address from `createUploadAddress`. `body` may be a stream, so a large
     * invoice passes through without being held in memory.
     */
    upload(address: string, body: BodyInit, file: { contentType: string; size?: number }): Promise<s.DocumentItem | undefined>;
    list(query: s.ListDocumentsQuery): Promise<s.DocumentPage>;
    delete(documentId: string): Promise<void>;
  };
}

/** Which check a transaction's record gets: the whole record (default), or its status fields (`transactionStatus`). */
export interface RetrieveOptions {
  view?: 'record' | 'status';
}

const enc = encodeURIComponent;

/** The emulator answers an upload with the stored document; other hosts may answer with nothing. */
const documentUploadAnswer = z.union([s.done(s.documentItem).transform((e) => e.data), z.unknown().transform(() => undefined)]);

export function createProviderClient(options: ProviderClientOptions): ProviderClient {
  const wire = new Requester(options);
  const call = wire.request.bind(wire);

  const simulate = (area: 'transactions' | 'payment-initiation', operation: string, id: string, body?: unknown) =>
    call({
      method: 'POST',
      path: `/partners-int/sandbox/${area}/${operation}/${enc(id)}`,
      body: body ?? {},
      schema: s.sandboxResult,
    });

  /** The record (transaction, payment, webhook) of a PIX or OpenFinance transaction; `view: 'status'` checks only its status fields. */
  function retrieveTransaction(transactionId: string): Promise<s.TransactionRecord>;
  function retrieveTransaction(transactionId: string, options: { view: 'status' }): Promise<s.TransactionStatus>;
  function retrieveTransaction(transactionId: string, options?: RetrieveOptions): Promise<s.TransactionRecord | s.TransactionStatus>;
  function retrieveTransaction(transactionId: string, { view = 'record' }: RetrieveOptions = {}) {
    return call({
      method: options.transactionRecordMethod ?? 'GET',
      path: `/partners-int/accounts/transactions/pix/${enc(transactionId)}`,
      schema: view === 'status' ? s.transactionStatus : s.transactionRecord,
      safeToRetry: true,
    });
  }

  return {
    tokens: wire.tokens,

    login: () => wire.tokens.get(),

    pix: {
      createCashIn: (body: s.CashInRequest) =>
        call({ method: 'POST', path: '/partners-int/accounts/pix/cashin', body, schema: s.cashInResponse }),
      createCashOut: (body: s.CashOutRequest) =>
        call({ method: 'POST', path: '/partners-int/accounts/pix/cashout', body, schema: s.cashOutResponse }).catch(
          explainKeyRefusal(body),
        ),
    },

    openFinance: {
      createInitiation: (body: s.InitiationRequest) =>
        call({ method: 'POST', path: '/partners-int/accounts/payment-initiation', body, schema: s.initiationResponse }),
    },

    transactions: {
      retrieve: retrieveTransaction,
      list: async (query: s.ListTransactionsQuery) =>
        call({
          method: 'GET',
          path: '/partners-int/accounts/transactions/pix',
          query: s.listTransactionsQuery.parse(query),
          schema: s.transactionList,
          safeToRetry: true,
        }),
    },

    balance: {
      retrieve: async (options: s.BalanceQuery = {}) => {
        const { accountUid, filterDate } = s.balanceQuery.parse(options);
        return call({
          method: 'GET',
          path: `/partners-int/accounts/balance${accountUid === undefined ? '' : `/${enc(accountUid)}`}`,
          query: { filterDate },
          schema: s.balance,
          safeToRetry: true,
        });
      },
    },

    sandbox: {
      pix: {
        complete: (transactionId: string, payer?: s.SandboxCompleteRequest) => simulate('transactions', 'complete', transactionId, payer),
        error: (transactionId: string) => simulate('transactions', 'error', transactionId),
        cancel: (transactionId: string) => simulate('transactions', 'cancel', transactionId),
        reverse: (transactionId: string) => simulate('transactions', 'reverse', transactionId),
      },
      openFinance: {
        complete: (transactionId: string) => simulate('payment-initiation', 'complete', transactionId),
        error: (transactionId: string) => simulate('payment-initiation', 'error', transactionId),
      },
    },

    receivers: {
      list: async (query: s.ListReceiversQuery) =>
        call({
          method: 'GET',
          path: '/partners-int/receivers',
          query: s.listReceiversQuery.parse(query),
          schema: s.receiverPage,
          safeToRetry: true,
        }),
      retrieve: (receiverId: string) =>
        call({ method: 'GET', path: `/partners-int/receivers/${enc(receiverId)}`, schema: s.receiverPage, safeToRetry: true }),
      listAccounts: (receiverId: string, page: { offset?: number; limit?: number } = {}) =>
        call({
          method: 'GET',
          path: `/partners-int/receivers/${enc(receiverId)}/accounts`,
          query: page,
          schema: s.receiverAccountList,
          safeToRetry: true,
        }),
    },

    paymentRequests: {
      create: (body: s.CreatePaymentRequest) =>
        call({ method: 'POST', path: '/partners-int/accounts/transaction-requests', body, schema: s.paymentRequest }),
      list: async (query: s.ListPaymentRequestsQuery) =>
        call({
          method: 'GET',
          path: '/partners-int/accounts/transaction-requests',
          query: s.listPaymentRequestsQuery.parse(query),
          schema: s.paymentRequestPage,
          safeToRetry: true,
        }),
      retrieve: (id: string) =>
        call({
          method: 'GET',
          path: `/partners-int/accounts/transaction-requests/${enc(id)}`,
          schema: s.paymentRequestDetail,
          safeToRetry: true,
        }),
      cancel: (id: string) =>
        call({
          method: 'PUT',
          path: `/partners-int/accounts/transaction-requests/cancel/${enc(id)}`,
          schema: s.doneOnly,
          envelope: false,
        }).then(() => undefined),
    },

    documents: {
      createUploadAddress: (body: s.DocumentUploadRequest) =>
        call({ method: 'POST', path: '/partners-int/documents', body, schema: s.uploadAddress }),
      upload: (address: string, body: BodyInit, file: { contentType: string; size?: number }) =>
        wire
          .upload(address, body, {
            'content-type': file.contentType,
            ...(file.size === undefined ? {} : { 'content-length': String(file.size) }),
          })
          .then((answer) => documentUploadAnswer.parse(answer)),
      list: (query: s.ListDocumentsQuery) =>
        call({ method: 'GET', path: '/partners-int/documents', query, schema: s.documentPage, safeToRetry: true }),
      delete: (documentId: string) =>
        call({
          method: 'DELETE',
          path: `/partners-int/documents/${enc(documentId)}`,
          schema: z.unknown(),
          envelope: false,
          safeToRetry: true,
        }).then(() => undefined),
    },
  };
}
