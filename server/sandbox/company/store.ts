/**
 * Company payments in SQLite: receivers, their bank accounts, payment requests and their approval steps. Rows are
 * mapped to the partner API's shapes (the shared zod types) on the way out; documents live in documents-store.ts.
 */
import type Database from 'better-sqlite3';
import type { ApprovalFlowStep, Receiver, ReceiverAccount } from '../../provider/schemas';

type ApprovalStatus = Receiver['receiverStatus'];

/** A payment request as stored: the create response's fields plus what the execution fields are derived from. */
export interface StoredRequest {
  id: string;
  createdAt: string;
  status: ApprovalStatus;
  /** Two decimals, as validated at creation. */
  amount: string;
  description: string;
  receiverId: string;
  accountId: string;
  pixKey: string;
  receiverName: string;
  customerName: string;
  transactionId: string | null;
}

export type NewStep = Omit<ApprovalFlowStep, 'id'> & { id: string; comment: string | null };

type ReceiverRow = {
  id: string;
  created_at: string;
  status: ApprovalStatus;
  fantasy_name: string;
  cnpj: string;
  review_note: string | null;
};
type AccountRow = {
  id: string;
  receiver_id: string;
  bank_code: string;
  bank_name: string;
  agency: string;
  number: string;
  owner_doc: string;
  pix_key: string;
};
type RequestRow = {
  id: string;
  created_at: string;
  status: ApprovalStatus;
  amount: string;
  description: string;
  receiver_id: string;
  account_id: string;
  pix_key: string;
  receiver_name: string;
  customer_name: string;
  transaction_id: string | null;
};
type StepRow = { id: string; date: string; user_full_name: string; user_realm: string; status: string; comment: string | null };

const receiverOf = (r: ReceiverRow): Receiver => ({
  id: r.id,
  creationDate: r.created_at,
  receiverStatus: r.status,
  companyFantasyName: r.fantasy_name,
  companyCNPJ: r.cnpj,
  reviewNote: r.review_note,
});

/** Every account of a company receiver is paid through its CNPJ key, so the key type is fixed. */
const accountOf = (a: AccountRow): ReceiverAccount => ({
  id: a.id,
  bankCode: a.bank_code,
  bankName: a.bank_name,
  accountAgency: a.agency,
  accountNumber: a.number,
  accountOwnerDocNumber: a.owner_doc,
  pixKey: a.pix_key,
  pixKeyType: 'CNPJ',
});

const requestOf = (r: RequestRow): StoredRequest => ({
  id: r.id,
  createdAt: r.created_at,
  status: r.status,
  amount: r.amount,
  description: r.description,
  receiverId: r.receiver_id,
  accountId: r.account_id,
  pixKey: r.pix_key,
  receiverName: r.receiver_name,
  customerName: r.customer_name,
  transactionId: r.transaction_id,
});

const stepOf = (s: StepRow): ApprovalFlowStep => ({
  id: s.id,
  date: s.date,
  userFullName: s.user_full_name,
  userRealm: s.user_realm,
  status: s.status,
  comment: s.comment,
});

