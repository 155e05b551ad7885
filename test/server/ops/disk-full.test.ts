/**
 * Issue 37's point 8 on SQLite: the standalone BFF as a child process with its DATA_DIR on a small tmpfs of this test's
 * own (mounted here; it needs root, as in CI), the emulator in this process as its provider. With the disk filled by a
 * filler file, every write a shopper asks for is a 503 `store_unavailable` with `Retry-After` in the error envelope
 * (never a 500), what is stored still reads, and the file passes `PRAGMA integrity_check`. The filler deleted, the same
 * process writes again without a restart, and each order has one provider transaction.
 */
import { spawnSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmdirSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ProviderClient } from '../../../server/provider';
import { startBffChild, type BffChild } from '../helpers/bff-child';
import { startChildWorld, type ChildWorld } from '../helpers/child-world';
import { jsonClient } from '../helpers/server';

/** Room for the schema and a few payments; filled by the test. */
const DISK = '16m';
/** The tmpfs of this file's test, mounted when we may (root, a mount allowed); unmounted after it. */
const mountPoint = process.getuid?.() === 0 ? mkdtempSync(join(tmpdir(), 'disk-full-')) : undefined;
const MOUNTED = mountPoint !== undefined && spawnSync('mount', ['-t', 'tmpfs', '-o', `size=${DISK}`, 'tmpfs', mountPoint]).status === 0;
if (mountPoint && !MOUNTED) rmdirSync(mountPoint);
let unmounted = false;
const unmount = () => {
  if (!MOUNTED || unmounted) return;
  unmounted = true;
  spawnSync('umount', ['-l', mountPoint]);
  rmdirSync(mountPoint);
};
// Also when the suite is filtered out or the run stops early: never a tmpfs left behind.
process.once('exit', unmount);
const HOW = MOUNTED ? `a tmpfs of ${DISK} mounted by the test` : 'skipped: mounting a tmpfs needs root';
const PAYER = { name: 'Maria Pagadora', taxNumber: '52998224725' };

/** Writes zeros to `file` until the disk says ENOSPC. */
function fill(file: string) {
  const chunk = Buffer.alloc(64 * 1024);
  const fd = openSync(file, 'w');
  try {
    for (;;) writeSync(fd, chunk);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
  } finally {
    closeSync(fd);
  }
  // The last pages too (a smaller write may still fit).
  const fd2 = openSync(`${file}.tail`, 'w');
  try {
    for (;;) writeSync(fd2, Buffer.alloc(512));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
  } finally {
    closeSync(fd2);
  }
}

describe.skipIf(!MOUNTED)(`the SQLite disk full (${HOW}), then space again`, () => {
  const dataDir = join(mountPoint ?? '', 'data');
  const filler = join(mountPoint ?? '', 'filler');
  let world: ChildWorld;
  let provider: ProviderClient;
  let bff: BffChild;
  let api: ReturnType<typeof jsonClient>;

  beforeAll(async () => {
    world = await startChildWorld({ order: { amountCents: 1_990, description: 'Pedido do teste de disco cheio' } });
    provider = world.provider;
    bff = await startBffChild({ ...world.env, DATA_DIR: dataDir }, { reconcileIntervalMs: 300, staleAfterMs: 1_000 });
    api = jsonClient(bff.url);
  }, 90_000);
  afterAll(async () => {
    await bff?.stop();
    await world?.close();
    unmount();
  });

  const newOrder = () => world.newOrder('DF');
  const post = (order: { orderId: string; orderToken: string }) => api('POST', '/api/checkouts', { ...order, method: 'pix' });
  const atProvider = (orderId: string) => world.atProvider(orderId);
  const integrity = () => {
    const db = new Database(join(dataDir, 'checkout.sqlite'), { readonly: true });
    try {
      return db.pragma('integrity_check', { simple: true });
    } finally {
      db.close();
    }
  };

  it('answers writes 503 with Retry-After while full, reads what it has, keeps the file whole, and writes again once space returns', async () => {
    const before = await post(newOrder());
    expect(before.status, before.text).toBe(201);

    // The WAL emptied (its pages would take a few more commits), then the disk filled.
    const db = new Database(join(dataDir, 'checkout.sqlite'));
    db.pragma('wal_checkpoint(TRUNCATE)');
    db.close();
    fill(filler);

    const tried: { orderId: string; orderToken: string }[] = [];
    const answers = [];
    for (let i = 0; i < 8; i++) {
      const order = newOrder();
      tried.push(order);
      const answer = await post(order);
      answers.push({
        status: answer.status,
        retryAfter: answer.headers.get('retry-after'),
        code: answer.body?.error?.code,
        text: answer.text,
      });
    }
    for (const answer of answers) {
      expect(answer, answer.text).toMatchObject({
        status: 503,
        retryAfter: expect.stringMatching(/^[1-9]\d*$/),
        code: 'store_unavailable',
      });
    }
    // What is stored still reads; the process lives.
    const read = await api('GET', `/api/checkouts/${before.body.id}`);
    expect(read.status, read.text).toBe(200);
    expect(read.body).toMatchObject({ id: before.body.id, state: 'Registered' });
    expect((await api('GET', '/healthz')).status).toBe(200);
    expect(integrity()).toBe('ok');

    // Space again: the same process writes, and a payment reaches its checkout.
    rmSync(filler);
    rmSync(`${filler}.tail`);
    await vi.waitFor(async () => expect((await api('GET', '/readyz')).status).toBe(200), { timeout: 15_000, interval: 200 });
    const retried: { id: string; orderId: string; transactionId: string }[] = [];
    for (const order of tried.slice(0, 3)) {
      const made = await post(order);
      expect(made.status, made.text).toBe(201);
      retried.push(made.body as (typeof retried)[number]);
    }
    await provider.sandbox.pix.complete(retried[0]!.transactionId, PAYER);
    await vi.waitFor(async () => expect((await api('GET', `/api/checkouts/${retried[0]!.id}`)).body.state).toBe('Completed'), {
      timeout: 15_000,
      interval: 200,
    });
    expect(integrity()).toBe('ok');

    // One provider transaction per order made; none for a create refused and not tried again.
    for (const { orderId } of [before.body as { orderId: string }, ...retried]) expect(await atProvider(orderId), orderId).toHaveLength(1);
    for (const { orderId } of tried.slice(3)) expect(await atProvider(orderId), orderId).toHaveLength(0);
    expect(bff.log()).not.toMatch(/unhandled|uncaught/i);
    // Each refusal is one short line in the log, naming the cause.
    expect(bff.log()).toMatch(/store_unavailable: .*(disk is full|SQLITE_FULL)/);
  }, 120_000);
});
