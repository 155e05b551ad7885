/**
 * Configuration from the environment, validated once at start. Unset means the embedded default: the sandbox
 * emulator in this process, a SQLite file under DATA_DIR, secrets generated and kept in DATA_DIR.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { z } from 'zod';

const optional = <T extends z.ZodType>(schema: T) => z.preprocess((v) => (v === '' ? undefined : v), schema.optional());
const url = z.url({ protocol: /^https?$/ });

const env = z
  .object({
    PORT: z.coerce.number().int().min(0).max(65535).default(3000),
    HOST: z.string().default('127.0.0.1'),
    PUBLIC_BASE_URL: optional(url),
    ALLOWED_ORIGINS: optional(
      z.string().refine((v) => v.split(',').every((o) => !o.trim() || URL.canParse(o.trim())), 'must be a comma-separated list of origins'),
    ),
    DATA_DIR: z.string().default('data'),
    DATABASE_URL: optional(z.string().regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL')),
    PROVIDER_BASE_URL: optional(url),
    PROVIDER_ACCESS_KEY: optional(z.string()),
    PROVIDER_SECRET: optional(z.string()),
    WEBHOOK_SECRET: optional(z.string().min(32, 'must be at least 32 characters (192 bits of base64)')),
    ADMIN_TOKEN: optional(z.string().min(24, 'must be at least 24 characters')),
    ORDERS_URL: optional(url),
    ORDERS_TOKEN: optional(z.string().min(16, 'must be at least 16 characters')),
  })
  .refine((e) => !e.PROVIDER_BASE_URL || (e.PROVIDER_ACCESS_KEY && e.PROVIDER_SECRET), {
    message: 'PROVIDER_BASE_URL needs PROVIDER_ACCESS_KEY and PROVIDER_SECRET',
    path: ['PROVIDER_ACCESS_KEY'],
    // Checked even when other variables are wrong, so one start lists every problem.
    when: () => true,
  })
  .refine((e) => !e.ORDERS_URL || e.ORDERS_TOKEN, {
    message: 'ORDERS_URL needs ORDERS_TOKEN (the bearer token the BFF sends to the order service)',
    path: ['ORDERS_TOKEN'],
    when: () => true,
  });

export type Config = ReturnType<typeof loadConfig>;

/** Reads and checks the environment; throws one readable message listing every problem. */
export function loadConfig(source: NodeJS.ProcessEnv = process.env) {
  const parsed = env.safeParse(source);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.') || 'environment'}: ${i.message}`);
    throw new Error(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  const dataDir = resolve(e.DATA_DIR);
  mkdirSync(dataDir, { recursive: true });
  const allowedOrigins = e.ALLOWED_ORIGINS?.split(',')
    .map((o) => o.trim())
    .filter(Boolean)
    .map((o) => new URL(o).origin);
  return {
    port: e.PORT,
    host: e.HOST,
    /** Undefined means `http://127.0.0.1:<the port actually bound>`. */
    publicBaseUrl: e.PUBLIC_BASE_URL?.replace(/\/+$/, ''),
    /** Undefined means the origin of the public base URL. */
    allowedOrigins,
    dataDir,
    databaseUrl: e.DATABASE_URL,
    /** Undefined means: run the embedded sandbox emulator and talk to it. */
    provider: e.PROVIDER_BASE_URL
      ? { baseUrl: e.PROVIDER_BASE_URL, accessKey: e.PROVIDER_ACCESS_KEY!, secret: e.PROVIDER_SECRET! }
      : undefined,
    sandboxKeys: { accessKey: e.PROVIDER_ACCESS_KEY, secret: e.PROVIDER_SECRET },
    /** The merchant's order service (`GET <url>/<orderId>`); undefined in library use and in the demo. */
    orders: e.ORDERS_URL ? { url: e.ORDERS_URL, token: e.ORDERS_TOKEN! } : undefined,
    webhookSecret: e.WEBHOOK_SECRET ?? keptSecret(dataDir, 'webhook-secret'),
    adminToken: e.ADMIN_TOKEN ?? keptSecret(dataDir, 'admin-token'),
  };
}

/** A 256-bit random secret generated once and kept in the data directory (owner-only file). */
export function keptSecret(dataDir: string, name: string): string {
  const file = join(dataDir, name);
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  const secret = randomBytes(32).toString('base64url');
  writeFileSync(file, `${secret}\n`, { mode: 0o600 });
  return secret;
}