export function createCompanyStore(db: Database.Database) {
  const q = {
    insertReceiver: db.prepare(
      `INSERT INTO receivers (id, created_at, status, fantasy_name, cnpj, review_note)
       VALUES (@id, @creationDate, @receiverStatus, @companyFantasyName, @companyCNPJ, @reviewNote)`,
    ),
    reviewReceiver: db.prepare('UPDATE receivers SET status = ?, review_note = ? WHERE id = ?'),
    receiver: db.prepare('SELECT * FROM receivers WHERE id = ?'),
    receivers: db.prepare(
      'SELECT * FROM receivers WHERE (@status IS NULL OR status = @status) ORDER BY created_at, rowid LIMIT @limit OFFSET @offset',
    ),
    countReceivers: db.prepare('SELECT COUNT(*) AS total FROM receivers WHERE (@status IS NULL OR status = @status)'),
    insertAccount: db.prepare(
      `INSERT INTO receiver_accounts (id, receiver_id, created_at, bank_code, bank_name, agency, number, owner_doc, pix_key)
       VALUES (@id, @receiverId, @createdAt, @bankCode, @bankName, @accountAgency, @accountNumber, @accountOwnerDocNumber, @pixKey)`,
    ),
    account: db.prepare('SELECT * FROM receiver_accounts WHERE id = ?'),
    accounts: db.prepare('SELECT * FROM receiver_accounts WHERE receiver_id = ? ORDER BY created_at, rowid LIMIT ? OFFSET ?'),
    insertRequest: db.prepare(
      `INSERT INTO payment_requests (id, created_at, status, amount, description, receiver_id, account_id, pix_key,
         receiver_name, customer_name, transaction_id)
       VALUES (@id, @createdAt, @status, @amount, @description, @receiverId, @accountId, @pixKey, @receiverName,
         @customerName, @transactionId)`,
    ),
    request: db.prepare('SELECT * FROM payment_requests WHERE id = ?'),
    setRequest: db.prepare('UPDATE payment_requests SET status = ?, transaction_id = ? WHERE id = ?'),
    requests: db.prepare(
      `SELECT * FROM payment_requests WHERE status = @status AND created_at BETWEEN @start AND @end
       ORDER BY created_at, rowid LIMIT @limit OFFSET @offset`,
    ),
    countRequests: db.prepare(
      'SELECT COUNT(*) AS total FROM payment_requests WHERE status = @status AND created_at BETWEEN @start AND @end',
    ),
    allRequests: db.prepare('SELECT * FROM payment_requests ORDER BY created_at, rowid'),
    executing: db.prepare("SELECT * FROM payment_requests WHERE status = 'Approved' AND transaction_id IS NOT NULL"),
    insertStep: db.prepare(
      `INSERT INTO approval_steps (id, request_id, seq, date, user_full_name, user_realm, status, comment)
       VALUES (@id, @requestId, (SELECT COUNT(*) FROM approval_steps WHERE request_id = @requestId), @date,
         @userFullName, @userRealm, @status, @comment)`,
    ),
    steps: db.prepare('SELECT * FROM approval_steps WHERE request_id = ? ORDER BY seq'),
  };

  const addStep = (requestId: string, step: NewStep) => void q.insertStep.run({ requestId, ...step });

  return {
    insertReceiver: (r: Receiver) => void q.insertReceiver.run({ ...r, reviewNote: r.reviewNote ?? null }),
    reviewReceiver: (id: string, status: ApprovalStatus, note: string | null) => void q.reviewReceiver.run(status, note, id),
    receiver: (id: string) => {
      const row = q.receiver.get(id) as ReceiverRow | undefined;
      return row && receiverOf(row);
    },
    /** `status` null lists every status; oldest first. */
    receivers(status: ApprovalStatus | null, limit: number, offset: number) {
      const { total } = q.countReceivers.get({ status }) as { total: number };
      return { total, items: (q.receivers.all({ status, limit, offset }) as ReceiverRow[]).map(receiverOf) };
    },
    insertAccount: (a: ReceiverAccount & { receiverId: string; createdAt: string }) => void q.insertAccount.run(a),
    /** The account and whose it is. */
    account: (id: string) => {
      const row = q.account.get(id) as AccountRow | undefined;
      return row && { receiverId: row.receiver_id, account: accountOf(row) };
    },
    accounts: (receiverId: string, limit = -1, offset = 0) => (q.accounts.all(receiverId, limit, offset) as AccountRow[]).map(accountOf),
    /** Inserts the request and its first approval step at once. */
    insertRequest: db.transaction((r: StoredRequest, step: NewStep) => {
      q.insertRequest.run(r);
      addStep(r.id, step);
    }),
    request: (id: string) => {
      const row = q.request.get(id) as RequestRow | undefined;
      return row && requestOf(row);
    },
    /** Moves a request and records the step that moved it, in one database transaction. */
    decide: db.transaction((id: string, status: ApprovalStatus, transactionId: string | null, step: NewStep) => {
      q.setRequest.run(status, transactionId, id);
      addStep(id, step);
    }),
    requests(status: ApprovalStatus, start: string, end: string, limit: number, offset: number) {
      const { total } = q.countRequests.get({ status, start, end }) as { total: number };
      return { total, items: (q.requests.all({ status, start, end, limit, offset }) as RequestRow[]).map(requestOf) };
    },
    allRequests: () => (q.allRequests.all() as RequestRow[]).map(requestOf),
    /** Approved requests, whose transactions may still be on their way to Completed. */
    executing: () => (q.executing.all() as RequestRow[]).map(requestOf),
    steps: (requestId: string) => (q.steps.all(requestId) as StepRow[]).map(stepOf),
    /** Runs `work` in one database transaction (seeding). */
    atomically: <T>(work: () => T): T => db.transaction(work)(),
  };
}

export type CompanyStore = ReturnType<typeof createCompanyStore>;
