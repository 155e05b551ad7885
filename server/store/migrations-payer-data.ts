/**
 * Schema step 26: what the payer data's erasure (./payer-data.ts) walks. Each index holds only the rows that still
 * keep a person's data, so a retention pass reads the oldest of those and stops, however many rows it already
 * erased; an erased row leaves the index. Built online: they only make the pass faster.
 */
import { step, type Migration } from './migration-step';
import { index } from './sql/ddl';

/** The rows a retention pass looks at, in the words its statements use (a partial index serves only those). */
export const PAYER_KEPT = {
  checkouts: 'payer_cpf IS NOT NULL OR payer_name IS NOT NULL',
  cashouts: `recipient_cpf <> ''`,
} as const;

export const payerDataSteps: readonly Migration[] = [
  step({
    version: 26,
    name: 'indexes of the checkouts and cash-outs that still keep a payer or recipient, oldest first, for retention',
    ddl: [],
    online: [
      index('checkouts_payer_kept', 'checkouts', ['created_at'], { where: PAYER_KEPT.checkouts }),
      index('cashouts_recipient_kept', 'cashouts', ['created_at'], { where: PAYER_KEPT.cashouts }),
    ],
  }),
];
