/**
 * Whose the console's live streams (`GET /api/admin/events`) are, over real sockets: each user holds at most 4 (one
 * viewer cannot take the 32 from the owner), the 32 in all still hold, and a stream ends with what opened it: at once
 * at its session's sign-out and when its user is disabled, and at its next heartbeat once its session went idle.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../server/lib/clock';
import { openSse, type SseConnection } from '../helpers/sse';
import { startTestServer, type TestServer } from '../helpers/server';
import { ADMIN_TOKEN, consoleClient } from './auth-helpers';

const MINUTE = 60_000;

describe('the console live streams', () => {
  let server: TestServer;
  let clock: ManualClock;
  let client: ReturnType<typeof consoleClient>;
  const opened: SseConnection[] = [];
  beforeAll(async () => {
    clock = new ManualClock(new Date());
    server = await startTestServer({ env: { ADMIN_TOKEN, TRUST_PROXY: '1' }, start: { clock, tuning: { heartbeatMs: 100 } } });
    client = consoleClient(server, clock);
  });
  afterEach(() => opened.splice(0).forEach((stream) => stream.close()));
  afterAll(() => server?.close());

  /** Opens a stream with the session `cookie`, kept to be closed after the test. */
  async function stream(cookie: string) {
    const connection = await openSse(`${server.url}/api/admin/events`, { cookie });
    opened.push(connection);
    return connection;
  }
  /** A fresh user of `role`, signed in: its e-mail, id and session cookie. */
  async function signedIn(role: 'viewer' | 'owner') {
    const user = await client.user(role);
    return { ...user, cookie: await client.session(user.email) };
  }
  /** Whether `connection` is still open after a few heartbeats. */
  const stillOpen = async (connection: SseConnection) => {
    await connection.readFor(400);
    return connection.comments.includes('heartbeat') && !(await connection.ended(50).catch(() => false));
  };

  it('gives each user 4 at most, and leaves the owner one when a viewer holds its share', async () => {
    const viewer = await signedIn('viewer');
    const streams = await Promise.all(Array.from({ length: 4 }, () => stream(viewer.cookie)));
    expect(streams.map((s) => s.status)).toEqual([200, 200, 200, 200]);
    const fifth = await fetch(`${server.url}/api/admin/events`, { headers: { cookie: viewer.cookie } });
    expect(fifth.status).toBe(429);
    expect((await fifth.json()).error.code).toBe('too_many_streams');
    // Another session of the same user holds from the same share.
    expect((await fetch(`${server.url}/api/admin/events`, { headers: { cookie: await client.session(viewer.email) } })).status).toBe(429);
    expect((await stream((await signedIn('owner')).cookie)).status).toBe(200);
  });

  it('still holds the 32 in all', async () => {
    // A server of its own: the other tests' streams, closed by the client, may not all be released yet.
    const full = await startTestServer({ env: { ADMIN_TOKEN, TRUST_PROXY: '1' }, start: { clock } });
    const own = consoleClient(full, clock);
    const open = (cookie: string) => openSse(`${full.url}/api/admin/events`, { cookie });
    const streams: SseConnection[] = [];
    try {
      const users = await Promise.all(Array.from({ length: 9 }, () => own.user('viewer').then((u) => own.session(u.email))));
      for (const cookie of users.slice(0, 8)) streams.push(...(await Promise.all(Array.from({ length: 4 }, () => open(cookie)))));
      expect(streams.map((s) => s.status)).toEqual(Array.from({ length: 32 }, () => 200));
      const over = await fetch(`${full.url}/api/admin/events`, { headers: { cookie: users[8]! } });
      expect(over.status).toBe(429);
      expect((await over.json()).error.code).toBe('too_many_streams');
    } finally {
      streams.forEach((s) => s.close());
      await full.close();
    }
  });

  it("ends a session's streams at its sign-out, not its user's other sessions'", async () => {
    const viewer = await signedIn('viewer');
    const other = await client.session(viewer.email);
    const [signingOut, staying] = [await stream(viewer.cookie), await stream(other)];
    expect((await client.withCookie(viewer.cookie, 'DELETE', '/session')).status).toBe(204);
    expect(await signingOut.ended(1_000)).toBe(true);
    expect(await stillOpen(staying)).toBe(true);
  });

  it("ends a user's streams when the user is disabled", async () => {
    const viewer = await signedIn('viewer');
    const streams = [await stream(viewer.cookie), await stream(await client.session(viewer.email))];
    expect((await client.withToken('PATCH', `/users/${viewer.id}`, { disabled: true })).status).toBe(200);
    for (const s of streams) expect(await s.ended(1_000)).toBe(true);
  });

  it('ends a stream at its next heartbeat once its session went idle, and the stream does not keep it alive', async () => {
    const viewer = await signedIn('viewer');
    const idle = await stream(viewer.cookie);
    clock.advance(29 * MINUTE);
    expect(await stillOpen(idle)).toBe(true);
    clock.advance(2 * MINUTE);
    expect(await idle.ended(1_000)).toBe(true);
    expect((await client.withCookie(viewer.cookie, 'GET', '/session')).status).toBe(401);
  });
});
