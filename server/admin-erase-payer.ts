/**
 * `npm run admin -- erase-payer <cpf>` (./admin-cli.ts): one person's data erased from our store now (LGPD art. 18),
 * as server/store/payer-data.ts erases it, recorded in the audit trail as `payer.erase` under the masked CPF (never
 * the CPF itself: the trail is append-only, so what goes in stays), with the lines it prints.
 */
import { isValidCpf, maskCpf, taxNumberDigits } from '../core/cpf';
import { auditRecorder } from './accounts/audit';
import type { Clock } from './lib/clock';
import type { AccountStore } from './store/accounts';
import type { PayerDataStore } from './store/payer-data';

/** What stays out of our reach, said with every erasure. */
export const AT_THE_PROVIDER =
  'The provider keeps its own records of these payments (payer, CPF, account): the merchant must ask the provider to erase them.';

export async function erasePayer(cpf: string, deps: { store: PayerDataStore & AccountStore; clock: Clock }): Promise<string> {
  if (!isValidCpf(cpf)) throw new Error('erase-payer needs a valid CPF (11 digits, formatted or not).');
  const digits = taxNumberDigits(cpf);
  const { erased, left } = await deps.store.erasePayer(digits);
  await deps.store.flushErased();
  const audit = auditRecorder({ store: deps.store, clock: deps.clock, who: { actor: 'cli', role: null, ip: null } });
  await audit({ action: 'payer.erase', target: maskCpf(digits), outcome: 'ok', details: { erased, left } });
  const lines = [
    `Erased ${maskCpf(digits)}: ${erased.checkouts} payment(s), ${erased.cashOuts} refund(s) or cash-out(s). Amounts, states and ids stay.`,
  ];
  if (left.checkouts + left.cashOuts > 0) {
    lines.push(
      `Left for now: ${left.checkouts} payment(s) still being created, ${left.cashOuts} refund(s) or cash-out(s) still moving; run this again once they end.`,
    );
  }
  lines.push(AT_THE_PROVIDER);
  return lines.join('\n');
}
