import Database from 'better-sqlite3';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../server/lib/clock';
import { createSandbox } from '../../../server/sandbox';
import { cashIn, cashOut, client, eventually, initiation, tempDir } from './helpers';

const open = (dataDir: string) =>
  createSandbox({ dataDir, publicBaseUrl: 'http://127.0.0.1:3000', clock: new ManualClock(), registerDelayMs: 3_600_000 });

describe('persistence', () => {
  it('keeps every transaction, in its state, across a restart with the same data folder', async () => {
    const dir = tempDir();
    const first = open(dir);
    let api = await client(first);
    const hook = 'http://127.0.0.1:1/x';
    const ids = [
      (await api('POST', '/accounts/pix/cashin', cashIn(hook))).body.data.transaction.id,
      (await api('POST', '/accounts/pix/cashout', cashOut(hook))).body.data.transaction.id,
      (await api('POST', '/accounts/payment-initiation', initiation(hook))).body.data.transactionId,
    ];
    const before = await Promise.all(ids.map(async (id) => (await api('GET', `/accounts/transactions/pix/${id}`)).body));
    first.close();

    const second = open(dir);
    try {
      api = await client(second);
      const after = await Promise.all(ids.map(async (id) => (await api('GET', `/accounts/transactions/pix/${id}`)).body));
      expect(after).toEqual(before);
      expect(after.map((r) => r.data.transaction.state)).toEqual(['Registered', 'Created', 'Registered']);
    } finally {
      second.close();
    }
  });

  it('records its schema version, uses WAL and stores money as text', () => {
    const dir = tempDir();
    open(dir).close();
    const db = new Database(join(dir, 'sandbox.sqlite'), { readonly: true });
    try {
      expect(db.prepare('SELECT version FROM schema_migrations').all()).toEqual([{ version: 1 }, { version: 2 }, { version: 3 }]);
      expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
      const columns = db.prepare("SELECT type FROM pragma_table_info('transactions')").all() as { type: string }[];
      expect(columns.map((c) => c.type)).not.toContain('REAL');
    } finally {
      db.close();
    }
  });

  it('registers a cash-out left Created when the process stopped', async () => {
    const dir = tempDir();
    const first = open(dir);
    const api = await client(first);
    const id = (await api('POST', '/accounts/pix/cashout', cashOut('http://127.0.0.1:1/x'))).body.data.transaction.id;
    first.close();
    const second = createSandbox({
      dataDir: dir,
      publicBaseUrl: 'http://127.0.0.1:3000',
      registerDelayMs: 0,
      webhookRetry: { delaysMs: [] },
    });
    try {
      await eventually(() => second.store.get(id)!.record.transaction.state === 'Registered');
      expect(second.store.get(id)!.record.transaction.stateRegisteredDate).not.toBeNull();
    } finally {
      second.close();
    }
  });
});
