/**
 * The company payments part of the store (see `company-payments.ts`), written once for both databases
 * (`companyPaymentsPart`): each change one guarded statement, or a write transaction where it reads first. The
 * reconciler's claim is written as the cash-outs' (./reconcile): on PostgreSQL its rows are picked once and locked,
 * so an instance claiming at the same moment skips them; on SQLite the write lock holds from the pick to the lease.
 */
import { CASH_OUT_PENDING_APPROVAL, CASH_OUT_SENDING } from '../../core/cashout-machine';
import { companyPaymentMovesFrom, companyPaymentNext } from '../../core/company-payment-machine';
import { COMPANY_PAYMENT_COLUMNS, companyPaymentFromRow, companyPaymentParams } from './company-payment-rows';
import {
  NewCompanyPaymentSchema,
  type CompanyPayment,
  type CompanyPaymentStore,
  type ReserveCompanyPaymentResult,
} from './company-payments';
import { sqlList } from './migration-step';
import { claimOf } from './reconcile';
import type { Row } from './rows';
import type { Db } from './sql/db';
import { all, get, run, type Work } from './sql/work';

const AWAITING_DECISION = sqlList(companyPaymentMovesFrom('approve'));
const AWAITING_ANSWER = sqlList(companyPaymentMovesFrom('answer'));
const REOPENED_FROM = sqlList(companyPaymentMovesFrom('refused'));

/** Reservations tried before giving up: a key freed between the insert and the look-up (a discarded payment) lets the next insert. */
const RESERVE_ATTEMPTS = 5;

/** Oldest first, then by key: the order of the claim (an UPDATE … RETURNING gives its rows in no set order). */
const byCreation = (a: CompanyPayment, b: CompanyPayment) =>
  a.createdAt.localeCompare(b.createdAt) || (a.idempotencyKey < b.idempotencyKey ? -1 : 1);

export function companyPaymentsPart(db: Db): CompanyPaymentStore {
  const d = db.dialect;
  const key = d.textOrder('idempotency_key');
  const sql = {
    reserve: `
      INSERT INTO company_payments (${COMPANY_PAYMENT_COLUMNS.join(', ')})
      VALUES (${COMPANY_PAYMENT_COLUMNS.map((column) => `@${column}`).join(', ')})
      ON CONFLICT DO NOTHING
      RETURNING *`,
    byKey: 'SELECT * FROM company_payments WHERE idempotency_key = @key',
    byRequest: 'SELECT * FROM company_payments WHERE request_id = @requestId',
    decide: `
      UPDATE company_payments SET state = @state, decided_by = @by, decided_at = @at, updated_at = @at
      WHERE idempotency_key = @key AND state IN (${AWAITING_DECISION})
      RETURNING *`,
    activate: `
      UPDATE company_payments SET state = '${companyPaymentNext(CASH_OUT_SENDING, 'answer')}', request_id = @requestId, updated_at = @at
      WHERE idempotency_key = @key AND state IN (${AWAITING_ANSWER})
        AND NOT EXISTS (SELECT 1 FROM company_payments held WHERE held.request_id = @requestId)
      RETURNING *`,
    discard: `DELETE FROM company_payments WHERE idempotency_key = @key AND state IN (${AWAITING_ANSWER}) AND decided_at IS NULL`,
    reopen: `
      UPDATE company_payments SET state = '${companyPaymentNext(CASH_OUT_SENDING, 'refused')}', decided_by = NULL, decided_at = NULL
      WHERE idempotency_key = @key AND state IN (${REOPENED_FROM}) AND decided_at IS NOT NULL`,
    pending: `
      SELECT * FROM company_payments WHERE state = '${CASH_OUT_PENDING_APPROVAL}' ORDER BY created_at, ${key} LIMIT @limit`,
    decided: `SELECT * FROM company_payments WHERE decided_at IS NOT NULL ORDER BY decided_at DESC, ${key} DESC LIMIT @limit`,
    claim: claimOf(
      d,
      'company_payments',
      'idempotency_key',
      `SELECT idempotency_key FROM ${d.indexedBy('company_payments', 'company_payments_sending')}
      WHERE state = '${CASH_OUT_SENDING}' AND coalesce(decided_at, created_at) < @before
        AND (next_check_at IS NULL OR next_check_at <= @now)
      ORDER BY created_at, ${key} LIMIT @limit${d.skipLocked}`,
      '@until',
    ),
  };
  const maybe = (row: Row | undefined) => (row ? companyPaymentFromRow(row) : undefined);
  const iso = (at: string) => new Date(at).toISOString();

  /** Takes the key, or reads the payment holding it; undefined when the key was freed in between (PostgreSQL). */
  function* reserve(draft: ReturnType<typeof NewCompanyPaymentSchema.parse>): Work<ReserveCompanyPaymentResult | undefined> {
    const state = draft.awaitsApproval ? CASH_OUT_PENDING_APPROVAL : CASH_OUT_SENDING;
    const inserted = yield* get(sql.reserve, companyPaymentParams(draft, state));
    if (inserted) return { outcome: 'created', payment: companyPaymentFromRow(inserted) };
    const existing = yield* get(sql.byKey, { key: draft.idempotencyKey });
    return existing ? { outcome: 'existing', payment: companyPaymentFromRow(existing) } : undefined;
  }

  return {
    async reserveCompanyPayment(input) {
      const draft = NewCompanyPaymentSchema.parse(input);
      for (let attempt = 0; attempt < RESERVE_ATTEMPTS; attempt++) {
        const result = await db.write(() => reserve(draft));
        if (result) return result;
      }
      throw new Error(`company payment ${draft.idempotencyKey}: reservation kept conflicting with rows that then disappeared`);
    },
    async decideCompanyPayment(key, { approve, by, at }) {
      const state = companyPaymentNext(CASH_OUT_PENDING_APPROVAL, approve ? 'approve' : 'reject');
      const decided = await db.read(() => get(sql.decide, { key, state, by, at: iso(at) }));
      if (decided) return { outcome: 'decided', payment: companyPaymentFromRow(decided) };
      const current = maybe(await db.read(() => get(sql.byKey, { key })));
      return current ? { outcome: 'not_pending', payment: current } : { outcome: 'not_found' };
    },
    async activateCompanyPayment(key, requestId, at) {
      try {
        return maybe(await db.read(() => get(sql.activate, { key, requestId, at: iso(at) })));
      } catch (error) {
        // Another key took the provider's request at the same moment: one request is never two payments.
        if (d.isUniqueViolation(error)) return undefined;
        throw error;
      }
    },
    async discardCompanyPayment(key) {
      // Sent without an approval: deleted. Approved: waits for a decision again. (Each statement guarded.)
      await db.write(function* () {
        if ((yield* run(sql.discard, { key })) === 0) yield* run(sql.reopen, { key });
      });
    },
    async getCompanyPayment(key) {
      return maybe(await db.read(() => get(sql.byKey, { key })));
    },
    async findCompanyPaymentByRequest(requestId) {
      return maybe(await db.read(() => get(sql.byRequest, { requestId })));
    },
    async listCompanyPaymentApprovals(state, limit) {
      return (await db.read(() => all(state === 'pending' ? sql.pending : sql.decided, { limit }))).map(companyPaymentFromRow);
    },
    async claimStaleCompanyPayments(now, before, limit, until) {
      const lease = { now: iso(now), before: iso(before), limit, until: iso(until) };
      // In a write transaction of its own: a second process on a SQLite file waits, then sees these leased.
      return (await db.write(() => all(sql.claim, lease))).map(companyPaymentFromRow).sort(byCreation);
    },
  };
}
