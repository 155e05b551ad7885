/** The company payments part of the PostgreSQL store (see `company-payments.ts`), with the same behaviour as SQLite's. */
import type pg from 'pg';
import { CASH_OUT_PENDING_APPROVAL, CASH_OUT_SENDING } from '../../core/cashout-machine';
import { companyPaymentMovesFrom, companyPaymentNext } from '../../core/company-payment-machine';
import { COMPANY_PAYMENT_COLUMNS, companyPaymentFromRow, companyPaymentValues } from './company-payment-rows';
import { NewCompanyPaymentSchema, type CompanyPaymentStore } from './company-payments';
import { sqlList } from './migration-step';
import type { Row } from './rows';

const AWAITING_DECISION = sqlList(companyPaymentMovesFrom('approve'));
const AWAITING_ANSWER = sqlList(companyPaymentMovesFrom('answer'));
const REOPENED_FROM = sqlList(companyPaymentMovesFrom('refused'));

const INSERT = `
  INSERT INTO company_payments (${COMPANY_PAYMENT_COLUMNS.join(', ')})
  VALUES (${COMPANY_PAYMENT_COLUMNS.map((_, i) => `$${i + 1}`).join(', ')})
  ON CONFLICT DO NOTHING
  RETURNING *`;
const BY_KEY = 'SELECT * FROM company_payments WHERE idempotency_key = $1';
/** SQLSTATE of a unique index violation: another key took the provider's request at the same moment. */
const UNIQUE_VIOLATION = '23505';

export function companyPaymentsPostgres(pool: pg.Pool): CompanyPaymentStore {
  const one = async (text: string, values: unknown[]) => (await pool.query<Row>(text, values)).rows[0];
  const maybe = (row: Row | undefined) => (row ? companyPaymentFromRow(row) : undefined);

  return {
    async reserveCompanyPayment(input) {
      const draft = NewCompanyPaymentSchema.parse(input);
      const values = companyPaymentValues(draft, draft.awaitsApproval ? CASH_OUT_PENDING_APPROVAL : CASH_OUT_SENDING);
      // A key freed between the insert and the look-up (a discarded payment) lets the next attempt insert.
      for (let attempt = 0; attempt < 5; attempt++) {
        const inserted = await one(INSERT, values);
        if (inserted) return { outcome: 'created', payment: companyPaymentFromRow(inserted) };
        const existing = await one(BY_KEY, [draft.idempotencyKey]);
        if (existing) return { outcome: 'existing', payment: companyPaymentFromRow(existing) };
      }
      throw new Error(`company payment ${draft.idempotencyKey}: reservation kept conflicting with rows that then disappeared`);
    },
    async decideCompanyPayment(key, { approve, by, at }) {
      const decided = await one(
        `UPDATE company_payments SET state = $2, decided_by = $3, decided_at = $4, updated_at = $4
         WHERE idempotency_key = $1 AND state IN (${AWAITING_DECISION})
         RETURNING *`,
        [key, companyPaymentNext(CASH_OUT_PENDING_APPROVAL, approve ? 'approve' : 'reject'), by, new Date(at).toISOString()],
      );
      if (decided) return { outcome: 'decided', payment: companyPaymentFromRow(decided) };
      const current = maybe(await one(BY_KEY, [key]));
      return current ? { outcome: 'not_pending', payment: current } : { outcome: 'not_found' };
    },
    async activateCompanyPayment(key, requestId, at) {
      try {
        const row = await one(
          `UPDATE company_payments SET state = '${companyPaymentNext(CASH_OUT_SENDING, 'answer')}', request_id = $2, updated_at = $3
           WHERE idempotency_key = $1 AND state IN (${AWAITING_ANSWER})
             AND NOT EXISTS (SELECT 1 FROM company_payments held WHERE held.request_id = $2)
           RETURNING *`,
          [key, requestId, new Date(at).toISOString()],
        );
        return maybe(row);
      } catch (error) {
        if ((error as { code?: string }).code === UNIQUE_VIOLATION) return undefined;
        throw error;
      }
    },
    async discardCompanyPayment(key) {
      // Sent without an approval: deleted. Approved: waits for a decision again. (One statement each, each guarded.)
      const deleted = await pool.query(
        `DELETE FROM company_payments WHERE idempotency_key = $1 AND state IN (${AWAITING_ANSWER}) AND decided_at IS NULL`,
        [key],
      );
      if (deleted.rowCount) return;
      await pool.query(
        `UPDATE company_payments SET state = '${companyPaymentNext(CASH_OUT_SENDING, 'refused')}', decided_by = NULL, decided_at = NULL
         WHERE idempotency_key = $1 AND state IN (${REOPENED_FROM}) AND decided_at IS NOT NULL`,
        [key],
      );
    },
    async getCompanyPayment(key) {
      return maybe(await one(BY_KEY, [key]));
    },
    async findCompanyPaymentByRequest(requestId) {
      return maybe(await one('SELECT * FROM company_payments WHERE request_id = $1', [requestId]));
    },
    async claimStaleCompanyPayments(now, before, limit, until) {
      // As the cash-outs' claim: the rows picked once and locked, so an instance claiming at the same moment skips them.
      const { rows } = await pool.query<Row>(
        `WITH picked AS MATERIALIZED (
           SELECT idempotency_key FROM company_payments
           WHERE state = '${CASH_OUT_SENDING}' AND COALESCE(decided_at, created_at) < $2 AND (next_check_at IS NULL OR next_check_at <= $1)
           ORDER BY created_at, idempotency_key COLLATE "C" LIMIT $3 FOR UPDATE SKIP LOCKED)
         UPDATE company_payments SET next_check_at = $4 FROM picked WHERE company_payments.idempotency_key = picked.idempotency_key
         RETURNING company_payments.*`,
        [new Date(now).toISOString(), new Date(before).toISOString(), limit, new Date(until).toISOString()],
      );
      return rows
        .map(companyPaymentFromRow)
        .sort((a, b) => a.createdAt.localeCompare(b.createdAt) || (a.idempotencyKey < b.idempotencyKey ? -1 : 1));
    },
    async listCompanyPaymentApprovals(state, limit) {
      const text =
        state === 'pending'
          ? `SELECT * FROM company_payments WHERE state = '${CASH_OUT_PENDING_APPROVAL}' ORDER BY created_at, idempotency_key COLLATE "C" LIMIT $1`
          : 'SELECT * FROM company_payments WHERE decided_at IS NOT NULL ORDER BY decided_at DESC, idempotency_key COLLATE "C" DESC LIMIT $1';
      return (await pool.query<Row>(text, [limit])).rows.map(companyPaymentFromRow);
    },
  };
}
