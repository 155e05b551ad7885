/**
 * Payers' data erased from the store (LGPD), written once for both databases: once a payment is older than the
 * retention (`erasePayersBefore`, run in batches by server/payments/payer-retention.ts), or one person's now
 * (`erasePayer`, `npm run admin -- erase-payer`). What is erased: a checkout's `payer_cpf` and `payer_name`; a
 * cash-out's (a refund's, or a cash-out's to a person) recipient name, CPF and key, and the hash of its request (a
 * CPF's hash is a CPF: there are only a billion). Amounts, states, dates and the provider's ids stay. Nothing else
 * holds them: the merchant's events, their deliveries, the webhooks heard and the audit trail never take a CPF, and
 * a company payment's receiver is a company (its CNPJ and account are not a person's data).
 *
 * Each statement sets what it erases to the same empty values, so a pass run twice, or by two instances at once,
 * erases nothing more and breaks nothing. A checkout still being reserved (`Creating`) and a cash-out still moving
 * keep theirs, as their settlement may need them: `erasePayer` counts them as left, to be erased once they end.
 */
import { FINAL_CASH_OUT_STATES } from '../../core/cashout-machine';
import { formatCpf, taxNumberDigits } from '../../core/cpf';
import { sqlList } from './migration-step';
import { PAYER_KEPT } from './migrations-payer-data';
import type { Db } from './sql/db';
import { get, run } from './sql/work';

/** Rows erased (or left) in each table. */
export interface ErasedCounts {
  checkouts: number;
  cashOuts: number;
}

export interface PayerDataStore {
  /**
   * Erases the payers of at most `limit` checkouts and `limit` cash-outs created before `before` (an instant), the
   * oldest first; how many it erased (fewer than `limit` in both: nothing older is left).
   */
  erasePayersBefore(before: string, limit: number): Promise<ErasedCounts>;
  /** Erases every trace of one CPF (formatted or not) now: what was erased, and what is left until it settles. */
  erasePayer(cpf: string): Promise<{ erased: ErasedCounts; left: ErasedCounts }>;
  /** Pushes erased values out of the database's files now where the driver keeps old copies (SQLite's WAL). */
  flushErased(): Promise<void>;
}

/** Stands where a cash-out's request hash was: a repeated request under its key is refused (422), never resent. */
export const ERASED_FINGERPRINT = 'erased';

const FINAL = sqlList(FINAL_CASH_OUT_STATES);
const ERASE_CHECKOUT = `payer_cpf = NULL, payer_name = NULL`;
const ERASE_CASHOUT = `recipient_name = '', recipient_cpf = '', key_value = '', fingerprint = '${ERASED_FINGERPRINT}'`;
const HOLDS_CPF = `(recipient_cpf IN (@digits, @formatted) OR key_value IN (@digits, @formatted))`;

export function payerDataPart(db: Db): PayerDataStore {
  const before = db.dialect.instant('before');
  const sql = {
    oldCheckouts: `
      UPDATE checkouts SET ${ERASE_CHECKOUT} WHERE id IN (
        SELECT id FROM checkouts WHERE (${PAYER_KEPT.checkouts}) AND created_at < ${before} AND state <> 'Creating'
        ORDER BY created_at LIMIT @limit)`,
    oldCashOuts: `
      UPDATE cashouts SET ${ERASE_CASHOUT} WHERE idempotency_key IN (
        SELECT idempotency_key FROM cashouts WHERE ${PAYER_KEPT.cashouts} AND created_at < ${before} AND state IN (${FINAL})
        ORDER BY created_at LIMIT @limit)`,
    personCheckouts: `UPDATE checkouts SET ${ERASE_CHECKOUT} WHERE payer_cpf IN (@digits, @formatted) AND state <> 'Creating'`,
    personCashOuts: `UPDATE cashouts SET ${ERASE_CASHOUT} WHERE ${HOLDS_CPF} AND state IN (${FINAL})`,
    leftCheckouts: `SELECT count(*) AS n FROM checkouts WHERE payer_cpf IN (@digits, @formatted)`,
    leftCashOuts: `SELECT count(*) AS n FROM cashouts WHERE ${HOLDS_CPF}`,
  };
  return {
    erasePayersBefore(at, limit) {
      return db.write(function* () {
        const checkouts = yield* run(sql.oldCheckouts, { before: at, limit });
        const cashOuts = yield* run(sql.oldCashOuts, { before: at, limit });
        return { checkouts, cashOuts };
      });
    },
    erasePayer(cpf) {
      const digits = taxNumberDigits(cpf);
      const params = { digits, formatted: formatCpf(digits) };
      return db.write(function* () {
        const erased = { checkouts: yield* run(sql.personCheckouts, params), cashOuts: yield* run(sql.personCashOuts, params) };
        const count = function* (statement: string) {
          return Number((yield* get<{ n: number | string }>(statement, params))?.n ?? 0);
        };
        return { erased, left: { checkouts: yield* count(sql.leftCheckouts), cashOuts: yield* count(sql.leftCashOuts) } };
      });
    },
    // PostgreSQL: an updated row's old version is out of every query and dump at once, its space reused after VACUUM.
    async flushErased() {},
  };
}
