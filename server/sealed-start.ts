/**
 * What a start does for the secrets sealed at rest (server/store/sealed-columns.ts): seals the values still clear (the
 * first start after schema step 25; idempotent, and safe with instances starting together), and says when SECRETS_KEY
 * does not open the store's canary: the key is not the one the other instances or the last start used. Once values
 * were sealed, the pages that held their clear forms are flushed out of SQLite's WAL.
 */
import type { Sealer } from './lib/sealer';
import type { PayerDataStore } from './store/payer-data';
import type { SealedValueStore } from './store/sealed-columns';

export async function sealAtStart(
  store: SealedValueStore & Pick<PayerDataStore, 'flushErased'>,
  sealer: Sealer,
  log: { log(...args: unknown[]): void; error(...args: unknown[]): void },
): Promise<void> {
  try {
    const sealed = await store.sealClearValues(sealer);
    if (sealed > 0) {
      // SQLite zeroes the clear forms in the file (secure_delete); the WAL still holds the pages they were in.
      await store.flushErased();
      log.log(`secrets at rest: sealed ${sealed} clear value(s) under key ${sealer.keyId}`);
    }
    if ((await store.checkSealedValues(sealer)).canary === 'refused') {
      log.error(
        `secrets at rest: SECRETS_KEY (key ${sealer.keyId}) does not open this store's sealed values: ` +
          'give it the key they were sealed with (`npm run doctor` names it)',
      );
    }
  } catch (error) {
    // The readers take clear values as they are: a failed pass is tried again at the next start.
    log.error('secrets at rest: sealing the clear values failed:', error);
  }
}
