/**
 * The columns that hold sealed values (server/lib/sealer.ts): each one a line of `SEALED_COLUMNS`, which the start's
 * sealing of clear values, `npm run admin -- rotate-secrets-key` and the doctor walk. A part that keeps a new secret
 * adds its column here, with the context its values are sealed under (a value copied onto another row does not open).
 *
 * Every write here is a compare-and-set on the value read (`WHERE <column> = @was`): two instances sealing or
 * re-sealing at once leave each value sealed once, whichever wins, and a value changed meanwhile (an endpoint's
 * rotation) is left as its writer made it.
 */
import { isSealed, type Sealer } from '../lib/sealer';
import type { Db } from './sql/db';
import { all, get, run } from './sql/work';

export interface SealedColumn {
  table: string;
  /** The row's key column. */
  id: string;
  column: string;
  /** The sealer's context of the row whose key is `id`. */
  context: (id: string) => string;
}

export const SEALED_COLUMNS: readonly SealedColumn[] = [
  { table: 'sealed_canary', id: 'id', column: 'value', context: (id) => `canary:${id}` },
  { table: 'webhook_endpoints', id: 'id', column: 'secret', context: (id) => id },
  // Sealed under the endpoint's id too: a rotation moves `secret` here unopened.
  { table: 'webhook_endpoints', id: 'id', column: 'previous_secret', context: (id) => id },
  // A console user's TOTP seed (server/accounts/mfa.ts), sealed under its user's id.
  { table: 'admin_totp', id: 'user_id', column: 'seed', context: (id) => `totp:${id}` },
];

/** One sealed (or still clear) value: where it is and the id of the key it is sealed under (null: clear). */
export interface SealedValueKey {
  /** `table.column`. */
  column: string;
  id: string;
  keyId: string | null;
}

export interface ResealCount {
  /** Sealed again under the current key (or sealed for the first time, from clear). */
  resealed: number;
  /** Already under the current key. */
  current: number;
  /** Under a key the sealer does not hold (or changed): left as they are. */
  unopened: SealedValueKey[];
}

export interface SealedCheck {
  /** Whether the store's canary opens with the sealer's keys; `missing` before the first start after step 25. */
  canary: 'opens' | 'refused' | 'missing';
  values: SealedValueKey[];
}

export interface SealedValueStore {
  /** Seals every value still clear under the current key, and adds the canary if there is none; how many it sealed. */
  sealClearValues(sealer: Sealer): Promise<number>;
  /** Opens every value and seals it again under the current key, a write transaction per 100 values. */
  resealValues(sealer: Sealer): Promise<ResealCount>;
  /** The canary opened, and every value's key id (none opened). */
  checkSealedValues(sealer: Sealer): Promise<SealedCheck>;
}

const CANARY_ID = 'canary';
const BATCH = 100;

export function sealedValuesPart(db: Db): SealedValueStore {
  const read = (c: SealedColumn) =>
    db.read(() =>
      all<{ id: string; value: string }>(`SELECT ${c.id} AS id, ${c.column} AS value FROM ${c.table} WHERE ${c.column} IS NOT NULL`),
    );
  const swap = (c: SealedColumn) => `UPDATE ${c.table} SET ${c.column} = @value WHERE ${c.id} = @id AND ${c.column} = @was`;
  /** Writes `next` of each row, in transactions of `BATCH`; how many rows changed. */
  async function write(c: SealedColumn, rows: { id: string; was: string; value: string }[]) {
    let written = 0;
    for (let at = 0; at < rows.length; at += BATCH) {
      const batch = rows.slice(at, at + BATCH);
      written += await db.write(function* () {
        let changed = 0;
        for (const row of batch) changed += yield* run(swap(c), row);
        return changed;
      });
    }
    return written;
  }
  const where = (c: SealedColumn) => `${c.table}.${c.column}`;

  return {
    async sealClearValues(sealer) {
      const canary = SEALED_COLUMNS[0]!;
      const value = sealer.seal(CANARY_ID, canary.context(CANARY_ID));
      await db.read(() =>
        run(`INSERT INTO sealed_canary (id, value) VALUES (@id, @value) ON CONFLICT (id) DO NOTHING`, { id: CANARY_ID, value }),
      );
      let sealed = 0;
      for (const c of SEALED_COLUMNS) {
        const clear = (await read(c)).filter((row) => !isSealed(row.value));
        sealed += await write(
          c,
          clear.map(({ id, value: was }) => ({ id, was, value: sealer.seal(was, c.context(id)) })),
        );
      }
      return sealed;
    },
    async resealValues(sealer) {
      const count: ResealCount = { resealed: 0, current: 0, unopened: [] };
      for (const c of SEALED_COLUMNS) {
        const next: { id: string; was: string; value: string }[] = [];
        for (const { id, value: was } of await read(c)) {
          const keyId = sealer.keyIdOf(was) ?? null;
          if (keyId === sealer.keyId) {
            count.current++;
            continue;
          }
          try {
            const plain = keyId === null ? was : sealer.open(was, c.context(id));
            next.push({ id, was, value: sealer.seal(plain, c.context(id)) });
          } catch {
            count.unopened.push({ column: where(c), id, keyId });
          }
        }
        count.resealed += await write(c, next);
      }
      return count;
    },
    async checkSealedValues(sealer) {
      const canary = SEALED_COLUMNS[0]!;
      const row = await db.read(() => get<{ value: string }>(`SELECT value FROM sealed_canary WHERE id = @id`, { id: CANARY_ID }));
      let opens: SealedCheck['canary'] = 'missing';
      if (row) {
        try {
          sealer.open(row.value, canary.context(CANARY_ID));
          opens = 'opens';
        } catch {
          opens = 'refused';
        }
      }
      const values: SealedValueKey[] = [];
      for (const c of SEALED_COLUMNS)
        for (const { id, value } of await read(c)) values.push({ column: where(c), id, keyId: sealer.keyIdOf(value) ?? null });
      return { canary: opens, values };
    },
  };
}
