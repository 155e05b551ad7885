/**
 * The console users' second factor in the store (schema step 27, ./migrations-mfa.ts), written once for both
 * databases (`mfaPart`). A narrow port: the second factor's service (server/accounts/mfa/) takes only this.
 *
 * Rules kept here so both databases agree:
 * - a TOTP seed is stored as given (sealed by the caller); confirming it replaces the user's recovery codes in the
 *   same transaction;
 * - a TOTP code's time step and a recovery code are each spent by one conditional UPDATE, so two requests racing with
 *   the same code cannot both pass;
 * - a pending record is taken (read and deleted) at most once; an expired one is never returned;
 * - resetting a user's factors deletes its seed, codes, passkeys and pending records in one transaction.
 */
import { instant } from './accounts';
import type { Row } from './rows';
import type { Db } from './sql/db';
import { all, get, run } from './sql/work';

export interface StoredTotp {
  /** Sealed (server/lib/sealer.ts). */
  seed: string;
  /** Null while the enrolment waits for its first code. */
  enabledAt: string | null;
}

export interface StoredPasskey {
  /** The credential id, base64url. */
  id: string;
  userId: string;
  /** The COSE public key, base64url. */
  publicKey: string;
  counter: number;
  transports: string[];
  createdAt: string;
  lastUsedAt: string | null;
}

export type PendingPurpose = 'sign_in' | 'passkey_add' | 'passkey_sign_in' | 'passkey_step_up';

export interface PendingRecord {
  tokenHash: string;
  userId: string;
  purpose: PendingPurpose;
  challenge: string | null;
  attempts: number;
  expiresAt: string;
}

export interface MfaStore {
  getTotp(userId: string): Promise<StoredTotp | undefined>;
  /** Starts (or restarts) an enrolment: the seed kept, not enabled. */
  putPendingTotp(userId: string, seed: string): Promise<void>;
  /** Enables the TOTP at `at`, spending `step`, and makes `recoveryHashes` the user's only recovery codes. */
  enableTotp(userId: string, at: string, step: number, recoveryHashes: readonly string[]): Promise<void>;
  /** Spends the time step `step` unless it or a later one was spent: true when this call did. */
  spendTotpStep(userId: string, step: number): Promise<boolean>;
  /** Spends the unused recovery code of that hash: true when this call did. */
  spendRecoveryCode(userId: string, codeHash: string, at: string): Promise<boolean>;
  unusedRecoveryCodes(userId: string): Promise<number>;
  addPasskey(passkey: Omit<StoredPasskey, 'lastUsedAt'>): Promise<void>;
  listPasskeys(userId: string): Promise<StoredPasskey[]>;
  getPasskey(id: string): Promise<StoredPasskey | undefined>;
  /** Notes a use with the authenticator's new counter. */
  usePasskey(id: string, counter: number, at: string): Promise<void>;
  /** Removes one of the user's passkeys; false when the user has none of that id. */
  removePasskey(userId: string, id: string): Promise<boolean>;
  /** Deletes every factor of the user (and its pending records); true when it had one. */
  resetMfa(userId: string): Promise<boolean>;
  /** Keeps `record`, clearing the records already expired at `now`. */
  putPending(record: Omit<PendingRecord, 'attempts'>, now: string): Promise<void>;
  /** The record of `tokenHash` for `purpose` while it lasts at `now`. */
  findPending(tokenHash: string, purpose: PendingPurpose, now: string): Promise<PendingRecord | undefined>;
  /** Counts a failed attempt on it; resolves with the attempts so far. */
  failPending(tokenHash: string): Promise<number>;
  endPending(tokenHash: string): Promise<void>;
  /** Notes that the session proved the second factor at `at`. */
  noteProof(sessionHash: string, at: string): Promise<void>;
  proofOf(sessionHash: string): Promise<string | undefined>;
}

const date = (value: unknown) => (value instanceof Date ? value.toISOString() : (value as string | null));

const passkeyFromRow = (row: Row): StoredPasskey => ({
  id: row.id as string,
  userId: row.user_id as string,
  publicKey: row.public_key as string,
  counter: Number(row.counter),
  transports: JSON.parse(row.transports as string) as string[],
  createdAt: date(row.created_at)!,
  lastUsedAt: date(row.last_used_at),
});

