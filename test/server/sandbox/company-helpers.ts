/** Builders for company-payment tests: seed ids, a payment request body, admin calls and upload calls. */
import type { Sandbox, SandboxOptions } from '../../../server/sandbox';
import { ADMIN_KEY_HEADER } from '../../../server/sandbox/company/routes/admin';
import { ADMIN_KEY, type Api, call, client, makeSandbox, type Reply } from './helpers';

/** The starter receivers and accounts every new sandbox has (server/sandbox/company/seed.ts). */
export const SEED = {
  approved: 'c0a000000000000000000001',
  approvedToo: 'c0a000000000000000000002',
  pending: 'c0a000000000000000000003',
  rejected: 'c0a000000000000000000004',
  account: 'acc000000000000000000001',
  secondAccount: 'acc000000000000000000002',
  accountOfApprovedToo: 'acc000000000000000000003',
  accountOfPending: 'acc000000000000000000004',
  cnpj: '11222333000181',
} as const;

/** Another valid CNPJ, not used by the seed. */
export const FREE_CNPJ = '87.654.321/0001-98';

/** A sandbox with a logged-in partner caller; executions move after a few milliseconds unless told otherwise. */
export async function companySandbox(options: Partial<SandboxOptions> = {}) {
  const { sandbox, clock } = makeSandbox({ companyPaymentDelaysMs: { register: 3_600_000, complete: 3_600_000 }, ...options });
  const api = await client(sandbox);
  return { sandbox, clock, api };
}

export const paymentBody = (extra: object = {}) => ({
  amount: '150.00',
  description: 'NF 123 - material de escritório',
  refReceiver: SEED.approved,
  refBankAccount: SEED.account,
  ...extra,
});

/** Creates a payment request and returns its id. */
export async function createRequest(api: Api, extra: object = {}): Promise<string> {
  const reply = await api('POST', '/accounts/transaction-requests', paymentBody(extra));
  if (reply.status !== 201) throw new Error(`create failed: ${reply.text}`);
  return reply.body.data.id as string;
}

/** An admin route of the sandbox (`/sandbox/admin/...` in public), with the test admin key unless told (`null`: none). */
export const admin = (sandbox: Sandbox, method: string, path: string, body?: unknown, key: string | null = ADMIN_KEY): Promise<Reply> =>
  call(sandbox, method, `/admin${path}`, body, key === null ? {} : { [ADMIN_KEY_HEADER]: key });

export const approve = (sandbox: Sandbox, id: string, body?: unknown) =>
  admin(sandbox, 'POST', `/transaction-requests/${id}/approve`, body);

/** Lists payment requests of one status over a wide date range. */
export const listRequests = (api: Api, status: string, extra: Record<string, string> = {}) =>
  api(
    'GET',
    '/accounts/transaction-requests?' +
      String(
        new URLSearchParams({
          'dataset.limit': '20',
          'dataset.offset': '0',
          status,
          startDate: '2026-01-01T00:00:00.000Z',
          endDate: '2026-12-31T23:59:59.999Z',
          ...extra,
        }),
      ),
  );

export const documentBody = (owner: string, extra: object = {}) => ({
  properties: { name: 'Nota fiscal 123' },
  ownerType: 'Transaction',
  owner,
  type: 'Invoice',
  fileName: 'nf-123.pdf',
  ...extra,
});

/** PUTs raw bytes to an upload address the emulator handed out, in-process. */
export async function upload(
  sandbox: Sandbox,
  address: string,
  bytes: Uint8Array<ArrayBuffer> | string,
  contentType = 'application/pdf',
): Promise<Reply> {
  const path = new URL(address).pathname.replace(/^\/sandbox/, '');
  const response = await sandbox.app.request(path, { method: 'PUT', body: bytes, headers: { 'content-type': contentType } });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined, text, headers: response.headers };
}
