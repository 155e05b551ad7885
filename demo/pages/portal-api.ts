/**
 * The sandbox portal's calls: the emulator's admin routes through the demo's proxy (`/demo/api/sandbox-admin`, opened
 * by the console's session cookie of an operator or an owner, which the browser sends by itself), and two reads of the
 * product: who is signed in (`/api/admin/session`) and the recent cash-outs (`/api/admin/cashouts`), the ones the
 * portal's bank decides. The page holds no token and no key.
 */
import type { PaymentRequestDetail, Receiver, ReceiverAccount } from '../../server/provider/schemas';
import { requestJson } from './common';

/** Who is signed in to the console, as `GET /api/admin/session` says. */
export interface PortalSession {
  actor: { kind: 'user' | 'token'; name: string; role: 'viewer' | 'operator' | 'owner' };
}

/** What the emulator's overview (`GET /sandbox/admin`) lists, as far as the portal reads it. */
export interface Overview {
  receivers: (Receiver & { accounts: ReceiverAccount[] })[];
  paymentRequests: PaymentRequestDetail[];
}

/** A cash-out or refund as the back office lists it (the fields the portal shows). */
export interface PortalCashOut {
  idempotencyKey: string;
  transactionId: string | null;
  state: string;
  amount: string;
  recipient: { name: string };
  key: { type: string; value: string };
  refundOf?: string | null;
}

export interface NewReceiver {
  name: string;
  cnpj: string;
  bankCode: string;
  bankName: string;
  agency: string;
  account: string;
}

const PROXY = '/demo/api/sandbox-admin';
const post = (path: string, body: unknown = {}) =>
  requestJson<{ data: unknown }>(`${PROXY}${path}`, { method: 'POST', body: JSON.stringify(body) });
const id = encodeURIComponent;

/** The session, or undefined when nobody is signed in to the console (401). */
export async function session(): Promise<PortalSession | undefined> {
  const response = await fetch('/api/admin/session', { headers: { accept: 'application/json' } });
  if (response.status === 401) return undefined;
  if (!response.ok) throw new Error(`HTTP ${response.status}`);
  return (await response.json()) as PortalSession;
}

export const overview = async () => (await requestJson<{ data: Overview }>(PROXY)).data;

export const cashOuts = async () => (await requestJson<{ items: PortalCashOut[] }>('/api/admin/cashouts?limit=20')).items;

/** Registers the company (Pending, as at the provider's portal) and its first bank account. */
export async function registerReceiver(input: NewReceiver): Promise<Receiver> {
  const { data } = await post('/receivers', { companyFantasyName: input.name, companyCNPJ: input.cnpj });
  const receiver = data as Receiver;
  await post(`/receivers/${id(receiver.id)}/accounts`, {
    bankCode: input.bankCode,
    bankName: input.bankName,
    accountAgency: input.agency,
    accountNumber: input.account,
  });
  return receiver;
}

export const reviewReceiver = (receiverId: string, decision: 'approve' | 'reject') => post(`/receivers/${id(receiverId)}/${decision}`);

export const decideRequest = (requestId: string, decision: 'approve' | 'reject') =>
  post(`/transaction-requests/${id(requestId)}/${decision}`);

export const decideCashOut = (transactionId: string, operation: 'complete' | 'error' | 'cancel') =>
  post(`/cashouts/${id(transactionId)}/${operation}`);
