/**
 * The go-live check of SECRETS_KEY (server/lib/sealer.ts): set (or, one instance on SQLite, kept in DATA_DIR), and it
 * opens the store's canary; every sealed value is under a key held (named when not), and none is left clear. Read
 * without migrating, as ./doctor-webhooks.ts reads the endpoints.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import type { Config } from './config';
import { fail, pass, why, type CheckResult } from './doctor-checks';
import { createSealer, keyIdOf } from './lib/sealer';
import { SEALED_COLUMNS } from './store/sealed-columns';

/** Every sealed column's values, `table.column id` → value; none for a table the store does not have yet. */
async function sealedValues(config: Config): Promise<Map<string, string>> {
  const values = new Map<string, string>();
  const queries = SEALED_COLUMNS.map((c) => ({
    c,
    sql: `SELECT ${c.id} AS id, ${c.column} AS value FROM ${c.table} WHERE ${c.column} IS NOT NULL`,
  }));
  const keep = (c: (typeof SEALED_COLUMNS)[number], rows: { id: string; value: string }[]) => {
    for (const row of rows) values.set(`${c.table}.${c.column} ${row.id}`, row.value);
  };
  if (config.databaseUrl) {
    const client = new pg.Client({ connectionString: config.databaseUrl, connectionTimeoutMillis: 5_000 });
    try {
      await client.connect();
      for (const { c, sql } of queries) {
        const found = await client.query<{ found: string | null }>('SELECT to_regclass($1)::text AS found', [c.table]);
        if (found.rows[0]?.found) keep(c, (await client.query<{ id: string; value: string }>(sql)).rows);
      }
    } finally {
      await client.end().catch(() => undefined);
    }
    return values;
  }
  const file = join(config.dataDir, 'checkout.sqlite');
  if (!existsSync(file)) return values;
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    for (const { c, sql } of queries) {
      const table = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name = ?").get(c.table);
      if (table) keep(c, db.prepare(sql).all() as { id: string; value: string }[]);
    }
  } finally {
    db.close();
  }
  return values;
}

export async function checkSecretsKey(config: Config): Promise<CheckResult> {
  const name = 'secrets key';
  const sealer = createSealer(config.secretsKey, config.secretsKeysPrevious);
  const held = new Set([config.secretsKey, ...config.secretsKeysPrevious].map(keyIdOf));
  const source = config.secretsKeyFromEnv ? 'SECRETS_KEY' : 'DATA_DIR/secrets-key (keep a copy apart from the backups)';
  let values: Map<string, string>;
  try {
    values = await sealedValues(config);
  } catch (error) {
    return fail(name, `the sealed values cannot be read (${why(error)})`);
  }
  const canary = values.get('sealed_canary.value canary');
  if (canary !== undefined) {
    try {
      sealer.open(canary, SEALED_COLUMNS[0]!.context('canary'));
    } catch {
      return fail(name, `${source} (key ${sealer.keyId}) does not open the store's canary (sealed under key ${sealer.keyIdOf(canary)})`);
    }
  }
  const clear = [...values].filter(([, value]) => sealer.keyIdOf(value) === undefined).map(([where]) => where);
  const unheld = [...values]
    .filter(([, value]) => {
      const id = sealer.keyIdOf(value);
      return id !== undefined && !held.has(id);
    })
    .map(([where, value]) => `${where} (key ${sealer.keyIdOf(value)})`);
  if (unheld.length > 0) return fail(name, `values under a key not held: ${unheld.join(', ')}`);
  if (clear.length > 0) return fail(name, `${clear.length} value(s) still clear (${clear.join(', ')}): start the server once to seal them`);
  const old = [...values.values()].filter((value) => sealer.keyIdOf(value) !== sealer.keyId).length;
  const rotation = old > 0 ? `; ${old} still under a previous key: run \`npm run admin -- rotate-secrets-key\`` : '';
  return pass(name, `${source}, key ${sealer.keyId}, opens the store's ${values.size} sealed value(s)${rotation}`);
}
