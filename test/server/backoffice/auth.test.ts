/**
 * Who may call the back office, on SQLite and (with TEST_DATABASE_URL) PostgreSQL: the console's sign-in (the same
 * 401 for a wrong password, an unknown e-mail and a disabled user; braked per e-mail-and-address pair and per address), the session
 * cookie's attributes, a session's end (12 hours, 30 minutes idle, sign-out, a disabled user), the roles in force, the
 * refusal of cookie-borne writes from another origin, and the bearer token beside it all.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../server/lib/clock';
import { DATABASES } from '../merchant-webhooks/databases';
import { startTestServer, type TestServer } from '../helpers/server';
import { ADMIN_TOKEN, consoleClient, consoleWorld, freshAddress, PASSWORD, sessionCookie } from './auth-helpers';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

describe.each(DATABASES)('the console sign-in and roles (%s)', (_name, database) => {
  const world = consoleWorld(database);

  describe('signing in', () => {
    it('answers the user and the end of the session, and sets an HttpOnly, SameSite=Strict cookie for 12 hours', async () => {
      const { email } = await world.client.user('operator');
      const response = await world.client.signIn(email.toUpperCase());
      expect(response.status).toBe(200);
      expect(response.body).toEqual({
        user: { email, role: 'operator' },
        expiresAt: new Date(world.clock.now().getTime() + 12 * HOUR).toISOString(),
      });
      const setCookie = response.headers.get('set-cookie')!;
      const attributes = setCookie.split(';').map((part) => part.trim());
      expect(attributes[0]).toMatch(/^pix_admin=[A-Za-z0-9_-]{43}$/);
      expect(attributes.slice(1)).toEqual(expect.arrayContaining(['HttpOnly', 'SameSite=Strict', 'Path=/', 'Max-Age=43200']));
      expect(attributes).not.toContain('Secure');
      // The token is only in the cookie.
      expect(response.text).not.toContain(attributes[0]!.slice('pix_admin='.length));

      const me = await world.client.withCookie(sessionCookie(setCookie), 'GET', '/session');
      expect(me).toMatchObject({
        status: 200,
        body: { actor: { kind: 'user', name: email, role: 'operator' }, expiresAt: response.body.expiresAt },
      });
    });

    it('gives a wrong password, an unknown e-mail and a disabled user the same 401, and no cookie', async () => {
      const { email, id } = await world.client.user('viewer');
      const wrong = await world.client.signIn(email, `${PASSWORD}!`);
      const unknown = await world.client.signIn(`nobody-${randomUUID()}@example.com`);
      await world.client.withToken('PATCH', `/users/${id}`, { disabled: true });
      const disabled = await world.client.signIn(email);
      expect(wrong.status).toBe(401);
      expect(wrong.body.error.code).toBe('invalid_credentials');
      for (const other of [unknown, disabled]) {
        expect(other.status).toBe(wrong.status);
        expect(other.body).toEqual(wrong.body);
      }
      for (const response of [wrong, unknown, disabled]) expect(response.headers.get('set-cookie')).toBeNull();
    });

    it('brakes a pair after 5 failures with a 429 and Retry-After, even for the right password, not the owner elsewhere', async () => {
      const { email } = await world.client.user('viewer');
      const address = freshAddress();
      for (let i = 0; i < 5; i++) expect((await world.client.signIn(email, 'not the password!', {}, address)).status).toBe(401);
      const braked = await world.client.signIn(email, PASSWORD, {}, address);
      expect(braked.status).toBe(429);
      expect(braked.body.error.code).toBe('sign_in_rate_limited');
      expect(braked.headers.get('retry-after')).toBe('2');
      expect((await world.client.signIn(email, PASSWORD, {}, freshAddress())).status).toBe(200);
      world.clock.advance(2_000);
      expect((await world.client.signIn(email, PASSWORD, {}, address)).status).toBe(200);
    });

    it('checks at most 5 of 200 wrong passwords for one e-mail sent at once from one address, then brakes the right one', async () => {
      const { email } = await world.client.user('viewer');
      const address = freshAddress();
      const burst = Array.from({ length: 200 }, (_, i) => world.client.signIn(email, `not the password ${i}`, {}, address));
      const statuses = (await Promise.all(burst)).map((response) => response.status);
      expect(statuses.filter((status) => status === 401).length).toBeLessThanOrEqual(5);
      expect(statuses.filter((status) => status !== 401 && status !== 429)).toEqual([]);
      expect((await world.client.signIn(email, PASSWORD, {}, address)).status).toBe(429);
    });

    it('brakes an address after 30 failures, whatever e-mail it tries next', async () => {
      const { email } = await world.client.user('viewer');
      const address = freshAddress();
      for (let i = 0; i < 30; i++) {
        expect((await world.client.signIn(`guess-${i}-${randomUUID()}@example.com`, 'not the password!', {}, address)).status).toBe(401);
      }
      expect((await world.client.signIn(email, PASSWORD, {}, address)).status).toBe(429);
      expect((await world.client.signIn(email, PASSWORD, {}, freshAddress())).status).toBe(200);
    });

    it('refuses a sign-in posted from another site, and an invalid body with a 400', async () => {
      const { email } = await world.client.user('viewer');
      const foreign = await world.client.signIn(email, PASSWORD, { origin: 'https://evil.example' });
      expect(foreign).toMatchObject({ status: 403, body: { error: { code: 'cross_site_write' } } });
      const form = await world.server.json('POST', '/api/admin/session', `email=${email}&password=x`, {
        'content-type': 'application/x-www-form-urlencoded',
      });
      expect(form.status).toBe(415);
      expect((await world.server.json('POST', '/api/admin/session', { email })).status).toBe(400);
    });
  });

  describe('sessions', () => {
    it('ends after 30 minutes without a call', async () => {
      const cookie = await world.client.session((await world.client.user('viewer')).email);
      world.clock.advance(29 * MINUTE);
      expect((await world.client.withCookie(cookie, 'GET', '/session')).status).toBe(200);
      world.clock.advance(30 * MINUTE);
      const ended = await world.client.withCookie(cookie, 'GET', '/session');
      expect(ended).toMatchObject({ status: 401, body: { error: { code: 'admin_unauthorized' } } });
      // The browser is told to drop the dead cookie.
      expect(ended.headers.get('set-cookie')).toMatch(/^pix_admin=;.*Max-Age=0/);
    });

    it('ends 12 hours after sign-in, however busy', async () => {
      const cookie = await world.client.session((await world.client.user('viewer')).email);
      for (let elapsed = 25 * MINUTE; elapsed < 12 * HOUR; elapsed += 25 * MINUTE) {
        world.clock.advance(25 * MINUTE);
        expect((await world.client.withCookie(cookie, 'GET', '/session')).status).toBe(200);
      }
      world.clock.advance(25 * MINUTE);
      expect((await world.client.withCookie(cookie, 'GET', '/session')).status).toBe(401);
    });

    it("stops a disabled user's session at once", async () => {
      const { email, id } = await world.client.user('operator');
      const cookie = await world.client.session(email);
      expect((await world.client.withCookie(cookie, 'GET', '/balance')).status).toBe(200);
      expect((await world.client.withToken('PATCH', `/users/${id}`, { disabled: true })).status).toBe(200);
      expect((await world.client.withCookie(cookie, 'GET', '/balance')).status).toBe(401);
    });

    it('signs out: 204, the cookie cleared, the session gone', async () => {
      const cookie = await world.client.session((await world.client.user('viewer')).email);
      const out = await world.client.withCookie(cookie, 'DELETE', '/session');
      expect(out.status).toBe(204);
      expect(out.headers.get('set-cookie')).toMatch(/^pix_admin=;.*Max-Age=0/);
      expect((await world.client.withCookie(cookie, 'GET', '/session')).status).toBe(401);
    });

    it('answers 401 without credentials, and a wrong bearer token is not saved by a good cookie', async () => {
      const cookie = await world.client.session((await world.client.user('owner')).email);
      expect((await world.server.json('GET', '/api/admin/session')).status).toBe(401);
      const both = await world.server.json('GET', '/api/admin/session', undefined, { cookie, authorization: 'Bearer wrong' });
      expect(both.status).toBe(401);
    });
  });

  describe('roles and origins', () => {
    it('refuses a viewer any write and the users, with 403 admin_forbidden; lets it read', async () => {
      const cookie = await world.client.session((await world.client.user('viewer')).email);
      const cashOut = await world.client.withCookie(
        cookie,
        'POST',
        '/cashouts',
        { recipient: { name: 'J', cpf: '52998224725' }, key: { type: 'CPF', value: '52998224725' }, amount: '1.00' },
        { 'idempotency-key': randomUUID() },
      );
      expect(cashOut).toMatchObject({ status: 403, body: { error: { code: 'admin_forbidden' } } });
      expect((await world.client.withCookie(cookie, 'GET', '/users')).status).toBe(403);
      expect((await world.client.withCookie(cookie, 'GET', '/balance')).status).toBe(200);
      expect((await world.client.withCookie(cookie, 'GET', '/audit')).status).toBe(200);
    });

    it('refuses an operator the webhook endpoints writes, and lets an owner make them', async () => {
      const operator = await world.client.session((await world.client.user('operator')).email);
      const owner = await world.client.session((await world.client.user('owner')).email);
      const body = { url: 'https://shop.example/hooks' };
      expect((await world.client.withCookie(operator, 'POST', '/webhook-endpoints', body)).status).toBe(403);
      expect((await world.client.withCookie(operator, 'GET', '/webhook-endpoints')).status).toBe(200);
      expect((await world.client.withCookie(owner, 'POST', '/webhook-endpoints', body)).status).toBe(201);
    });

    it('refuses a cookie-borne write from another origin or with none (403 cross_site_write), not a read', async () => {
      const cookie = await world.client.session((await world.client.user('owner')).email);
      const body = { url: 'https://shop.example/cross' };
      for (const origin of ['https://evil.example', 'null', undefined]) {
        const refused = await world.server.json('POST', '/api/admin/webhook-endpoints', body, { cookie, ...(origin ? { origin } : {}) });
        expect(refused).toMatchObject({ status: 403, body: { error: { code: 'cross_site_write' } } });
      }
      expect((await world.client.withCookie(cookie, 'GET', '/balance', undefined, { origin: 'https://evil.example' })).status).toBe(200);
      expect((await world.client.withCookie(cookie, 'POST', '/webhook-endpoints', body)).status).toBe(201);
    });

    it('still opens everything with the bearer token, as an owner named api-token, without an Origin', async () => {
      expect(await world.client.withToken('GET', '/session')).toMatchObject({
        status: 200,
        body: { actor: { kind: 'token', name: 'api-token', role: 'owner' }, expiresAt: null },
      });
      const added = await world.client.withToken('POST', '/webhook-endpoints', { url: 'https://shop.example/token' });
      expect(added.status).toBe(201);
      const audit = await world.client.withToken('GET', `/audit?action=webhook_endpoint.add&actor=api-token&limit=5`);
      expect(audit.body.data[0]).toMatchObject({ actor: 'api-token', role: 'owner', target: added.body.id, outcome: 'ok' });
    });
  });
});

describe('the session cookie on https', () => {
  let server: TestServer;
  beforeAll(async () => {
    const clock = new ManualClock(new Date());
    server = await startTestServer({ env: { ADMIN_TOKEN, PUBLIC_BASE_URL: 'https://console.example' }, start: { clock } });
  });
  afterAll(() => server?.close());

  it('is Secure when the public address is https, and writes must come from that origin', async () => {
    const client = consoleClient(server, new ManualClock(new Date()));
    const { email } = await client.user('owner');
    const response = await client.signIn(email);
    expect(response.status).toBe(200);
    const setCookie = response.headers.get('set-cookie')!;
    expect(setCookie.split(';').map((part) => part.trim())).toContain('Secure');
    const cookie = sessionCookie(setCookie);
    const loopback = await client.withCookie(
      cookie,
      'POST',
      '/webhook-endpoints',
      { url: 'https://shop.example/h' },
      { origin: server.url },
    );
    expect(loopback.status).toBe(403);
    expect((await client.withCookie(cookie, 'POST', '/webhook-endpoints', { url: 'https://shop.example/h' })).status).toBe(201);
  });
});
