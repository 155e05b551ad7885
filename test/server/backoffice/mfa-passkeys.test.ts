/**
 * Passkeys over HTTP, on both databases, with a software authenticator (../helpers/soft-passkey.ts): an owner adds
 * one, the sign-in's second step takes its assertion and opens the session (a replayed assertion is refused), and
 * the step-up takes a fresh one before a guarded action; the passkey is removed, and the sign-in then needs none.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../server/lib/clock';
import { DATABASES, type TestDatabaseEnv } from '../merchant-webhooks/databases';
import { softPasskey } from '../helpers/soft-passkey';
import { startTestServer, type TestServer } from '../helpers/server';
import { ADMIN_TOKEN, consoleClient, sessionCookie } from './auth-helpers';

const MINUTE = 60_000;
const newUser = () => ({ email: `u-${crypto.randomUUID()}@example.com`, role: 'viewer', password: 'a long enough password' });

describe.each(DATABASES)('passkeys (%s)', (_name, database) => {
  let db: TestDatabaseEnv;
  let server: TestServer;
  let clock: ManualClock;
  let client: ReturnType<typeof consoleClient>;

  beforeAll(async () => {
    db = await database();
    clock = new ManualClock(new Date());
    server = await startTestServer({ env: { ADMIN_TOKEN, TRUST_PROXY: '1', MFA_REQUIRED: 'owner', ...db.env }, start: { clock } });
    client = consoleClient(server, clock);
  });
  afterAll(async () => {
    await server?.close();
    await db?.drop();
  });

  it('adds a passkey, signs in with it once per assertion, steps up with it, and removes it', async () => {
    const { email } = await client.user('owner');
    const passkey = softPasskey(client.origin);
    const enrolling = await client.session(email);
    const options = await client.withCookie(enrolling, 'POST', '/me/mfa/passkeys/options', {});
    expect(options.status).toBe(200);
    const added = await client.withCookie(enrolling, 'POST', '/me/mfa/passkeys', { response: passkey.register(options.body as never) });
    expect(added.status, added.text).toBe(201);

    const first = await client.signIn(email);
    expect(first.body).toEqual({ mfaRequired: true, methods: ['passkey'] });
    expect(first.headers.get('set-cookie')).not.toMatch(/pix_admin=/);
    const pending = /(pix_sign_in=[^;]*)/.exec(first.headers.get('set-cookie') ?? '')![1]!;
    const asPending = (path: string, body: unknown) =>
      server.json('POST', `/api/admin${path}`, body, { cookie: pending, origin: client.origin });
    const challenge = (await asPending('/session/passkey/options', {})).body as never;
    const assertion = passkey.assert(challenge);
    const opened = await asPending('/session/passkey', { response: assertion });
    expect(opened.status, opened.text).toBe(200);
    const cookie = sessionCookie(opened.headers.get('set-cookie'));
    const second = await client.signIn(email);
    const replay = await server.json(
      'POST',
      '/api/admin/session/passkey',
      { response: assertion },
      {
        cookie: /(pix_sign_in=[^;]*)/.exec(second.headers.get('set-cookie') ?? '')![1]!,
        origin: client.origin,
      },
    );
    expect(replay.status).toBe(401);

    clock.advance(6 * MINUTE);
    const asked = await client.withCookie(cookie, 'POST', '/users', newUser());
    expect(asked.body).toMatchObject({ error: { code: 'step_up_required', details: { methods: ['passkey'] } } });
    const stepUpOptions = (await client.withCookie(cookie, 'POST', '/session/step-up/options', {})).body as never;
    expect((await client.withCookie(cookie, 'POST', '/session/step-up', { response: passkey.assert(stepUpOptions) })).status).toBe(204);
    expect((await client.withCookie(cookie, 'POST', '/users', newUser())).status).toBe(201);

    expect((await client.withCookie(cookie, 'DELETE', `/me/mfa/passkeys/${passkey.id}`)).status).toBe(204);
    expect((await client.withCookie(cookie, 'DELETE', `/me/mfa/passkeys/${passkey.id}`)).status).toBe(404);
    const trail = await server.store.listAudit({ limit: 50, action: 'mfa.passkey_remove' });
    expect(trail[0]).toMatchObject({ actor: email, outcome: 'ok' });
    expect((await client.signIn(email)).headers.get('set-cookie')).toMatch(/pix_admin=/);
  });
});
