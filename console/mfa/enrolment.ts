/** The forced enrolment: whether a signed-in user must set up a second factor before anything else, and its page. */
import type { AdminApi, Session } from '../api';
import './bo-mfa-setup';

/** True when the user's role needs a second factor (MFA_REQUIRED) and it has none. */
export async function mustEnrol(api: AdminApi, session: Session): Promise<boolean> {
  if (session.actor.kind !== 'user') return false;
  const { required, methods } = await api.mfaStatus();
  return required && methods.length === 0;
}
