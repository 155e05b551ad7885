/** Company payments: receivers, their bank accounts, payment requests, approval steps and invoice documents. */
import { z } from 'zod';
import { decimalString, isoDate, keepRaw, maybe, page, pageLimit } from './common';

export const approvalStatus = z.enum(['Pending', 'Approved', 'Rejected']);
/** The list filters name the refused status `Denied` while records say `Rejected`. */
export const approvalFilter = z.enum(['Pending', 'Approved', 'Denied']);
export type ApprovalFilter = z.infer<typeof approvalFilter>;

export const receiver = z.looseObject({
  id: z.string(),
  creationDate: isoDate,
  receiverStatus: approvalStatus,
  companyFantasyName: z.string(),
  companyCNPJ: z.string(),
  reviewNote: z.string().nullish(),
});
export type Receiver = z.infer<typeof receiver>;

export const receiverAccount = z.looseObject({
  id: z.string(),
  bankCode: z.string(),
  bankName: z.string(),
  accountAgency: z.string(),
  accountNumber: z.string(),
  accountOwnerDocNumber: z.string(),
  pixKey: z.string(),
  pixKeyType: z.string(),
});
export type ReceiverAccount = z.infer<typeof receiverAccount>;

export const listReceiversQuery = z.object({
  'dataset.limit': pageLimit,
  'dataset.offset': z.number().int().min(0),
  receiverStatus: approvalFilter.optional(),
});
export type ListReceiversQuery = z.input<typeof listReceiversQuery>;
export const receiverPage = page(receiver);
export type ReceiverPage = z.infer<typeof receiverPage>;
export const receiverAccountList = z.array(receiverAccount);

export const createPaymentRequest = z.object({
  amount: decimalString,
  description: z.string().min(1),
  refReceiver: z.string().min(1),
  refBankAccount: z.string().min(1),
});
export type CreatePaymentRequest = z.infer<typeof createPaymentRequest>;

export const paymentRequest = z.looseObject({
  id: z.string(),
  amount: decimalString,
  status: approvalStatus,
  pixKey: z.string(),
  pixKeyType: z.string(),
  description: z.string(),
  refReceiver: z.string(),
  refBankAccount: z.string(),
  refTransaction: z.string().nullish(),
  referencesInfo: z.looseObject({ receiverName: z.string().nullish(), customerName: z.string().nullish() }).nullish(),
  executionState: z.string().nullish(),
  executionCreatedDate: isoDate.nullish(),
  executionRegisteredDate: isoDate.nullish(),
  executionCompletedDate: isoDate.nullish(),
});
export type PaymentRequest = z.infer<typeof paymentRequest>;

export const listPaymentRequestsQuery = z.object({
  'dataset.limit': pageLimit,
  'dataset.offset': z.number().int().min(0),
  status: approvalFilter,
  startDate: isoDate,
  endDate: isoDate,
});
export type ListPaymentRequestsQuery = z.input<typeof listPaymentRequestsQuery>;
export const paymentRequestPage = page(paymentRequest);
export type PaymentRequestPage = z.infer<typeof paymentRequestPage>;

export const approvalFlowStep = z.looseObject({
  id: z.string(),
  date: isoDate,
  userFullName: z.string(),
  userRealm: z.string(),
  status: z.string(),
  comment: z.string().nullish(),
});
export type ApprovalFlowStep = z.infer<typeof approvalFlowStep>;

export const paymentRequestDetail = z.looseObject({ entity: paymentRequest, flows: z.array(approvalFlowStep) });
export type PaymentRequestDetail = z.infer<typeof paymentRequestDetail>;

export const documentUploadRequest = z.object({
  properties: z.object({ name: z.string().min(1) }),
  ownerType: z.literal('Transaction'),
  owner: z.string().min(1),
  type: z.literal('Invoice'),
  fileName: z.string().min(1),
});
export type DocumentUploadRequest = z.infer<typeof documentUploadRequest>;

/** The upload address: a plain string valid for 300 seconds. */
export const uploadAddress = z.string();

export const listDocumentsQuery = z.object({
  type: z.literal('Invoice'),
  ownerType: z.literal('Transaction'),
  owner: z.string().min(1),
});
export type ListDocumentsQuery = z.infer<typeof listDocumentsQuery>;

/**
 * The fields of a document the emulator sends (docs/spec-gaps.md). The contract publishes none, so it is what the
 * emulator answers, not what the client requires: see `documentItem`.
 */
export const emulatorDocumentItem = z.looseObject({
  id: z.string(),
  name: z.string(),
  fileName: z.string(),
  type: z.string(),
  ownerType: z.string(),
  owner: z.string(),
  status: z.string(),
  size: z.number().nullish(),
  contentType: z.string().nullish(),
  creationDate: isoDate,
});
export type EmulatorDocumentItem = z.infer<typeof emulatorDocumentItem>;

/**
 * A listed document as the client reads it. Item fields are not published: only an id is needed (to delete it; an
 * `_id` is read as one), every other field is optional and unknown ones are kept.
 */
export const documentItem = z.preprocess(
  (item) => (item !== null && typeof item === 'object' && !('id' in item) && '_id' in item ? { ...item, id: item._id } : item),
  z.looseObject({
    id: z.string(),
    name: maybe(z.string()),
    fileName: maybe(z.string()),
    type: maybe(z.string()),
    ownerType: maybe(z.string()),
    owner: maybe(z.string()),
    status: maybe(z.string()),
    size: maybe(z.number()),
    contentType: maybe(z.string()),
    creationDate: maybe(isoDate),
  }),
);
export type DocumentItem = z.infer<typeof documentItem>;
/** The page's four fields are the contract's; its items are not published, and the whole answer is kept as `raw`. */
export const documentPage = keepRaw(page(documentItem));
export type DocumentPage = z.infer<typeof documentPage>;
