/**
 * Schema steps 5 to 7 (`backOfficeSteps`): the back-office tables (cash-outs and refunds, each checkout's webhooks) and
 * the nonces of signed webhooks; and step 13 (`backOfficeApprovalSteps`): any number of refunds per checkout (partial ones; their sum is checked in the
 * reservation's transaction), and the approval of movements (who asked, who decided and when). Listed in order by
 * `./migrations`.
 */
import { CASH_OUT_PENDING_APPROVAL, UNSETTLED_CASH_OUT_STATES } from './back-office';
import { sqlList, step, type Migration } from './migration-step';
import { addColumn, bigint, createTable, dropIndex, index, instant, serial, text } from './sql/ddl';

/** The states that held a checkout's one refund when step 5 was released; a released step never changes. */
const STEP_5_HOLDING_STATES = ['Sending', 'Created', 'Registered', 'Completed'];

export const backOfficeSteps: readonly Migration[] = [
  step({
    version: 5,
    name: 'back-office: cash-outs under their idempotency key, refunds linked to their checkout, checkouts listed newest first',
    // One row per Idempotency-Key (the primary key is the idempotency rule, across instances and restarts); at most
    // one refund per checkout that is sending, under way or paid (a failed one frees the place for another try).
    ddl: [
      createTable('cashouts', {
        idempotency_key: text().primaryKey(),
        fingerprint: text().notNull(),
        order_id: text().notNull(),
        transaction_id: text().unique(),
        state: text().notNull(),
        amount_cents: bigint().notNull().check('amount_cents > 0'),
        recipient_name: text().notNull(),
        recipient_cpf: text().notNull(),
        key_type: text().notNull(),
        key_value: text().notNull(),
        description: text(),
        refund_of: text().references('checkouts', 'id'),
        charges: text(),
        created_at: instant().notNull(),
        updated_at: instant().notNull(),
      }),
      index('cashouts_one_refund', 'cashouts', ['refund_of'], {
        unique: true,
        where: `refund_of IS NOT NULL AND state IN (${sqlList(STEP_5_HOLDING_STATES)})`,
      }),
      index('cashouts_recent', 'cashouts', ['created_at']),
      index('cashouts_unsettled', 'cashouts', ['updated_at'], { where: `state IN (${sqlList(UNSETTLED_CASH_OUT_STATES)})` }),
      index('checkouts_recent', 'checkouts', ['created_at', 'id']),
    ],
  }),
  step({
    version: 6,
    name: 'nonces of signed webhooks, so a signature seen once is refused on every instance',
    // The primary key is the replay rule: two instances receiving the same signed webhook cannot both insert it.
    // Rows older than twice the signature window are deleted as new ones arrive (the window refuses them anyway).
    ddl: [
      createTable('webhook_nonces', { nonce: text().primaryKey(), seen_at: instant().notNull() }, { withoutRowid: true }),
      index('webhook_nonces_by_age', 'webhook_nonces', ['seen_at']),
    ],
  }),
  step({
    version: 7,
    name: "the provider's webhooks each checkout received, and what became of each, for the back-office",
    ddl: [
      createTable('checkout_webhooks', {
        id: serial(),
        checkout_id: text().notNull(),
        transaction_id: text().notNull(),
        state: text(),
        outcome: text().notNull(),
        received_at: instant().notNull(),
      }),
      index('checkout_webhooks_by_checkout', 'checkout_webhooks', ['checkout_id', 'id']),
    ],
  }),
];

/** Step 13, listed by `./migrations` after step 12 (the steps between are in other files). */
export const backOfficeApprovalSteps: readonly Migration[] = [
  step({
    version: 13,
    name: 'back-office: partial refunds (no longer one per checkout) and the approval of cash-outs and refunds',
    // The refunds of a checkout are summed in the reservation's transaction (the checkout's row locked), so the index
    // that allowed one refund per checkout goes; a plain one finds a checkout's refunds. Who asked for a movement, and
    // the owner who approved or rejected it (PendingApproval until then), are kept on the row.
    ddl: [
      dropIndex('cashouts_one_refund'),
      index('cashouts_by_refund', 'cashouts', ['refund_of'], { where: 'refund_of IS NOT NULL' }),
      addColumn('cashouts', 'requested_by', text()),
      addColumn('cashouts', 'decided_by', text()),
      addColumn('cashouts', 'decided_at', instant()),
      index('cashouts_pending_approval', 'cashouts', ['created_at'], { where: `state = '${CASH_OUT_PENDING_APPROVAL}'` }),
      index('cashouts_decided', 'cashouts', ['decided_at'], { where: 'decided_at IS NOT NULL' }),
    ],
  }),
];
