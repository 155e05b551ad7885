/**
 * A user's own account, `/api/admin/me/…`, on SQLite and (with TEST_DATABASE_URL) PostgreSQL: the sessions listed
 * with device, address and the current one (never a token or its hash), one ended by its public id, all others
 * ended, a session of someone else untouchable, and the password changed with the current one (the others end, this
 * one goes on under a new cookie), each in the audit trail.
 */
import { describe, expect, it } from 'vitest';
import { DATABASES } from '../merchant-webhooks/databases';
import { consoleWorld, freshAddress, PASSWORD, sessionCookie } from './auth-helpers';

const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0';
const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

describe.each(DATABASES)('my account (%s)', (_name, database) => {
  const world = consoleWorld(database);

  /** Signs in from `address` with `userAgent`; resolves with the session's cookie. */
  async function signedIn(email: string, userAgent: string, address = freshAddress()) {
    const response = await world.client.signIn(email, PASSWORD, { 'user-agent': userAgent }, address);
    expect(response.status).toBe(200);
    return sessionCookie(response.headers.get('set-cookie'));
  }

  it('lists my sessions with device, address and the current one, and never a token or hash', async () => {
    const { email } = await world.client.user('viewer');
    const laptop = await signedIn(email, FIREFOX, '10.200.0.1');
    world.clock.advance(1_000);
    await signedIn(email, IPHONE, '10.200.0.2');
    const listed = await world.client.withCookie(laptop, 'GET', '/me/sessions');
    expect(listed.status).toBe(200);
    expect(listed.body.sessions).toEqual([
      {
        id: expect.stringMatching(/^ses_/),
        device: 'Safari 17 · iOS',
        address: '10.200.0.2',
        createdAt: expect.any(String),
        lastSeenAt: expect.any(String),
        current: false,
      },
      {
        id: expect.stringMatching(/^ses_/),
        device: 'Firefox 128 · Linux',
        address: '10.200.0.1',
        createdAt: expect.any(String),
        lastSeenAt: expect.any(String),
        current: true,
      },
    ]);
    const token = decodeURIComponent(laptop.split('=')[1]!);
    expect(listed.text).not.toContain(token);
    expect(Object.keys(listed.body.sessions[0]).sort()).toEqual(['address', 'createdAt', 'current', 'device', 'id', 'lastSeenAt']);
  });

  it('ends one of my sessions by its id, and all the others, but never a session of someone else', async () => {
    const { email } = await world.client.user('operator');
    const { email: otherEmail } = await world.client.user('operator');
    const here = await signedIn(email, FIREFOX);
    const phone = await signedIn(email, IPHONE);
    const tablet = await signedIn(email, IPHONE);
    const other = await signedIn(otherEmail, FIREFOX);
    const theirs = (await world.client.withCookie(other, 'GET', '/me/sessions')).body.sessions[0].id as string;
    expect((await world.client.withCookie(here, 'DELETE', `/me/sessions/${theirs}`)).status).toBe(404);
    expect((await world.client.withCookie(other, 'GET', '/session')).status).toBe(200);

    const phoneId = (await world.client.withCookie(phone, 'GET', '/me/sessions')).body.sessions.find(
      (s: { current: boolean }) => s.current,
    ).id;
    expect((await world.client.withCookie(here, 'DELETE', `/me/sessions/${phoneId}`)).status).toBe(204);
    expect((await world.client.withCookie(phone, 'GET', '/session')).status).toBe(401);
    expect((await world.client.withCookie(tablet, 'GET', '/session')).status).toBe(200);

    const ended = await world.client.withCookie(here, 'DELETE', '/me/sessions');
    expect(ended.body).toEqual({ ended: 1 });
    expect((await world.client.withCookie(tablet, 'GET', '/session')).status).toBe(401);
    expect((await world.client.withCookie(here, 'GET', '/me/sessions')).body.sessions).toHaveLength(1);
    const audit = await world.server.store.listAudit({ limit: 10, actor: email });
    expect(audit.map((entry) => [entry.action, entry.outcome])).toEqual(
      expect.arrayContaining([
        ['session.end_others', 'ok'],
        ['session.end', 'ok'],
        ['session.end', 'refused'],
      ]),
    );
  });

  it('changes my password with the current one: the others end, this one goes on under a new cookie', async () => {
    const { email } = await world.client.user('viewer');
    const here = await signedIn(email, FIREFOX);
    const elsewhere = await signedIn(email, IPHONE);
    const wrong = await world.client.withCookie(here, 'POST', '/me/password', {
      currentPassword: 'not the password!',
      newPassword: 'a new long password',
    });
    expect(wrong.status).toBe(401);
    expect(wrong.body.error.code).toBe('invalid_credentials');
    const short = await world.client.withCookie(here, 'POST', '/me/password', { currentPassword: PASSWORD, newPassword: 'short' });
    expect(short.status).toBe(422);

    const changed = await world.client.withCookie(here, 'POST', '/me/password', {
      currentPassword: PASSWORD,
      newPassword: 'a new long password',
    });
    expect(changed.status).toBe(200);
    expect(changed.body).toEqual({ expiresAt: expect.any(String), ended: 1 });
    const renewed = sessionCookie(changed.headers.get('set-cookie'));
    expect((await world.client.withCookie(renewed, 'GET', '/session')).status).toBe(200);
    expect((await world.client.withCookie(here, 'GET', '/session')).status).toBe(401);
    expect((await world.client.withCookie(elsewhere, 'GET', '/session')).status).toBe(401);
    expect((await world.client.signIn(email, 'a new long password')).status).toBe(200);
    expect((await world.client.signIn(email, PASSWORD)).status).toBe(401);
    const audit = await world.server.store.listAudit({ limit: 10, actor: email, action: 'user.change_password' });
    expect(audit.map((entry) => entry.outcome)).toEqual(['ok', 'refused', 'refused']);
    expect(JSON.stringify(audit)).not.toContain('a new long password');
  });

  it('brakes guesses of the current password like sign-ins, with Retry-After', async () => {
    const { email } = await world.client.user('viewer');
    const address = freshAddress();
    const here = await signedIn(email, FIREFOX, address);
    const guess = (n: number) =>
      world.client.withCookie(
        here,
        'POST',
        '/me/password',
        { currentPassword: `guess ${n} of the password`, newPassword: 'a new long password' },
        { 'x-forwarded-for': address },
      );
    for (let i = 0; i < 5; i++) expect((await guess(i)).status).toBe(401);
    const braked = await guess(5);
    expect(braked.status).toBe(429);
    expect(braked.headers.get('retry-after')).toBe('2');
  });

  it('answers the bearer token a 400: it has no sessions nor password', async () => {
    expect((await world.client.withToken('GET', '/me/sessions')).status).toBe(400);
  });
});
