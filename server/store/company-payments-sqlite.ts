/** The company payments part of the SQLite store (see `company-payments.ts`); each write one guarded statement. */
import type Database from 'better-sqlite3';
import { CASH_OUT_PENDING_APPROVAL, CASH_OUT_SENDING } from '../../core/cashout-machine';
import { companyPaymentMovesFrom, companyPaymentNext } from '../../core/company-payment-machine';
import { COMPANY_PAYMENT_COLUMNS, companyPaymentFromRow, companyPaymentValues } from './company-payment-rows';
import { NewCompanyPaymentSchema, type CompanyPaymentStore, type ReserveCompanyPaymentResult } from './company-payments';
import { sqlList } from './migration-step';
import type { Row } from './rows';

const AWAITING_DECISION = sqlList(companyPaymentMovesFrom('approve'));
const AWAITING_ANSWER = sqlList(companyPaymentMovesFrom('answer'));
const REOPENED_FROM = sqlList(companyPaymentMovesFrom('refused'));

export function companyPaymentsSqlite(db: Database.Database): CompanyPaymentStore {
  const sql = {
    reserve: db.prepare(`
      INSERT INTO company_payments (${COMPANY_PAYMENT_COLUMNS.join(', ')})
      VALUES (${COMPANY_PAYMENT_COLUMNS.map(() => '?').join(', ')})
      ON CONFLICT DO NOTHING
      RETURNING *`),
    byKey: db.prepare('SELECT * FROM company_payments WHERE idempotency_key = ?'),
    byRequest: db.prepare('SELECT * FROM company_payments WHERE request_id = ?'),
    decide: db.prepare(`
      UPDATE company_payments SET state = @state, decided_by = @by, decided_at = @at, updated_at = @at
      WHERE idempotency_key = @key AND state IN (${AWAITING_DECISION})
      RETURNING *`),
    activate: db.prepare(`
      UPDATE company_payments SET state = '${companyPaymentNext(CASH_OUT_SENDING, 'answer')}', request_id = @requestId, updated_at = @at
      WHERE idempotency_key = @key AND state IN (${AWAITING_ANSWER})
        AND NOT EXISTS (SELECT 1 FROM company_payments held WHERE held.request_id = @requestId)
      RETURNING *`),
    discard: db.prepare(`DELETE FROM company_payments WHERE idempotency_key = ? AND state IN (${AWAITING_ANSWER}) AND decided_at IS NULL`),
    reopen: db.prepare(`
      UPDATE company_payments SET state = '${companyPaymentNext(CASH_OUT_SENDING, 'refused')}', decided_by = NULL, decided_at = NULL
      WHERE idempotency_key = ? AND state IN (${REOPENED_FROM}) AND decided_at IS NOT NULL`),
    pending: db.prepare(`
      SELECT * FROM company_payments WHERE state = '${CASH_OUT_PENDING_APPROVAL}' ORDER BY created_at, idempotency_key LIMIT ?`),
    claim: db.prepare(`
      UPDATE company_payments SET next_check_at = @until
      WHERE idempotency_key IN (
        SELECT idempotency_key FROM company_payments INDEXED BY company_payments_sending
        WHERE state = '${CASH_OUT_SENDING}' AND coalesce(decided_at, created_at) < @before
          AND (next_check_at IS NULL OR next_check_at <= @now)
        ORDER BY created_at, idempotency_key LIMIT @limit)
      RETURNING *`),
    decided: db.prepare(`
      SELECT * FROM company_payments WHERE decided_at IS NOT NULL ORDER BY decided_at DESC, idempotency_key DESC LIMIT ?`),
  };
  const one = (statement: Database.Statement, ...params: unknown[]) => statement.get(...params) as Row | undefined;
  const maybe = (row: Row | undefined) => (row ? companyPaymentFromRow(row) : undefined);
  /** Takes the key, or reads the payment holding it, in one write transaction (nothing frees the key in between). */
  const reserve = db.transaction((draft: ReturnType<typeof NewCompanyPaymentSchema.parse>): ReserveCompanyPaymentResult => {
    const state = draft.awaitsApproval ? CASH_OUT_PENDING_APPROVAL : CASH_OUT_SENDING;
    const inserted = one(sql.reserve, ...companyPaymentValues(draft, state));
    if (inserted) return { outcome: 'created', payment: companyPaymentFromRow(inserted) };
    return { outcome: 'existing', payment: companyPaymentFromRow(one(sql.byKey, draft.idempotencyKey)!) };
  });
  /** The claim in a write transaction of its own: a second process on the file waits, then sees these leased. */
  const claim = db.transaction((params: Record<string, unknown>) => sql.claim.all(params) as Row[]);
  /** Deletes a key sent without an approval; puts an approved one back to waiting for a decision. */
  const discard = db.transaction((key: string) => {
    if (sql.discard.run(key).changes === 0) sql.reopen.run(key);
  });

  return {
    async reserveCompanyPayment(input) {
      return reserve.immediate(NewCompanyPaymentSchema.parse(input));
    },
    async decideCompanyPayment(key, { approve, by, at }) {
      const state = companyPaymentNext(CASH_OUT_PENDING_APPROVAL, approve ? 'approve' : 'reject');
      const decided = one(sql.decide, { key, state, by, at: new Date(at).toISOString() });
      if (decided) return { outcome: 'decided', payment: companyPaymentFromRow(decided) };
      const current = maybe(one(sql.byKey, key));
      return current ? { outcome: 'not_pending', payment: current } : { outcome: 'not_found' };
    },
    async activateCompanyPayment(key, requestId, at) {
      return maybe(one(sql.activate, { key, requestId, at: new Date(at).toISOString() }));
    },
    async discardCompanyPayment(key) {
      discard.immediate(key);
    },
    async getCompanyPayment(key) {
      return maybe(one(sql.byKey, key));
    },
    async findCompanyPaymentByRequest(requestId) {
      return maybe(one(sql.byRequest, requestId));
    },
    async listCompanyPaymentApprovals(state, limit) {
      return (sql[state === 'pending' ? 'pending' : 'decided'].all(limit) as Row[]).map(companyPaymentFromRow);
    },
    async claimStaleCompanyPayments(now, before, limit, until) {
      const iso = (at: string) => new Date(at).toISOString();
      const rows = claim.immediate({ now: iso(now), before: iso(before), limit, until: iso(until) });
      return rows
        .map(companyPaymentFromRow)
        .sort((a, b) => a.createdAt.localeCompare(b.createdAt) || (a.idempotencyKey < b.idempotencyKey ? -1 : 1));
    },
  };
}
