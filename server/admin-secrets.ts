/**
 * `npm run admin -- rotate-secrets-key` (./admin-cli.ts): every sealed value (server/store/sealed-columns.ts) opened
 * and sealed again under the current key, in transactions, audited as `secrets_key.rotate` by `cli`.
 *
 * - SECRETS_KEY set: the new key is SECRETS_KEY, the old one in SECRETS_KEY_PREVIOUS (every instance restarted with
 *   both first, so each opens either); once it reports nothing unopened, SECRETS_KEY_PREVIOUS can go.
 * - The embedded default: a new key is generated into DATA_DIR/secrets-key, the old one kept beside it in
 *   DATA_DIR/secrets-key.previous (so a crash midway, or the running server's values, still open); restart the
 *   server, and delete that file once `npm run doctor` names no value under it. Run again while it exists, it only
 *   finishes the re-sealing.
 */
import { existsSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AuditRecorder } from './accounts/audit';
import { PREVIOUS_SECRETS_KEY_FILE, type Config } from './config';
import { createSealer, newSecretsKey, parseSecretsKey } from './lib/sealer';
import type { SealedValueStore } from './store/sealed-columns';

/** Writes `text` into `file` whole or not at all (owner-only). */
function writeWhole(file: string, text: string) {
  writeFileSync(`${file}.tmp`, `${text}\n`, { mode: 0o600 });
  renameSync(`${file}.tmp`, file);
}

export async function rotateSecretsKey(
  config: Config,
  store: SealedValueStore,
  audit: AuditRecorder,
): Promise<{ ok: boolean; text: string }> {
  let current = config.secretsKey;
  let previous = config.secretsKeysPrevious;
  let generated = false;
  const previousFile = join(config.dataDir, PREVIOUS_SECRETS_KEY_FILE);
  if (!config.secretsKeyFromEnv && !existsSync(previousFile)) {
    // The old key is kept before the new one replaces it: no moment holds values no file opens.
    writeWhole(previousFile, current.toString('base64url'));
    const fresh = newSecretsKey();
    writeWhole(join(config.dataDir, 'secrets-key'), fresh);
    previous = [current, ...previous];
    current = parseSecretsKey(fresh);
    generated = true;
  }
  const sealer = createSealer(current, previous);
  const count = await store.resealValues(sealer);
  const unopened = count.unopened.map((value) => `${value.column} ${value.id} (key ${value.keyId ?? '?'})`);
  await audit({
    action: 'secrets_key.rotate',
    target: sealer.keyId,
    outcome: unopened.length === 0 ? 'ok' : 'failed',
    details: { resealed: count.resealed, current: count.current, unopened: unopened.length, generated },
  });
  const lines = [
    `${generated ? 'A new key was generated into DATA_DIR/secrets-key; ' : ''}sealed under key ${sealer.keyId}: ` +
      `${count.resealed} re-sealed, ${count.current} already under it.`,
    ...(unopened.length > 0 ? [`NOT OPENED (no key held opens them; give it in SECRETS_KEY_PREVIOUS): ${unopened.join(', ')}`] : []),
    config.secretsKeyFromEnv
      ? 'Once every instance runs with this SECRETS_KEY, SECRETS_KEY_PREVIOUS is no longer needed.'
      : `Restart the server; delete DATA_DIR/${PREVIOUS_SECRETS_KEY_FILE} once \`npm run doctor\` names no value under it.`,
  ];
  return { ok: unopened.length === 0, text: lines.join('\n') };
}
