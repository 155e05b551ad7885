/**
 * The key the test servers on PostgreSQL seal with: SECRETS_KEY is required with DATABASE_URL, and every instance of
 * one store must share it, so the helpers give one key to all (in process, ./server.ts; as a child, ./bff-child.ts; the admin CLI, ./admin-cli.ts).
 */
export const TEST_SECRETS_KEY = Buffer.alloc(32, 7).toString('base64url');

/** `env` with TEST_SECRETS_KEY when it names a PostgreSQL store and no key of its own. */
export const keyed = <Env extends Record<string, string | undefined>>(env: Env = {} as Env): Env =>
  env.DATABASE_URL && !env.SECRETS_KEY ? { ...env, SECRETS_KEY: TEST_SECRETS_KEY } : env;
