import { mkdtempSync, existsSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { createLocalHub } from '../../../server/store/hub';
import { openStore } from '../../../server/store/index';
import { draftFor } from './store-contract';

describe('createLocalHub', () => {
  it('calls only the subscribers of the published checkout, until they unsubscribe', async () => {
    const hub = createLocalHub();
    const a = vi.fn();
    const b = vi.fn();
    const unsubscribeA = hub.subscribe('c-1', a);
    hub.subscribe('c-2', b);
    hub.publish('c-1', 3);
    expect(a).toHaveBeenCalledWith(3);
    expect(b).not.toHaveBeenCalled();
    unsubscribeA();
    unsubscribeA();
    hub.publish('c-1', 4);
    expect(a).toHaveBeenCalledTimes(1);
    expect(hub.subscriberCount()).toBe(1);
    await hub.close();
    expect(hub.subscriberCount()).toBe(0);
  });

  it('tells subscribers of everything about every publish, with its id, until they unsubscribe', async () => {
    const hub = createLocalHub();
    const all = vi.fn();
    const one = vi.fn();
    const unsubscribe = hub.subscribeAll(all);
    hub.subscribe('c-1', one);
    hub.publish('c-1', 2);
    hub.publish('cashout:k-1', 0);
    expect(all.mock.calls).toEqual([
      ['c-1', 2],
      ['cashout:k-1', 0],
    ]);
    expect(one).toHaveBeenCalledTimes(1);
    expect(hub.subscriberCount()).toBe(2);
    unsubscribe();
    unsubscribe();
    hub.publish('c-1', 3);
    expect(all).toHaveBeenCalledTimes(2);
    expect(hub.subscriberCount()).toBe(1);
    await hub.close();
  });

  it('counts the same function subscribed twice as two subscriptions', () => {
    const hub = createLocalHub();
    const listener = vi.fn();
    const first = hub.subscribe('c-1', listener);
    hub.subscribe('c-1', listener);
    first();
    hub.publish('c-1', 1);
    expect(listener).toHaveBeenCalledTimes(1);
    expect(hub.subscriberCount()).toBe(1);
  });

  it('holds ten thousand subscriptions without warnings and releases them all', () => {
    const hub = createLocalHub();
    const warnings = vi.fn();
    process.on('warning', warnings);
    const unsubscribes = Array.from({ length: 10_000 }, () => hub.subscribe('hot', () => undefined));
    hub.publish('hot', 1);
    expect(hub.subscriberCount()).toBe(10_000);
    for (const unsubscribe of unsubscribes) unsubscribe();
    expect(hub.subscriberCount()).toBe(0);
    process.off('warning', warnings);
    expect(warnings).not.toHaveBeenCalled();
  });

  it('keeps delivering to the other listeners when one throws', () => {
    const onError = vi.fn();
    const hub = createLocalHub({ onError });
    const after = vi.fn();
    hub.subscribe('c-1', () => {
      throw new Error('socket closed');
    });
    hub.subscribe('c-1', after);
    hub.publish('c-1', 2);
    expect(after).toHaveBeenCalledWith(2);
    expect(onError).toHaveBeenCalledWith(expect.objectContaining({ message: 'socket closed' }));
  });
});

describe('openStore without a database URL', () => {
  const root = mkdtempSync(join(tmpdir(), 'open-store-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('creates the data directory and a SQLite file with a local hub', async () => {
    const dataDir = join(root, 'nested', 'data');
    const { store, hub } = await openStore({ dataDir, databaseUrl: undefined });
    expect((await store.reserveCheckout(draftFor('A-1'))).created).toBe(true);
    expect(existsSync(join(dataDir, 'checkout.sqlite'))).toBe(true);
    expect(hub.subscriberCount()).toBe(0);
    await Promise.all([store.close(), hub.close()]);
  });
});
