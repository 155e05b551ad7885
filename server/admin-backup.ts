/**
 * `npm run admin -- backup <file>` and `restore <file>`: the SQLite store (DATA_DIR/checkout.sqlite) copied while the
 * server runs and takes payments, and put back with the server stopped. The copy is SQLite's online backup
 * (better-sqlite3's `db.backup`) from a read-only connection, every page in one step: one read transaction, so a
 * consistent snapshot that the server's commits meanwhile neither restart nor split (a copy in steps starts over at
 * each commit of another connection, and a busy store might never finish). Every transaction committed before it
 * began is in it. It is written under a temporary name beside the target and renamed once checked, so a file at the
 * target's name is always a whole backup. A restore checks the file is a store (a SQLite database with `checkouts` and
 * `schema_migrations`, no schema step this version does not know) before touching anything, refuses while a process
 * still has the database open, keeps the replaced file aside as `<file>.before-restore-<timestamp>`, removes the old
 * database's `-wal`/`-shm`, and puts the copy in place by a rename.
 * PostgreSQL (DATABASE_URL) has its own tools: pg_dump -Fc and pg_restore.
 */
import { copyFileSync, existsSync, renameSync, rmSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import Database from 'better-sqlite3';
import { migrations } from './store/migrations';

/** A refusal: one line for stderr, exit code 1. */
export class BackupError extends Error {}

/** Pages per step of the online backup: all of them, in one step (see above). */
const ALL_PAGES = 0x7fffffff;

/** A scratch name beside `file`, for a copy not yet checked. */
const scratchOf = (file: string) => join(dirname(file), `.${basename(file)}.partial-${process.pid}`);

/** The tables a file must hold to be taken for a store. */
const STORE_TABLES = ['checkouts', 'schema_migrations'] as const;

/** The store's file in `dataDir`, as server/store/index.ts opens it. */
export const storeFile = (dataDir: string) => join(dataDir, 'checkout.sqlite');

function refuseOnPostgres(databaseUrl: string | undefined, verb: 'backup' | 'restore') {
  if (databaseUrl) {
    const tool = verb === 'backup' ? 'pg_dump -Fc "$DATABASE_URL" > <file>' : 'pg_restore --clean -d "$DATABASE_URL" <file>';
    throw new BackupError(`The store is PostgreSQL (DATABASE_URL): ${verb} it with ${tool}.`);
  }
}

/** Copies the live store into `target` (a new file); resolves with the pages copied. */
export async function backupStore(options: { dataDir: string; databaseUrl?: string; target: string }): Promise<string> {
  refuseOnPostgres(options.databaseUrl, 'backup');
  const source = storeFile(options.dataDir);
  const target = resolve(options.target);
  if (!existsSync(source)) throw new BackupError(`No store at ${source}.`);
  if (existsSync(target)) throw new BackupError(`${target} exists already; give a new file.`);
  // Read-only and waiting a while on a writer's lock: the server keeps writing while the pages are copied.
  const partial = scratchOf(target);
  const db = new Database(source, { readonly: true, fileMustExist: true, timeout: 5_000 });
  try {
    await db.backup(partial, { progress: () => ALL_PAGES });
    checkStoreFile(partial, target);
    renameSync(partial, target);
  } finally {
    db.close();
    rmSync(partial, { force: true });
  }
  return `Backed up ${source} to ${target}.`;
}

/** Throws unless `file` (named `named` to the operator) is a SQLite database holding the store's tables, of known steps. */
function checkStoreFile(file: string, named = file) {
  if (!existsSync(file)) throw new BackupError(`No file ${named}.`);
  let db: Database.Database | undefined;
  try {
    db = new Database(file, { readonly: true, fileMustExist: true });
    const names = new Set(
      db
        .prepare("SELECT name FROM sqlite_master WHERE type = 'table'")
        .all()
        .map((row) => (row as { name: string }).name),
    );
    const missing = STORE_TABLES.filter((table) => !names.has(table));
    if (missing.length > 0) throw new BackupError(`${named} is not a store backup: no ${missing.join(', ')} table.`);
    const check = db.pragma('quick_check', { simple: true });
    if (check !== 'ok') throw new BackupError(`${named} is damaged: ${String(check)}.`);
    // A newer release's store: this one would run on a schema it does not know.
    const known = new Set(migrations.map((step) => step.version));
    const versions = db.prepare('SELECT version FROM schema_migrations').pluck().all() as number[];
    const unknown = versions.filter((version) => !known.has(Number(version)));
    if (unknown.length > 0) throw new BackupError(`${named} has schema steps this release does not know (${unknown.join(', ')}).`);
  } catch (error) {
    if (error instanceof BackupError) throw error;
    throw new BackupError(`${named} is not a SQLite database.`);
  } finally {
    db?.close();
  }
}

/**
 * Throws when a process (a running server) has `file` open. Every connection to a WAL database keeps a shared lock
 * on it while open, so an exclusive lock is refused until the last one closes.
 */
function refuseWhileOpen(file: string) {
  if (!existsSync(file)) return;
  const db = new Database(file, { fileMustExist: true, timeout: 200 });
  try {
    db.pragma('locking_mode = EXCLUSIVE');
    db.exec('BEGIN EXCLUSIVE');
    // A read opens the WAL, so this last connection's close checkpoints it into the file kept aside.
    db.prepare('SELECT count(*) FROM sqlite_master').get();
    db.exec('COMMIT');
  } catch {
    throw new BackupError(`${file} is in use (is the server running?); stop it before a restore.`);
  } finally {
    db.close();
  }
}

/** Puts `backup` in place of the store; the server must be stopped. Resolves with what to print. */
export async function restoreStore(options: { dataDir: string; databaseUrl?: string; backup: string; now: Date }): Promise<string> {
  refuseOnPostgres(options.databaseUrl, 'restore');
  const backup = resolve(options.backup);
  checkStoreFile(backup);
  const live = storeFile(options.dataDir);
  refuseWhileOpen(live);
  const lines: string[] = [];
  if (existsSync(live)) {
    const aside = `${live}.before-restore-${options.now.toISOString().replace(/[:.]/g, '-')}`;
    renameSync(live, aside);
    lines.push(`The replaced store is kept as ${aside}.`);
  }
  // The old database's journal would be replayed onto the restored one: gone with it.
  for (const suffix of ['-wal', '-shm']) rmSync(`${live}${suffix}`, { force: true });
  // Copied beside the store, then renamed: a restore cut short leaves no half file under the store's name.
  const incoming = scratchOf(live);
  try {
    copyFileSync(backup, incoming);
    renameSync(incoming, live);
  } finally {
    rmSync(incoming, { force: true });
  }
  return [`Restored ${backup} to ${live}.`, ...lines].join('\n');
}
