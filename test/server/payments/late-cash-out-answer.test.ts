/**
 * A cash-out whose provider call is slower than the settle window (the cash-out desk, server/payments/cashouts.ts, on
 * a real SQLite store and the emulator): the reconciler's look finds nothing yet and frees the key; the call then
 * reaches the provider and answers. The money left, so the answer is stored all the same (the cash-out put back,
 * activated, with its event once it ends), never dropped for a retry to pay again.
 */
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ManualClock } from '../../../server/lib/clock';
import { settleStaleCashOuts } from '../../../server/payments/cashout-settle';
import { createCashOutDesk, sha256 } from '../../../server/payments/cashouts';
import type { ProviderClient } from '../../../server/provider';
import type { Store } from '../../../server/store/types';
import { startSandbox } from '../helpers/sandbox';
import { tempDir } from '../helpers/server';
import { openTestStore } from '../helpers/store';

const MINUTE = 60_000;
let sandbox: Awaited<ReturnType<typeof startSandbox>>;
let store: Store;
beforeAll(async () => {
  sandbox = await startSandbox();
  store = await openTestStore({ file: join(tempDir('late-answer-'), 'store.sqlite') });
});
afterAll(async () => {
  await store?.close();
  await sandbox?.close();
});

describe('a cash-out answered after the settle window', () => {
  it('is stored when its answer comes after the reconciler freed its key, and the key answers it from then on', async () => {
    const clock = new ManualClock(new Date());
    const provider = sandbox.client();
    let arrive!: () => void;
    const held = new Promise<void>((resolve) => (arrive = resolve));
    // The call is on its way for longer than the window: it reaches the provider only when the test says.
    const slow: ProviderClient = {
      ...provider,
      pix: { ...provider.pix, createCashOut: async (body) => held.then(() => provider.pix.createCashOut(body)) },
    };
    const webhook = { url: `${sandbox.url}/nowhere`, headerName: 'x-webhook-secret', secret: 'unused' };
    const desk = createCashOutDesk({ provider: slow, store, clock, webhook, logger: { warn: () => undefined } });
    const key = randomUUID();
    const request = {
      recipient: { name: 'João Recebedor', cpf: '52998224725' },
      key: { type: 'EMAIL' as const, value: 'joao@example.com' },
      amountCents: 1_500,
    };
    const sending = desk.send(key, request);
    await vi.waitFor(async () => expect((await store.getCashOut(key))?.state).toBe('Sending'));

    clock.advance(MINUTE);
    const sources = { provider, store, clock };
    expect(await settleStaleCashOuts(sources, { limit: 10, settleAfterMs: 30_000, claimMs: MINUTE }, (e) => expect.fail(String(e)))).toBe(
      1,
    );
    expect(await store.getCashOut(key)).toBeUndefined();

    arrive();
    const { created, cashOut } = await sending;
    expect(created).toBe(true);
    expect(cashOut).toMatchObject({ idempotencyKey: key, state: 'Created', transactionId: expect.any(String) });
    expect(await store.getCashOut(key)).toEqual(cashOut);
    const listed = await provider.transactions.list({
      transactionOrderId: `payout-${sha256(key).slice(0, 20)}`,
      startDate: new Date(Date.now() - MINUTE).toISOString(),
      endDate: new Date(Date.now() + MINUTE).toISOString(),
      'dataset.limit': 5,
      'dataset.offset': 0,
    });
    expect(listed.items.map((item) => item.transaction.id)).toEqual([cashOut.transactionId]);
    // The key coming back answers it: no second cash-out.
    expect(await desk.send(key, request)).toEqual({ created: false, cashOut });
  });
});