export function mfaPart(db: Db): MfaStore {
  const sql = {
    totp: `SELECT * FROM admin_totp WHERE user_id = @userId`,
    putTotp: `
      INSERT INTO admin_totp (user_id, seed) VALUES (@userId, @seed)
      ON CONFLICT (user_id) DO UPDATE SET seed = excluded.seed, enabled_at = NULL, last_step = NULL`,
    enableTotp: `UPDATE admin_totp SET enabled_at = @at, last_step = @step WHERE user_id = @userId`,
    spendStep: `
      UPDATE admin_totp SET last_step = @step
      WHERE user_id = @userId AND enabled_at IS NOT NULL AND (last_step IS NULL OR last_step < @step)`,
    dropCodes: `DELETE FROM admin_recovery_codes WHERE user_id = @userId`,
    addCode: `INSERT INTO admin_recovery_codes (user_id, code_hash) VALUES (@userId, @codeHash)`,
    spendCode: `UPDATE admin_recovery_codes SET used_at = @at WHERE user_id = @userId AND code_hash = @codeHash AND used_at IS NULL`,
    unusedCodes: `SELECT count(*) AS n FROM admin_recovery_codes WHERE user_id = @userId AND used_at IS NULL`,
    addPasskey: `
      INSERT INTO admin_passkeys (id, user_id, public_key, counter, transports, created_at)
      VALUES (@id, @userId, @publicKey, @counter, @transports, @createdAt)`,
    passkeys: `SELECT * FROM admin_passkeys WHERE user_id = @userId ORDER BY created_at, id`,
    passkey: `SELECT * FROM admin_passkeys WHERE id = @id`,
    usePasskey: `UPDATE admin_passkeys SET counter = @counter, last_used_at = @at WHERE id = @id`,
    dropPasskey: `DELETE FROM admin_passkeys WHERE user_id = @userId AND id = @id`,
    dropTotp: `DELETE FROM admin_totp WHERE user_id = @userId`,
    dropPasskeys: `DELETE FROM admin_passkeys WHERE user_id = @userId`,
    dropPendingOf: `DELETE FROM admin_mfa_pending WHERE user_id = @userId`,
    prunePending: `DELETE FROM admin_mfa_pending WHERE expires_at <= @now`,
    putPending: `
      INSERT INTO admin_mfa_pending (token_hash, user_id, purpose, challenge, expires_at)
      VALUES (@tokenHash, @userId, @purpose, @challenge, @expiresAt)`,
    pending: `SELECT * FROM admin_mfa_pending WHERE token_hash = @tokenHash AND purpose = @purpose AND expires_at > @now`,
    failPending: `UPDATE admin_mfa_pending SET attempts = attempts + 1 WHERE token_hash = @tokenHash RETURNING attempts`,
    endPending: `DELETE FROM admin_mfa_pending WHERE token_hash = @tokenHash`,
    proof: `
      INSERT INTO admin_session_proofs (token_hash, proven_at) VALUES (@sessionHash, @at)
      ON CONFLICT (token_hash) DO UPDATE SET proven_at = excluded.proven_at`,
    proofOf: `SELECT proven_at FROM admin_session_proofs WHERE token_hash = @sessionHash`,
  };

  return {
    async getTotp(userId) {
      const row = await db.read(() => get(sql.totp, { userId }));
      return row && { seed: row.seed as string, enabledAt: date(row.enabled_at) };
    },
    async putPendingTotp(userId, seed) {
      await db.read(() => run(sql.putTotp, { userId, seed }));
    },
    async enableTotp(userId, at, step, recoveryHashes) {
      await db.write(function* () {
        yield* run(sql.enableTotp, { userId, at: instant(at), step });
        yield* run(sql.dropCodes, { userId });
        for (const codeHash of recoveryHashes) yield* run(sql.addCode, { userId, codeHash });
      });
    },
    async spendTotpStep(userId, step) {
      return (await db.read(() => run(sql.spendStep, { userId, step }))) === 1;
    },
    async spendRecoveryCode(userId, codeHash, at) {
      return (await db.read(() => run(sql.spendCode, { userId, codeHash, at: instant(at) }))) === 1;
    },
    async unusedRecoveryCodes(userId) {
      return Number((await db.read(() => get(sql.unusedCodes, { userId })))!.n);
    },
    async addPasskey({ id, userId, publicKey, counter, transports, createdAt }) {
      const params = { id, userId, publicKey, counter, transports: JSON.stringify(transports), createdAt: instant(createdAt) };
      await db.read(() => run(sql.addPasskey, params));
    },
    async listPasskeys(userId) {
      return (await db.read(() => all(sql.passkeys, { userId }))).map(passkeyFromRow);
    },
    async getPasskey(id) {
      const row = await db.read(() => get(sql.passkey, { id }));
      return row && passkeyFromRow(row);
    },
    async usePasskey(id, counter, at) {
      await db.read(() => run(sql.usePasskey, { id, counter, at: instant(at) }));
    },
    async removePasskey(userId, id) {
      return (await db.read(() => run(sql.dropPasskey, { userId, id }))) === 1;
    },
    resetMfa: (userId) =>
      db.write(function* () {
        const had = (yield* run(sql.dropTotp, { userId })) + (yield* run(sql.dropPasskeys, { userId }));
        yield* run(sql.dropCodes, { userId });
        yield* run(sql.dropPendingOf, { userId });
        return had > 0;
      }),
    async putPending({ tokenHash, userId, purpose, challenge, expiresAt }, now) {
      const params = { tokenHash, userId, purpose, challenge, expiresAt: instant(expiresAt) };
      await db.write(function* () {
        yield* run(sql.prunePending, { now: instant(now) });
        yield* run(sql.putPending, params);
      });
    },
    async findPending(tokenHash, purpose, now) {
      const row = await db.read(() => get(sql.pending, { tokenHash, purpose, now: instant(now) }));
      if (!row) return undefined;
      const { user_id, challenge, attempts, expires_at } = row;
      return {
        ...{ tokenHash, purpose, userId: user_id as string, challenge: (challenge as string | null) ?? null },
        ...{ attempts: Number(attempts), expiresAt: date(expires_at)! },
      };
    },
    async failPending(tokenHash) {
      const row = await db.read(() => get(sql.failPending, { tokenHash }));
      return row ? Number(row.attempts) : Number.MAX_SAFE_INTEGER;
    },
    async endPending(tokenHash) {
      await db.read(() => run(sql.endPending, { tokenHash }));
    },
    async noteProof(sessionHash, at) {
      await db.read(() => run(sql.proof, { sessionHash, at: instant(at) }));
    },
    async proofOf(sessionHash) {
      const row = await db.read(() => get(sql.proofOf, { sessionHash }));
      return row ? (date(row.proven_at) ?? undefined) : undefined;
    },
  };
}
