/**
 * The console's sessions (server/accounts/sessions.ts) on a clock the test moves, on both databases: a session ends
 * 12 hours after sign-in however busy, after 30 minutes without use, at sign-out, and at once when its user is
 * disabled or given a new password; a use is written at most once a minute; only the token's SHA-256 is stored.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createSessions, SESSION_IDLE_MS, SESSION_MAX_MS, tokenHash, type Sessions } from '../../../server/accounts/sessions';
import { addUser, changeUser, resetPassword } from '../../../server/accounts/users';
import { ManualClock } from '../../../server/lib/clock';
import type { StoredUser } from '../../../server/store/accounts';
import type { Store } from '../../../server/store/types';
import { accountStores, noAudit } from './stores';

const MINUTE = 60_000;

describe.each(accountStores())('sessions (%s)', (_name, open) => {
  let store: Store;
  let clock: ManualClock;
  let sessions: Sessions;
  let user: StoredUser;
  beforeEach(async () => {
    ({ store } = await open());
    clock = new ManualClock();
    sessions = createSessions({ store, clock });
    const added = await addUser(
      { store, clock },
      { email: 'ana@example.com', role: 'operator', password: 'a long enough password' },
      noAudit,
    );
    user = (await store.getUser(added.id))!;
  });
  afterEach(async () => {
    await store.close();
  });

  it('starts a session whose token is not stored, only its SHA-256, and notes the sign-in', async () => {
    const { token, expiresAt } = await sessions.start(user);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(expiresAt).toBe(new Date(clock.now().getTime() + SESSION_MAX_MS).toISOString());
    expect(await store.findSession(token)).toBeUndefined();
    expect((await store.findSession(tokenHash(token)))!.session.userId).toBe(user.id);
    expect((await store.getUser(user.id))!.lastSignInAt).toBe(clock.now().toISOString());
    expect(await sessions.resolve(token)).toMatchObject({ user: { id: user.id, role: 'operator' }, expiresAt });
  });

  it('ends after 30 minutes without use', async () => {
    const { token } = await sessions.start(user);
    clock.advance(SESSION_IDLE_MS - 1);
    expect(await sessions.resolve(token)).toBeDefined();
    clock.advance(SESSION_IDLE_MS);
    expect(await sessions.resolve(token)).toBeUndefined();
    // Ended for good: it was deleted, so going back in time does not revive it.
    clock.advance(-SESSION_IDLE_MS);
    expect(await sessions.resolve(token)).toBeUndefined();
  });

  it('ends 12 hours after sign-in, however often it is used', async () => {
    const { token } = await sessions.start(user);
    const start = clock.now().getTime();
    while (clock.now().getTime() + 20 * MINUTE < start + SESSION_MAX_MS) {
      clock.advance(20 * MINUTE);
      expect(await sessions.resolve(token)).toBeDefined();
    }
    clock.set(new Date(start + SESSION_MAX_MS));
    expect(await sessions.resolve(token)).toBeUndefined();
  });

  it('writes a use at most once a minute', async () => {
    const { token } = await sessions.start(user);
    const started = clock.now().toISOString();
    const lastSeen = async () => (await store.findSession(tokenHash(token)))!.session.lastSeenAt;
    clock.advance(59_000);
    await sessions.resolve(token);
    expect(await lastSeen()).toBe(started);
    clock.advance(1_000);
    await sessions.resolve(token);
    expect(await lastSeen()).toBe(clock.now().toISOString());
  });

  it('stops at once when its user is disabled, and stays ended when the user is enabled again', async () => {
    const { token } = await sessions.start(user);
    await changeUser({ store, clock }, user.id, { disabled: true }, noAudit);
    expect(await sessions.resolve(token)).toBeUndefined();
    await changeUser({ store, clock }, user.id, { disabled: false }, noAudit);
    expect(await sessions.resolve(token)).toBeUndefined();
  });

  it('ends with a new password, and at sign-out', async () => {
    const first = await sessions.start(user);
    await resetPassword({ store, clock }, user.id, 'another long password', noAudit);
    expect(await sessions.resolve(first.token)).toBeUndefined();
    const second = await sessions.start(user);
    expect(await sessions.resolve(second.token)).toBeDefined();
    await sessions.end(second.token);
    expect(await sessions.resolve(second.token)).toBeUndefined();
  });

  it('follows a role change at the next request', async () => {
    const { token } = await sessions.start(user);
    await changeUser({ store, clock }, user.id, { role: 'viewer' }, noAudit);
    expect((await sessions.resolve(token))!.user.role).toBe('viewer');
  });

  it('finds nothing for a missing, malformed or unknown token', async () => {
    for (const token of [undefined, '', 'x', 'a'.repeat(44), 'A'.repeat(43)]) expect(await sessions.resolve(token)).toBeUndefined();
  });
});
