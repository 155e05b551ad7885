/**
 * The accounts part of the store (server/store/accounts.ts), on SQLite and (with TEST_DATABASE_URL) PostgreSQL alike:
 * users unique by lower-cased e-mail; the last enabled owner kept; sessions with their user, ended by a disable or a
 * new password; the audit trail appended, read newest first with filters and a cursor, and append-only down to the
 * database (its triggers refuse UPDATE and DELETE, and the interface has no such method).
 */
import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { NewAuditEntry, NewUser } from '../../../server/store/accounts';
import type { Store } from '../../../server/store/types';
import { at } from '../store/store-contract';
import { accountStores, type OpenedStore } from './stores';

const HASH = 'scrypt$32768$8$1$c2FsdA==$aGFzaA==';
const newUser = (overrides: Partial<NewUser> = {}): NewUser => ({
  id: `usr_${randomUUID()}`,
  email: `${randomUUID()}@example.com`,
  role: 'viewer',
  passwordHash: HASH,
  createdAt: at(0),
  ...overrides,
});

describe.each(accountStores())('accounts in the store (%s)', (_name, open) => {
  let opened: OpenedStore;
  let store: Store;
  beforeEach(async () => {
    opened = await open();
    store = opened.store;
  });
  afterEach(async () => {
    await store.close();
  });

  describe('users', () => {
    it('adds a user with its e-mail lower-cased, finds it by any case, and refuses the same e-mail again', async () => {
      const added = await store.addUser(newUser({ email: 'Ana.Souza@Example.COM', role: 'operator' }));
      expect(added).toMatchObject({ email: 'ana.souza@example.com', role: 'operator', disabledAt: null, lastSignInAt: null });
      expect(await store.findUserByEmail('ANA.SOUZA@example.com')).toEqual(added);
      expect(await store.getUser(added!.id)).toEqual(added);
      expect(await store.addUser(newUser({ email: 'ana.souza@EXAMPLE.com' }))).toBeUndefined();
      expect(await store.countUsers()).toBe(1);
    });

    it('lists users oldest first', async () => {
      const second = await store.addUser(newUser({ createdAt: at(2) }));
      const first = await store.addUser(newUser({ createdAt: at(1) }));
      expect((await store.listUsers()).map((u) => u.id)).toEqual([first!.id, second!.id]);
    });

    it('changes a role, disables and enables, and answers undefined for an unknown id', async () => {
      const user = (await store.addUser(newUser()))!;
      expect(await store.changeUser(user.id, { role: 'operator' })).toEqual({ user: { ...user, role: 'operator' } });
      const disabled = await store.changeUser(user.id, { disabledAt: at(5) });
      expect(disabled).toEqual({ user: { ...user, role: 'operator', disabledAt: at(5) } });
      expect(await store.changeUser(user.id, { disabledAt: null })).toEqual({ user: { ...user, role: 'operator' } });
      expect(await store.changeUser('usr_nobody', { role: 'owner' })).toBeUndefined();
    });

    it('never leaves the users without an enabled owner once there is one', async () => {
      const owner = (await store.addUser(newUser({ role: 'owner' })))!;
      const viewer = (await store.addUser(newUser()))!;
      expect(await store.changeUser(owner.id, { role: 'operator' })).toEqual({ refused: 'last_owner' });
      expect(await store.changeUser(owner.id, { disabledAt: at(1) })).toEqual({ refused: 'last_owner' });
      expect((await store.getUser(owner.id))!).toEqual(owner);
      // Anyone else may change; and with a second owner, the first may go.
      expect(await store.changeUser(viewer.id, { role: 'operator' })).toMatchObject({ user: { role: 'operator' } });
      await store.changeUser(viewer.id, { role: 'owner' });
      expect(await store.changeUser(owner.id, { disabledAt: at(2) })).toMatchObject({ user: { disabledAt: at(2) } });
      expect(await store.changeUser(viewer.id, { role: 'viewer' })).toEqual({ refused: 'last_owner' });
    });

    it('decides two owners demoting each other at once one after the other: one owner stays', async () => {
      const a = (await store.addUser(newUser({ role: 'owner' })))!;
      const b = (await store.addUser(newUser({ role: 'owner' })))!;
      const results = await Promise.all([store.changeUser(a.id, { role: 'viewer' }), store.changeUser(b.id, { role: 'viewer' })]);
      expect(results.filter((r) => r && 'refused' in r)).toHaveLength(1);
      expect((await store.listUsers()).filter((u) => u.role === 'owner')).toHaveLength(1);
    });
  });

  describe('sessions', () => {
    const session = (userId: string, tokenHash = randomUUID()) => ({
      tokenHash,
      id: `ses_${randomUUID()}`,
      device: 'Firefox 128 · Linux',
      address: '10.0.0.1',
      userId,
      createdAt: at(0),
      expiresAt: at(720),
      lastSeenAt: at(0),
    });

    it('keeps a session with its user, notes the sign-in, touches and ends it', async () => {
      const user = (await store.addUser(newUser()))!;
      const kept = session(user.id);
      await store.startSession(kept);
      expect(await store.findSession(kept.tokenHash)).toEqual({ session: kept, user: { ...user, lastSignInAt: at(0) } });
      // Moved forward, never backwards (a slow request after a newer one).
      await store.touchSession(kept.tokenHash, at(2));
      expect((await store.findSession(kept.tokenHash))!.session.lastSeenAt).toBe(at(2));
      await store.touchSession(kept.tokenHash, at(1));
      expect((await store.findSession(kept.tokenHash))!.session.lastSeenAt).toBe(at(2));
      await store.endSession(kept.tokenHash);
      expect(await store.findSession(kept.tokenHash)).toBeUndefined();
    });

    it('ends every session of a user disabled or given a new password, and only theirs', async () => {
      const [ana, bia] = [(await store.addUser(newUser()))!, (await store.addUser(newUser()))!];
      const [a1, a2, b1] = [session(ana.id), session(ana.id), session(bia.id)];
      for (const s of [a1, a2, b1]) await store.startSession(s);
      await store.changeUser(ana.id, { disabledAt: at(1) });
      expect(await store.findSession(a1.tokenHash)).toBeUndefined();
      expect(await store.findSession(a2.tokenHash)).toBeUndefined();
      expect(await store.findSession(b1.tokenHash)).toBeDefined();
      await store.changeUser(bia.id, { passwordHash: `${HASH}x` });
      expect(await store.findSession(b1.tokenHash)).toBeUndefined();
      expect((await store.getUser(bia.id))!.passwordHash).toBe(`${HASH}x`);
    });

    it('a role change keeps the sessions', async () => {
      const user = (await store.addUser(newUser()))!;
      const kept = session(user.id);
      await store.startSession(kept);
      await store.changeUser(user.id, { role: 'operator' });
      expect((await store.findSession(kept.tokenHash))!.user.role).toBe('operator');
    });

    it('prunes the sessions past their end or idle too long', async () => {
      const user = (await store.addUser(newUser()))!;
      const live = { ...session(user.id), lastSeenAt: at(100) };
      const idle = session(user.id);
      const over = { ...session(user.id), expiresAt: at(50), lastSeenAt: at(100) };
      for (const s of [live, idle, over]) await store.startSession(s);
      expect(await store.pruneSessions(at(60), at(70))).toBe(2);
      expect(await store.findSession(live.tokenHash)).toBeDefined();
      expect(await store.findSession(idle.tokenHash)).toBeUndefined();
      expect(await store.findSession(over.tokenHash)).toBeUndefined();
    });
  });

  describe('the audit trail', () => {
    const entry = (overrides: Partial<NewAuditEntry> = {}): NewAuditEntry => ({
      at: at(0),
      actor: 'api-token',
      role: 'owner',
      ip: '127.0.0.1',
      action: 'user.add',
      target: 'ana@example.com',
      outcome: 'ok',
      details: { role: 'viewer' },
      ...overrides,
    });

    it('appends entries with growing seqs and gives them back as written', async () => {
      const actor = `${randomUUID()}@example.com`;
      const first = await store.appendAudit(entry({ actor, details: { amount: '12.34', nested: { ok: true } } }));
      const second = await store.appendAudit(entry({ actor, role: null, ip: null, target: null, outcome: 'refused', at: at(1) }));
      expect(second.seq).toBeGreaterThan(first.seq);
      expect(first).toEqual({ ...entry({ actor, details: { amount: '12.34', nested: { ok: true } } }), seq: first.seq });
      expect(await store.listAudit({ limit: 10, actor })).toEqual([second, first]);
    });

    it('pages newest first by seq, and filters by actor, action (and the actions under it), outcome and period', async () => {
      const actor = `${randomUUID()}@example.com`;
      const written = [];
      for (let i = 0; i < 7; i++) {
        const action = i % 2 === 0 ? 'user.add' : 'session.sign_in';
        written.push(await store.appendAudit(entry({ actor, action, at: at(i), outcome: i === 3 ? 'refused' : 'ok' })));
      }
      const seqs = written.map((e) => e.seq).reverse();
      const page1 = await store.listAudit({ limit: 3, actor });
      const page2 = await store.listAudit({ limit: 3, actor, before: page1.at(-1)!.seq });
      const page3 = await store.listAudit({ limit: 3, actor, before: page2.at(-1)!.seq });
      expect([...page1, ...page2, ...page3].map((e) => e.seq)).toEqual(seqs);
      expect(page3).toHaveLength(1);
      expect((await store.listAudit({ limit: 10, actor, action: 'user' })).map((e) => e.action)).toEqual(Array(4).fill('user.add'));
      expect(await store.listAudit({ limit: 10, actor, action: 'user.ad' })).toEqual([]);
      expect((await store.listAudit({ limit: 10, actor, outcome: 'refused' })).map((e) => e.at)).toEqual([at(3)]);
      expect((await store.listAudit({ limit: 10, actor, from: at(2), to: at(4) })).map((e) => e.at)).toEqual([at(3), at(2)]);
      expect(await store.listAudit({ limit: 10, actor: `other-${actor}` })).toEqual([]);
    });

    it('is append-only: the interface has no way to change an entry, and the database refuses UPDATE and DELETE', async () => {
      expect(
        Object.keys(store)
          .filter((key) => /audit/i.test(key))
          .sort(),
      ).toEqual(['appendAudit', 'listAudit', 'verifyAudit']);
      const actor = `${randomUUID()}@example.com`;
      const kept = await store.appendAudit(entry({ actor }));
      await expect(opened.sql(`UPDATE audit_log SET actor = 'someone-else' WHERE seq = ${kept.seq}`)).rejects.toThrow(/append-only/);
      await expect(opened.sql(`DELETE FROM audit_log WHERE seq = ${kept.seq}`)).rejects.toThrow(/append-only/);
      expect(await store.listAudit({ limit: 10, actor })).toEqual([kept]);
    });
  });
});
