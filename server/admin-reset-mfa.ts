/**
 * `npm run admin -- user reset-mfa <email>` (./admin-cli.ts): a user who lost its device loses its second factor (TOTP
 * seed, recovery codes, passkeys, pending sign-ins), recorded in the audit trail as `user.reset_mfa`; it enrols again
 * at its next sign-in when its role needs a factor.
 */
import type { AuditRecorder } from './accounts/audit';
import { userByEmail } from './accounts/users';
import type { AccountStore } from './store/accounts';
import type { MfaStore } from './store/mfa';

export async function resetMfa(email: string, store: AccountStore & MfaStore, audit: AuditRecorder): Promise<string> {
  const user = await userByEmail(store, email);
  const had = await store.resetMfa(user.id);
  await audit({ action: 'user.reset_mfa', target: user.email, outcome: 'ok', details: { hadFactor: had } });
  return had ? `Second factor removed for ${user.email}; it sets one up again at its next sign-in.` : `${user.email} had no second factor.`;
}
