/**
 * The company payments part of every `Store` (server/store/company-payments.ts), run against SQLite and PostgreSQL
 * alike: a payment request under its key (one per key, whoever asks at once), kept for approval or taken for sending,
 * an owner's decision (exactly one of two at once), the provider's request it became, and the key freed or the
 * approval reopened when the provider refused.
 */
import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CompanyPayment, NewCompanyPayment, ReserveCompanyPaymentResult } from '../../../server/store/company-payments';
import type { Store } from '../../../server/store/types';
import { at, type StoreSetup } from './store-contract';

export function describeCompanyPaymentContract(name: string, setup: StoreSetup) {
  describe(`${name} store, company payments`, () => {
    let store: Store;
    let teardown: () => Promise<void>;
    beforeEach(async () => {
      ({ store, teardown } = await setup());
    });
    afterEach(async () => {
      await teardown();
    });

    const draft = (overrides: Partial<NewCompanyPayment> = {}): NewCompanyPayment => ({
      idempotencyKey: randomUUID(),
      fingerprint: 'f1',
      amountCents: 4_000_000,
      description: 'Nota 1',
      receiverId: 'rc-1',
      accountId: 'ac-1',
      requestedBy: 'ana@shop.example',
      createdAt: at(0),
      ...overrides,
    });
    const taken = (result: ReserveCompanyPaymentResult): CompanyPayment => result.payment;

    it('takes a key once: Sending below the threshold, PendingApproval above it, the same payment for the key again', async () => {
      const sending = await store.reserveCompanyPayment(draft({ idempotencyKey: 'key-sending' }));
      expect(sending).toMatchObject({
        outcome: 'created',
        payment: { idempotencyKey: 'key-sending', state: 'Sending', amountCents: 4_000_000, requestId: null, decidedBy: null },
      });
      const waiting = await store.reserveCompanyPayment(
        draft({ idempotencyKey: 'key-waiting', awaitsApproval: true, receiverName: 'Fornecedora', receiverCnpj: '11222333000181' }),
      );
      expect(waiting).toMatchObject({
        outcome: 'created',
        payment: { state: 'PendingApproval', receiverName: 'Fornecedora', receiverCnpj: '11222333000181', bankName: null },
      });
      const again = await store.reserveCompanyPayment(draft({ idempotencyKey: 'key-waiting', fingerprint: 'other' }));
      expect(again).toEqual({ outcome: 'existing', payment: taken(waiting) });
      expect(await store.getCompanyPayment('key-waiting')).toEqual(taken(waiting));
      expect(await store.getCompanyPayment('key-none')).toBeUndefined();
    });

    it('gives one key to exactly one of many concurrent reservations', async () => {
      const results = await Promise.all(
        Array.from({ length: 8 }, () => store.reserveCompanyPayment(draft({ idempotencyKey: 'key-race' }))),
      );
      expect(results.filter((r) => r.outcome === 'created')).toHaveLength(1);
      expect(new Set(results.map((r) => r.payment.createdAt))).toEqual(new Set([at(0)]));
    });

    it('decides a waiting payment once: of two decisions at once exactly one is decided', async () => {
      const made = taken(await store.reserveCompanyPayment(draft({ awaitsApproval: true })));
      const [first, second] = await Promise.all([
        store.decideCompanyPayment(made.idempotencyKey, { approve: true, by: 'bia@shop.example', at: at(1) }),
        store.decideCompanyPayment(made.idempotencyKey, { approve: false, by: 'caio@shop.example', at: at(1) }),
      ]);
      const outcomes = [first.outcome, second.outcome].sort();
      expect(outcomes).toEqual(['decided', 'not_pending']);
      const decided = [first, second].find((r) => r.outcome === 'decided')!;
      expect(decided).toMatchObject({ payment: { decidedAt: at(1) } });
      expect(['Sending', 'Rejected']).toContain((decided as { payment: CompanyPayment }).payment.state);
      expect(await store.decideCompanyPayment('key-none', { approve: true, by: 'bia@shop.example', at: at(1) })).toEqual({
        outcome: 'not_found',
      });
      const plain = taken(await store.reserveCompanyPayment(draft()));
      expect(await store.decideCompanyPayment(plain.idempotencyKey, { approve: true, by: 'bia@shop.example', at: at(1) })).toEqual({
        outcome: 'not_pending',
        payment: plain,
      });
    });

    it('records the provider request of a Sending payment once, and finds the payment by it', async () => {
      const made = taken(await store.reserveCompanyPayment(draft()));
      const requested = await store.activateCompanyPayment(made.idempotencyKey, 'tr-1', at(2));
      expect(requested).toMatchObject({ state: 'Requested', requestId: 'tr-1', updatedAt: at(2) });
      expect(await store.activateCompanyPayment(made.idempotencyKey, 'tr-2', at(3))).toBeUndefined();
      expect(await store.findCompanyPaymentByRequest('tr-1')).toEqual(requested);
      expect(await store.findCompanyPaymentByRequest('tr-2')).toBeUndefined();
      const waiting = taken(await store.reserveCompanyPayment(draft({ awaitsApproval: true })));
      expect(await store.activateCompanyPayment(waiting.idempotencyKey, 'tr-3', at(3))).toBeUndefined();
    });

    it('never gives one provider request to two payments, even when both take it at once', async () => {
      const [a, b] = [taken(await store.reserveCompanyPayment(draft())), taken(await store.reserveCompanyPayment(draft()))];
      const results = await Promise.all([
        store.activateCompanyPayment(a.idempotencyKey, 'tr-shared', at(2)),
        store.activateCompanyPayment(b.idempotencyKey, 'tr-shared', at(2)),
      ]);
      expect(results.filter((r) => r !== undefined)).toHaveLength(1);
      const loser = results[0] === undefined ? a : b;
      expect(await store.getCompanyPayment(loser.idempotencyKey)).toMatchObject({ state: 'Sending', requestId: null });
      expect(await store.activateCompanyPayment(loser.idempotencyKey, 'tr-shared', at(3))).toBeUndefined();
    });

    it('frees a refused key sent without approval, puts an approved one back to waiting, and keeps a requested one', async () => {
      const plain = taken(await store.reserveCompanyPayment(draft()));
      await store.discardCompanyPayment(plain.idempotencyKey);
      expect(await store.getCompanyPayment(plain.idempotencyKey)).toBeUndefined();

      const waiting = taken(await store.reserveCompanyPayment(draft({ awaitsApproval: true })));
      await store.decideCompanyPayment(waiting.idempotencyKey, { approve: true, by: 'bia@shop.example', at: at(1) });
      await store.discardCompanyPayment(waiting.idempotencyKey);
      expect(await store.getCompanyPayment(waiting.idempotencyKey)).toMatchObject({
        state: 'PendingApproval',
        decidedBy: null,
        decidedAt: null,
      });

      const requested = taken(await store.reserveCompanyPayment(draft()));
      await store.activateCompanyPayment(requested.idempotencyKey, 'tr-kept', at(2));
      await store.discardCompanyPayment(requested.idempotencyKey);
      expect(await store.getCompanyPayment(requested.idempotencyKey)).toMatchObject({ state: 'Requested', requestId: 'tr-kept' });
    });

    it('lists the waiting payments oldest first and the decided ones most recently decided first', async () => {
      const keys = ['k-a', 'k-b', 'k-c'];
      for (const [i, key] of keys.entries()) {
        await store.reserveCompanyPayment(draft({ idempotencyKey: key, awaitsApproval: true, createdAt: at(i) }));
      }
      await store.reserveCompanyPayment(draft({ idempotencyKey: 'k-plain', createdAt: at(0) }));
      expect((await store.listCompanyPaymentApprovals('pending', 10)).map((p) => p.idempotencyKey)).toEqual(keys);
      await store.decideCompanyPayment('k-c', { approve: false, by: 'bia@shop.example', at: at(5) });
      await store.decideCompanyPayment('k-a', { approve: true, by: 'bia@shop.example', at: at(6) });
      expect((await store.listCompanyPaymentApprovals('pending', 10)).map((p) => p.idempotencyKey)).toEqual(['k-b']);
      const decided = await store.listCompanyPaymentApprovals('decided', 10);
      expect(decided.map((p) => [p.idempotencyKey, p.state, p.decidedBy])).toEqual([
        ['k-a', 'Sending', 'bia@shop.example'],
        ['k-c', 'Rejected', 'bia@shop.example'],
      ]);
      expect(await store.listCompanyPaymentApprovals('decided', 1)).toHaveLength(1);
    });

    it('claims the payments Sending past the window once per lease, oldest first; two claims at once take each once', async () => {
      await store.reserveCompanyPayment(draft({ idempotencyKey: 'k-old', createdAt: at(0) }));
      await store.reserveCompanyPayment(draft({ idempotencyKey: 'k-older', createdAt: at(-1) }));
      await store.reserveCompanyPayment(draft({ idempotencyKey: 'k-new', createdAt: at(9) }));
      await store.reserveCompanyPayment(draft({ idempotencyKey: 'k-waiting', awaitsApproval: true, createdAt: at(0) }));
      await store.reserveCompanyPayment(draft({ idempotencyKey: 'k-requested', createdAt: at(0) }));
      await store.activateCompanyPayment('k-requested', 'pr-1', at(1));
      const claims = await Promise.all([
        store.claimStaleCompanyPayments(at(10), at(5), 10, at(11)),
        store.claimStaleCompanyPayments(at(10), at(5), 10, at(11)),
      ]);
      const taken = claims.flat().map((p) => p.idempotencyKey);
      expect(taken.sort()).toEqual(['k-old', 'k-older']);
      // Each claim's own rows come oldest first.
      for (const claim of claims)
        expect(claim.map((p) => p.idempotencyKey)).toEqual(['k-older', 'k-old'].filter((k) => claim.some((p) => p.idempotencyKey === k)));
      // Leased until minute 11: not again before, again after.
      expect(await store.claimStaleCompanyPayments(at(10.5), at(5), 10, at(12))).toEqual([]);
      expect((await store.claimStaleCompanyPayments(at(11), at(5), 1, at(12))).map((p) => p.idempotencyKey)).toEqual(['k-older']);
      // One approved later is taken for sending at its approval: not stale until the window passed since then.
      await store.decideCompanyPayment('k-waiting', { approve: true, by: 'bia@shop.example', at: at(8) });
      expect((await store.claimStaleCompanyPayments(at(11.5), at(7), 10, at(13))).map((p) => p.idempotencyKey)).toEqual(['k-old']);
      expect((await store.claimStaleCompanyPayments(at(13), at(9), 10, at(14))).map((p) => p.idempotencyKey)).toEqual([
        'k-older',
        'k-old',
        'k-waiting',
      ]);
    });

    it('refuses what the schema refuses: no amount of zero or less, no fraction of a cent', async () => {
      await expect(store.reserveCompanyPayment(draft({ amountCents: 0 }))).rejects.toThrow();
      await expect(store.reserveCompanyPayment(draft({ amountCents: 10.5 }))).rejects.toThrow();
    });
  });
}
