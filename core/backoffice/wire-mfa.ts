/** The console's second factor on the wire: the sign-in's second step, the enrolment, the step-up (server/backoffice/routes/mfa*.ts). */

/** How a second factor is proven. */
export type MfaMethod = 'totp' | 'recovery_code' | 'passkey';

/** `POST /session` when the password passed and a second factor is on: no session yet. */
export interface SecondStepRequired {
  mfaRequired: true;
  methods: MfaMethod[];
}

/** `POST /session/mfa` and `POST /session/step-up` with a TOTP or a recovery code. */
export interface MfaCodeInput {
  code: string;
}

/** `GET /me/mfa`: the signed-in user's factors. */
export interface MfaStatus {
  methods: MfaMethod[];
  /** MFA_REQUIRED names the user's role. */
  required: boolean;
  passkeys: { id: string; createdAt: string; lastUsedAt: string | null }[];
  recoveryCodesLeft: number;
}

/** `POST /me/mfa/totp`: the seed (base32, for typing) and the `otpauth://` URL the console draws as a QR code. */
export interface TotpEnrolment {
  secret: string;
  otpauthUrl: string;
}

/** `POST /me/mfa/totp/confirm`: ten one-use recovery codes, shown this once. */
export interface RecoveryCodes {
  recoveryCodes: string[];
}
