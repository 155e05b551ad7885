/**
 * The refusals of the back office's accounts as values (`ApiError` of server/payments/errors.ts, with codes and
 * statuses from BACK_OFFICE_ERRORS in core/contract.ts): one named factory per refusal, so no call site picks a
 * status for a code. The HTTP layer writes them out; the CLI prints their message.
 */
import { ApiError } from '../payments/errors';
import { MIN_PASSWORD_LENGTH } from './passwords';

/** Wrong e-mail, wrong password and disabled user alike: one answer, so none of them can be told apart. */
export const invalidCredentials = () => new ApiError('invalid_credentials', 'The e-mail or the password is wrong.');
export const signInRateLimited = () => new ApiError('sign_in_rate_limited', 'Too many failed sign-ins. Try again later.');
export const userNotFound = () => new ApiError('user_not_found', 'No such user.');
export const sessionNotFound = () => new ApiError('session_not_found', 'No session of yours has this id.');
export const userExists = () => new ApiError('user_exists', 'A user with this e-mail already exists.');
export const passwordTooShort = () =>
  new ApiError('password_too_short', `The password must have at least ${MIN_PASSWORD_LENGTH} characters.`);
export const lastOwner = () => new ApiError('last_owner', 'This would leave no enabled owner: make another user an owner first.');
/** Signed in (or not), but the role lacks the right; `needed` is the least role of the route. */
export const adminForbidden = (needed: string) => new ApiError('admin_forbidden', `This needs the ${needed} role.`);
/** A write with the session cookie whose Origin is not the console's own (or is missing). */
export const crossSiteWrite = () =>
  new ApiError('cross_site_write', 'A change made with the session cookie must come from the console itself (its Origin).');
export const adminUnauthorized = () => new ApiError('admin_unauthorized', 'Sign in, or send a valid admin token.');
export const apiKeyNotFound = () => new ApiError('api_key_not_found', 'No such API key.');
export const apiKeyExists = () => new ApiError('api_key_exists', 'A key that is not revoked already has this name.');
export const mfaEnrolmentRequired = () =>
  new ApiError('mfa_enrolment_required', 'Your role needs a second factor: set up an authenticator app or a passkey first.');
/** `methods`: what renews the proof (`totp`, `recovery_code`, `passkey`). */
export const stepUpRequired = (methods: readonly string[]) =>
  new ApiError('step_up_required', 'Confirm with your second factor again to do this.', { methods });
export const mfaCodeInvalid = () => new ApiError('mfa_code_invalid', 'The code is wrong, spent or expired.');
export const mfaSignInExpired = () => new ApiError('mfa_sign_in_expired', 'Sign in again: the second step waited too long.');
export const passkeyNotFound = () => new ApiError('passkey_not_found', 'No passkey of yours has this id.');
export const mfaTotpState = (message: string) => new ApiError('mfa_totp_state', message);
