/**
 * The console's sign-in from a test: users added straight through server/accounts/users.ts on the running server's
 * store, sign-ins over HTTP from an address of the test's choosing (the servers trust one proxy, so
 * `X-Forwarded-For` names it and tests do not share the sign-in brake), and calls with the session cookie from the
 * console's own origin.
 */
import { randomUUID } from 'node:crypto';
import { addUser } from '../../../server/accounts/users';
import { afterAll, beforeAll } from 'vitest';
import { ManualClock, type Clock } from '../../../server/lib/clock';
import type { UserRole } from '../../../server/store/accounts';
import type { StartOptions } from '../../../server/server';
import { startTestServer, type TestServer } from '../helpers/server';
import type { TestDatabaseEnv } from '../merchant-webhooks/databases';

export const PASSWORD = 'a long enough password';
export const ADMIN_TOKEN = 'admin-token-for-the-auth-tests-0123456789';

let addresses = 0;
/** A fresh client address (10.x.y.z), so each sign-in test has its own brake. */
export const freshAddress = () => {
  const n = ++addresses;
  return `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;
};

/** The `name=value` of the session cookie a response sets, for the `cookie` header of the next calls. */
export function sessionCookie(setCookie: string | null): string {
  const match = /(?:^|,\s*)(pix_admin=[^;]*)/.exec(setCookie ?? '');
  if (!match) throw new Error(`no pix_admin cookie in ${setCookie}`);
  return match[1]!;
}

export function consoleClient(server: TestServer, clock: Clock) {
  const origin = new URL(server.publicBaseUrl).origin;
  const noAudit = async () => undefined;

  /** Adds a user of `role` with PASSWORD; resolves with its e-mail and id. */
  async function user(role: UserRole, email = `${role}-${randomUUID()}@example.com`) {
    const added = await addUser({ store: server.store, clock }, { email, role, password: PASSWORD }, noAudit);
    return { email: added.email, id: added.id };
  }

  /** `POST /api/admin/session` from `address`, with the console's Origin unless told. */
  const signIn = (email: string, password = PASSWORD, headers: Record<string, string> = {}, address = freshAddress()) =>
    server.json('POST', '/api/admin/session', { email, password }, { origin, 'x-forwarded-for': address, ...headers });

  /** Signs in and resolves with the `cookie` header of the session. */
  async function session(email: string): Promise<string> {
    const response = await signIn(email);
    if (response.status !== 200) throw new Error(`sign-in failed: ${response.status} ${response.text}`);
    return sessionCookie(response.headers.get('set-cookie'));
  }

  /** A back-office call with the session cookie, from the console's own origin unless `headers` say otherwise. */
  const withCookie = (cookie: string, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
    server.json(method, `/api/admin${path}`, body, { cookie, origin, ...headers });

  /** A back-office call with the bearer token. */
  const withToken = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
    server.json(method, `/api/admin${path}`, body, { authorization: `Bearer ${ADMIN_TOKEN}`, ...headers });

  return { origin, user, signIn, session, withCookie, withToken };
}

/** What a back-office test file stands on: its database, a demo server and its clock, and a console client. */
export interface ConsoleWorld {
  db: TestDatabaseEnv;
  server: TestServer;
  clock: ManualClock;
  client: ReturnType<typeof consoleClient>;
}

/**
 * Starts, before the enclosing suite's tests, a demo server on `database` with ADMIN_TOKEN, one trusted proxy (so
 * `freshAddress` works) and a ManualClock at now, plus `env`; closes it and drops the database after them. The
 * fields are set once the suite's first `beforeAll` (this one) ran.
 */
export function consoleWorld(
  database: () => Promise<TestDatabaseEnv>,
  options: { env?: Record<string, string>; start?: Omit<StartOptions, 'clock'> } = {},
): ConsoleWorld {
  const world = {} as ConsoleWorld;
  beforeAll(async () => {
    world.db = await database();
    world.clock = new ManualClock(new Date());
    const env = { ADMIN_TOKEN, TRUST_PROXY: '1', ...options.env, ...world.db.env };
    world.server = await startTestServer({ env, start: { ...options.start, clock: world.clock } });
    world.client = consoleClient(world.server, world.clock);
  });
  afterAll(async () => {
    await world.server?.close();
    await world.db?.drop();
  });
  return world;
}
