/**
 * `npm run admin -- audit verify` (./admin-cli.ts): what a walk of the audit trail's hash chain found
 * (server/store/audit-chain.ts), as the lines it prints. OK gives the count and the chain's head: kept somewhere the
 * database's users cannot write, a head lets a later check see the trail was not rewritten whole.
 */
import type { AuditVerification } from './store/accounts';

const WHY = {
  changed: 'its content no longer gives its hash (it was changed)',
  unlinked: 'it does not name the hash of the entry before it (an entry between them was deleted or inserted)',
  cut: "it is the chain's last entry, and it is missing (entries were cut off the end)",
} as const;

/** Whether the chain holds, and the text to print. */
export function verifyAuditTrail(result: AuditVerification): { ok: boolean; text: string } {
  if (result.ok) {
    const { count, head } = result;
    return { ok: true, text: `OK: ${count} audit ${count === 1 ? 'entry' : 'entries'} chained; head: entry ${head.seq}, ${head.hash}` };
  }
  const { count, first } = result;
  const at = first.at ? ` (at ${first.at})` : '';
  return {
    ok: false,
    text: `BROKEN: entry ${first.seq}${at} does not fit: ${WHY[first.reason]}. The ${count} before it fit.`,
  };
}
