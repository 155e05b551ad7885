/**
 * The back office's users, for the routes of server/backoffice/users.ts and for `npm run admin` alike: add one (the
 * e-mail lower-cased, the password's length checked and hashed), list them, change a role, disable and enable, set a
 * new password (which ends the user's sessions). Each change is recorded in the audit trail by the caller's recorder.
 * No HTTP here: refusals are the values of ./errors.
 */
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import type { AdminUser } from '../../core/backoffice';
import type { Clock } from '../lib/clock';
import type { AccountStore, StoredUser, UserRole } from '../store/accounts';
import { invalidRequest } from '../payments/errors';
import { recorded, type AuditRecorder } from './audit';
import { lastOwner, passwordTooShort, userExists, userNotFound } from './errors';
import { hashPassword, longEnough, MAX_PASSWORD_LENGTH } from './passwords';

/** An e-mail as users are known by: trimmed, lower-case, at most 254 characters. */
export const EmailSchema = z.string().trim().toLowerCase().max(254).pipe(z.email('An e-mail address'));
export const PasswordSchema = z.string().max(MAX_PASSWORD_LENGTH);

/** A user as the back office shows it (core/backoffice/wire-accounts.ts): never its hash. */
export const userView = (user: StoredUser): AdminUser => ({
  id: user.id,
  email: user.email,
  role: user.role,
  disabled: user.disabledAt !== null,
  createdAt: user.createdAt,
  lastSignInAt: user.lastSignInAt,
});

export interface UserDeps {
  store: AccountStore;
  clock: Clock;
}

/** The e-mail checked and normalised, or a 400 `invalid_request`. */
export function checkedEmail(email: string): string {
  const parsed = EmailSchema.safeParse(email);
  if (!parsed.success) throw invalidRequest('Not an e-mail address.', [{ path: '/email', message: 'An e-mail address' }]);
  return parsed.data;
}

/** The hash of a password that keeps the rules: a 422 `password_too_short` under 12 characters. */
export async function checkedHash(password: string): Promise<string> {
  if (!longEnough(password)) throw passwordTooShort();
  if (password.length > MAX_PASSWORD_LENGTH) throw invalidRequest(`The password may have at most ${MAX_PASSWORD_LENGTH} characters.`);
  return hashPassword(password);
}

export async function listUsers(store: AccountStore): Promise<AdminUser[]> {
  return (await store.listUsers()).map(userView);
}

/** The user of `email` (any case), or a 404 `user_not_found`. */
export async function userByEmail(store: AccountStore, email: string): Promise<StoredUser> {
  const user = await store.findUserByEmail(email);
  if (!user) throw userNotFound();
  return user;
}

/** Adds a user, recorded as `user.add`; a 409 `user_exists` when the e-mail is taken. */
export async function addUser(
  { store, clock }: UserDeps,
  input: { email: string; role: UserRole; password: string },
  audit: AuditRecorder,
): Promise<AdminUser> {
  const email = checkedEmail(input.email);
  return recorded(audit, 'user.add', email, async () => {
    const passwordHash = await checkedHash(input.password);
    const id = `usr_${randomBytes(12).toString('base64url')}`;
    const added = await store.addUser({ id, email, role: input.role, passwordHash, createdAt: clock.now().toISOString() });
    if (!added) throw userExists();
    return { result: userView(added), details: { role: added.role } };
  });
}

/** The action a change is recorded as: a role change, else the disable or the enable. */
const changeAction = (change: { role?: UserRole; disabled?: boolean }) =>
  change.role !== undefined ? 'user.change' : change.disabled ? 'user.disable' : 'user.enable';

/**
 * Changes a user's role or state, recorded as `user.change`, `user.disable` or `user.enable`. Disabling ends its
 * sessions at once; a 409 `last_owner` when it would leave no enabled owner, a 404 `user_not_found`.
 */
export async function changeUser(
  { store, clock }: UserDeps,
  id: string,
  change: { role?: UserRole; disabled?: boolean },
  audit: AuditRecorder,
): Promise<AdminUser> {
  const before = await store.getUser(id);
  return recorded(audit, changeAction(change), before?.email ?? id, async () => {
    if (!before) throw userNotFound();
    // A user disabled already keeps the time it was disabled at.
    const disabledAt =
      change.disabled === undefined ? undefined : change.disabled ? (before.disabledAt ?? clock.now().toISOString()) : null;
    const result = await store.changeUser(id, {
      ...(change.role ? { role: change.role } : {}),
      ...(disabledAt !== undefined ? { disabledAt } : {}),
    });
    if (!result) throw userNotFound();
    if ('refused' in result) throw lastOwner();
    const details = {
      ...(change.role !== undefined ? { role: result.user.role, previousRole: before.role } : {}),
      ...(change.disabled !== undefined ? { disabled: change.disabled } : {}),
    };
    return { result: userView(result.user), details };
  });
}

/** Sets a new password, recorded as `user.reset_password`; the user's sessions end with it. */
export async function resetPassword({ store }: UserDeps, id: string, password: string, audit: AuditRecorder): Promise<AdminUser> {
  const before = await store.getUser(id);
  return recorded(audit, 'user.reset_password', before?.email ?? id, async () => {
    if (!before) throw userNotFound();
    const result = await store.changeUser(id, { passwordHash: await checkedHash(password) });
    if (!result || 'refused' in result) throw userNotFound();
    return { result: userView(result.user) };
  });
}

/** What to print at a start with no user yet: how to add the first owner. Undefined once there is one. */
export async function noUserHint(store: AccountStore): Promise<string | undefined> {
  if ((await store.countUsers()) > 0) return undefined;
  return (
    'No console user yet: add the first owner with `npm run admin -- user add you@example.com --role owner --password-stdin` ' +
    '(it reads the password from standard input; the ADMIN_TOKEN still opens /api/admin meanwhile).'
  );
}
