/**
 * Passkeys over HTTP, on both databases, with a software authenticator (../helpers/soft-passkey.ts): an owner adds
 * one, the sign-in's second step takes its assertion and opens the session (a replayed assertion is refused), and
 * the step-up takes a fresh one before a guarded action; the passkey is removed, and the sign-in then needs none.
 */
import { describe, expect, it } from 'vitest';
import { DATABASES } from '../merchant-webhooks/databases';
import { softPasskey } from '../helpers/soft-passkey';
import { consoleWorld, sessionCookie } from './auth-helpers';

const MINUTE = 60_000;
const newUser = () => ({ email: `u-${crypto.randomUUID()}@example.com`, role: 'viewer', password: 'a long enough password' });

describe.each(DATABASES)('passkeys (%s)', (_name, database) => {
  const world = consoleWorld(database, { env: { MFA_REQUIRED: 'owner' } });

  it('adds a passkey, signs in with it once per assertion, steps up with it, and removes it', async () => {
    const { email } = await world.client.user('owner');
    const passkey = softPasskey(world.client.origin);
    const enrolling = await world.client.session(email);
    const options = await world.client.withCookie(enrolling, 'POST', '/me/mfa/passkeys/options', {});
    expect(options.status).toBe(200);
    const added = await world.client.withCookie(enrolling, 'POST', '/me/mfa/passkeys', {
      response: passkey.register(options.body as never),
    });
    expect(added.status, added.text).toBe(201);

    const first = await world.client.signIn(email);
    expect(first.body).toEqual({ mfaRequired: true, methods: ['passkey'] });
    expect(first.headers.get('set-cookie')).not.toMatch(/pix_admin=/);
    const pending = /(pix_sign_in=[^;]*)/.exec(first.headers.get('set-cookie') ?? '')![1]!;
    const asPending = (path: string, body: unknown) =>
      world.server.json('POST', `/api/admin${path}`, body, { cookie: pending, origin: world.client.origin });
    const challenge = (await asPending('/session/passkey/options', {})).body as never;
    const assertion = passkey.assert(challenge);
    const opened = await asPending('/session/passkey', { response: assertion });
    expect(opened.status, opened.text).toBe(200);
    const cookie = sessionCookie(opened.headers.get('set-cookie'));
    const second = await world.client.signIn(email);
    const replay = await world.server.json(
      'POST',
      '/api/admin/session/passkey',
      { response: assertion },
      {
        cookie: /(pix_sign_in=[^;]*)/.exec(second.headers.get('set-cookie') ?? '')![1]!,
        origin: world.client.origin,
      },
    );
    expect(replay.status).toBe(401);

    world.clock.advance(6 * MINUTE);
    const asked = await world.client.withCookie(cookie, 'POST', '/users', newUser());
    expect(asked.body).toMatchObject({ error: { code: 'step_up_required', details: { methods: ['passkey'] } } });
    const stepUpOptions = (await world.client.withCookie(cookie, 'POST', '/session/step-up/options', {})).body as never;
    expect((await world.client.withCookie(cookie, 'POST', '/session/step-up', { response: passkey.assert(stepUpOptions) })).status).toBe(
      204,
    );
    expect((await world.client.withCookie(cookie, 'POST', '/users', newUser())).status).toBe(201);

    expect((await world.client.withCookie(cookie, 'DELETE', `/me/mfa/passkeys/${passkey.id}`)).status).toBe(204);
    expect((await world.client.withCookie(cookie, 'DELETE', `/me/mfa/passkeys/${passkey.id}`)).status).toBe(404);
    const trail = await world.server.store.listAudit({ limit: 50, action: 'mfa.passkey_remove' });
    expect(trail[0]).toMatchObject({ actor: email, outcome: 'ok' });
    expect((await world.client.signIn(email)).headers.get('set-cookie')).toMatch(/pix_admin=/);
  });
});
