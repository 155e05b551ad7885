/**
 * Schema step 27: the console users' second factor (./mfa.ts).
 *
 * - `admin_totp`: a user's TOTP seed, sealed (server/lib/sealer.ts, bound to the user's id), never in clear;
 *   `enabled_at` null while the enrolment waits for its first code; `last_step`, the last time step a code was
 *   accepted for, so a code opens once.
 * - `admin_recovery_codes`: the SHA-256 of each one-use recovery code, `used_at` once spent.
 * - `admin_passkeys`: WebAuthn credentials (public key and signature counter only).
 * - `admin_mfa_pending`: short-lived server-side records: a sign-in whose password passed and whose second step is
 *   awaited, and WebAuthn challenges; keyed by the SHA-256 of a random token.
 * - `admin_session_proofs`: when each session last proved the second factor (the step-up's 5 minutes).
 */
import { step, type Migration } from './migration-step';
import { bigint, createTable, index, instant, integer, text } from './sql/ddl';

const onUserDelete = { onDelete: 'CASCADE' } as const;

export const mfaSteps: readonly Migration[] = [
  step({
    version: 27,
    name: "the console users' second factor: sealed TOTP seeds, recovery code hashes, passkeys, pending sign-ins and step-up proofs",
    ddl: [
      createTable(
        'admin_totp',
        {
          user_id: text().primaryKey().references('admin_users', 'id', onUserDelete),
          seed: text().notNull(),
          enabled_at: instant(),
          last_step: bigint(),
        },
        { withoutRowid: true },
      ),
      createTable(
        'admin_recovery_codes',
        {
          user_id: text().notNull().references('admin_users', 'id', onUserDelete),
          code_hash: text().notNull(),
          used_at: instant(),
        },
        { primaryKey: ['user_id', 'code_hash'], withoutRowid: true },
      ),
      createTable(
        'admin_passkeys',
        {
          id: text().primaryKey(),
          user_id: text().notNull().references('admin_users', 'id', onUserDelete),
          public_key: text().notNull(),
          counter: bigint().notNull(),
          transports: text().notNull(),
          created_at: instant().notNull(),
          last_used_at: instant(),
        },
        { withoutRowid: true },
      ),
      index('admin_passkeys_of_user', 'admin_passkeys', ['user_id']),
      createTable(
        'admin_mfa_pending',
        {
          token_hash: text().primaryKey(),
          user_id: text().notNull().references('admin_users', 'id', onUserDelete),
          purpose: text().notNull().check(`purpose IN ('sign_in', 'passkey_add', 'passkey_sign_in', 'passkey_step_up')`),
          challenge: text(),
          attempts: integer().notNull().default('0'),
          expires_at: instant().notNull(),
        },
        { withoutRowid: true },
      ),
      createTable(
        'admin_session_proofs',
        {
          token_hash: text().primaryKey(),
          proven_at: instant().notNull(),
        },
        { withoutRowid: true },
      ),
    ],
  }),
];
