/**
 * Configuration from the environment, validated once at start. Unset means the embedded default: the sandbox
 * emulator in this process, a SQLite file under DATA_DIR, secrets generated and kept in DATA_DIR.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { z } from 'zod';
import { parseCents } from '../core/money';
import { WEBHOOK_SECRET_FORMAT } from './merchant-webhooks/signing';
import { DEFAULT_APPROVAL_ABOVE_CENTS } from './payments/cashout-request';
import { MFA_POLICIES, type MfaPolicy } from './accounts/mfa';
import { openFileLimit } from './lib/limits';
import { LOG_LEVELS, type LogFormat, type LogLevel } from './lib/log';
import { parseSecretsKey } from './lib/sealer';

const optional = <T extends z.ZodType>(schema: T) => z.preprocess((v) => (v === '' ? undefined : v), schema.optional());
const url = z.url({ protocol: /^https?$/ });
/** A whole number of at least `min`, or `fallback` when unset or empty. */
const whole = (min: number, fallback: number) =>
  z.preprocess((v) => (v === '' ? undefined : v), z.coerce.number().int().min(min).default(fallback));

const parsesAsKey = (value: string) => {
  try {
    parseSecretsKey(value);
    return true;
  } catch {
    return false;
  }
};

/** Open SSE streams at once, all clients together: 4096, or half the open-file limit when that is lower. */
export function defaultSseMaxTotal(fileLimit = openFileLimit()): number {
  return fileLimit === undefined ? 4096 : Math.max(64, Math.min(4096, Math.floor(fileLimit / 2)));
}

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
    WEBHOOK_SIGNING_KEY: optional(
      z.string().min(16, "must be at least 16 characters (the provider portal's signing key)").regex(/^\S+$/, 'must not contain spaces'),
    ),
    ADMIN_TOKEN: optional(z.string().min(24, 'must be at least 24 characters')),
    ORDERS_URL: optional(url),
    MERCHANT_WEBHOOK_URL: optional(url),
    MERCHANT_WEBHOOK_SECRET: optional(
      z
        .string()
        .transform((v) => v.split(/[\s,]+/).filter(Boolean))
        .pipe(
          z
            .array(z.string().regex(WEBHOOK_SECRET_FORMAT, 'must be whsec_ and at least 24 bytes of base64'))
            .min(1)
            .max(2, 'takes two secrets at most (the old and the new one, while rotating)'),
        ),
    ),
    ORDERS_TOKEN: optional(z.string().min(16, 'must be at least 16 characters')),
    APPROVAL_ABOVE: optional(
      z
        .string()
        .refine(
          (v) => parseCents(v) !== undefined,
          'must be an amount in reais like 1000 or 1000.00 (0: every cash-out and refund needs approval)',
        )
        .transform((v) => parseCents(v)!),
    ),
    MFA_REQUIRED: optional(z.enum(MFA_POLICIES, `must be one of ${MFA_POLICIES.join(', ')}`)),
    TRUST_PROXY: z.preprocess(
      (v) => (v === '' ? undefined : v),
      z.coerce.number('must be the number of proxies in front of this server (0 to 10)').int().min(0).max(10).default(0),
    ),
    SSE_MAX_PER_CLIENT: whole(1, 256),
    SSE_MAX_TOTAL: optional(z.coerce.number().int().min(1)),
    CHECKOUT_RATE_PER_MINUTE: whole(0, 30),
    REQUEST_TIMEOUT_MS: whole(100, 60_000),
    BODY_TIMEOUT_MS: whole(100, 10_000),
    CHECKOUT_TTL_SECONDS: z.preprocess(
      (v) => (v === '' ? undefined : v),
      z.coerce
        .number('must be the payment window in seconds (1 to 604800)')
        .int('must be a whole number of seconds')
        .min(1)
        .max(604_800)
        .default(1800),
    ),
    LOG_FORMAT: z.preprocess((v) => (v === '' ? undefined : v), z.enum(['json', 'pretty']).default('json')),
    LOG_LEVEL: z.preprocess((v) => (v === '' ? undefined : v), z.enum(LOG_LEVELS).default('info')),
    SHUTDOWN_TIMEOUT_MS: whole(1_000, 10_000),
    SECRETS_KEY: optional(z.string().refine(parsesAsKey, 'must be 32 bytes, as 64 hex digits or base64url')),
    SECRETS_KEY_PREVIOUS: optional(
      z.string().refine((v) => v.split(',').every((k) => !k.trim() || parsesAsKey(k)), 'must be keys like SECRETS_KEY, comma-separated'),
    ),
    PAYER_DATA_RETENTION_DAYS: whole(1, 1825),
    METRICS_TOKEN: optional(
      z
        .string()
        .min(24, 'must be at least 24 characters')
        .regex(/^[\x21-\x7e]+$/, 'must be printable ASCII without spaces'),
    ),
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
  })
  .refine((e) => !e.MERCHANT_WEBHOOK_URL || e.MERCHANT_WEBHOOK_SECRET, {
    message: 'MERCHANT_WEBHOOK_URL needs MERCHANT_WEBHOOK_SECRET (whsec_…, the secret the receiver verifies with)',
    path: ['MERCHANT_WEBHOOK_SECRET'],
    when: () => true,
  })
  // Instances sharing a database must seal under one key: a key generated in each DATA_DIR would differ.
  .refine((e) => !e.DATABASE_URL || e.SECRETS_KEY, {
    message: 'DATABASE_URL needs SECRETS_KEY (the key every instance seals secrets with; 32 random bytes: `openssl rand -base64 32`)',
    path: ['SECRETS_KEY'],
    when: () => true,
  })
  .refine((e) => !(e.BODY_TIMEOUT_MS > e.REQUEST_TIMEOUT_MS), {
    message: 'must not exceed REQUEST_TIMEOUT_MS (the whole request must arrive within that)',
    path: ['BODY_TIMEOUT_MS'],
    when: () => true,
  });

/** The environment variables `loadConfig` reads (the container's files set no other: test/server/ops/container.test.ts). */
export const SETTING_NAMES: readonly string[] = Object.keys(env.shape);

/** The server's settings, read from the environment by `loadConfig`. */
export interface Config {
  port: number;
  host: string;
  /** Undefined means `http://127.0.0.1:<the port actually bound>`. */
  publicBaseUrl: string | undefined;
  /** Undefined means the origin of the public base URL (both loopback spellings of it: `defaultAllowedOrigins` of server/http/origins.ts). */
  allowedOrigins: string[] | undefined;
  dataDir: string;
  databaseUrl: string | undefined;
  /** Undefined means: run the embedded sandbox emulator and talk to it. */
  provider: { baseUrl: string; accessKey: string; secret: string } | undefined;
  /** The emulator's key pair when one is set (PROVIDER_ACCESS_KEY, PROVIDER_SECRET without PROVIDER_BASE_URL). */
  sandboxKeys: { accessKey: string | undefined; secret: string | undefined };
  /** The merchant's order service (`GET <url>/<orderId>`); undefined in library use and in the demo. */
  orders: { url: string; token: string } | undefined;
  webhookSecret: string;
  /** Whether WEBHOOK_SECRET was set (a generated one is per DATA_DIR, so not shared by instances on other machines). */
  webhookSecretFromEnv: boolean;
  /**
   * The provider portal's webhook signing key: every webhook must then carry a valid `X-Webhook-Signature` (besides
   * the secret header). With the embedded emulator, it signs with this key too.
   */
  webhookSigningKey: string | undefined;
  adminToken: string;
  /**
   * Cash-outs, refunds and payment requests of more cents than this wait for an owner's approval (maker-checker); 0:
   * every one does. APPROVAL_ABOVE, in reais ("1000.00"), read exactly; R$ 1000.00 when unset.
   */
  approvalAboveCents: number;
  /**
   * Whose role must have a second factor in the console (MFA_REQUIRED: `owner`, `operator` (operators and owners),
   * `all`, `off`). Unset: `operator` for the server, `off` for the demo (demo/start.ts).
   */
  mfaRequired: MfaPolicy | undefined;
  /**
   * The merchant's backend, told of every payment by a signed webhook (Standard Webhooks): MERCHANT_WEBHOOK_URL with
   * MERCHANT_WEBHOOK_SECRET (two secrets, space-separated, while one is rotated: both sign).
   */
  merchantWebhook: { url: string; secrets: string[] } | undefined;
  /** The payment window of a new checkout: past it, unpaid, it becomes Expired and the order may get a new code. */
  checkoutTtlSeconds: number;
  /** One JSON object a line (`json`), or lines for people (`pretty`); from `LOG_LEVEL` up (server/lib/log.ts). */
  log: { format: LogFormat; level: LogLevel };
  /** From SIGTERM to the exit (server/shutdown.ts). */
  shutdownTimeoutMs: number;
  /** Past this age a payment's payer (name, CPF, account) is erased from the store (server/payments/payer-retention.ts). */
  payerDataRetentionDays: number;
  /**
   * The bearer token of `GET /metrics` (server/metrics/http.ts). Unset: no metrics under `npm run serve` (404), and
   * open to the loopback address only in the demo on the emulator.
   */
  metricsToken: string | undefined;
  /**
   * The key secrets are sealed with at rest (server/lib/sealer.ts): SECRETS_KEY, else DATA_DIR/secrets-key (generated
   * once); required with DATABASE_URL. `secretsKeysPrevious` only open values (a rotation: SECRETS_KEY_PREVIOUS, else
   * DATA_DIR/secrets-key.previous, left by `npm run admin -- rotate-secrets-key`).
   */
  secretsKey: Buffer;
  secretsKeysPrevious: Buffer[];
  /** Whether SECRETS_KEY was set (else the key is the one kept in DATA_DIR). */
  secretsKeyFromEnv: boolean;
  limits: {
    /** Proxies in front of this server whose `X-Forwarded-For` entries are believed (0: the socket's peer). */
    trustProxy: number;
    sseMaxPerClient: number;
    sseMaxTotal: number;
    /** `POST /api/checkouts` per client address and minute (a burst of as many); 0 turns the limit off. */
    checkoutRatePerMinute: number;
    /** Node's `requestTimeout`: the whole request (headers and body, an invoice upload too) must arrive within it. */
    requestTimeoutMs: number;
    /** Headers, and then a JSON body, must arrive within it. */
    bodyTimeoutMs: number;
  };
}

/** Reads and checks the environment; throws one readable message listing every problem. */
export function loadConfig(source: NodeJS.ProcessEnv = process.env): Config {
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
    publicBaseUrl: e.PUBLIC_BASE_URL?.replace(/\/+$/, ''),
    allowedOrigins,
    dataDir,
    databaseUrl: e.DATABASE_URL,
    provider: e.PROVIDER_BASE_URL
      ? { baseUrl: e.PROVIDER_BASE_URL, accessKey: e.PROVIDER_ACCESS_KEY!, secret: e.PROVIDER_SECRET! }
      : undefined,
    sandboxKeys: { accessKey: e.PROVIDER_ACCESS_KEY, secret: e.PROVIDER_SECRET },
    orders: e.ORDERS_URL ? { url: e.ORDERS_URL, token: e.ORDERS_TOKEN! } : undefined,
    webhookSecret: e.WEBHOOK_SECRET ?? keptSecret(dataDir, 'webhook-secret'),
    webhookSecretFromEnv: e.WEBHOOK_SECRET !== undefined,
    webhookSigningKey: e.WEBHOOK_SIGNING_KEY,
    adminToken: e.ADMIN_TOKEN ?? keptSecret(dataDir, 'admin-token'),
    approvalAboveCents: e.APPROVAL_ABOVE ?? DEFAULT_APPROVAL_ABOVE_CENTS,
    mfaRequired: e.MFA_REQUIRED,
    merchantWebhook: e.MERCHANT_WEBHOOK_URL ? { url: e.MERCHANT_WEBHOOK_URL, secrets: e.MERCHANT_WEBHOOK_SECRET! } : undefined,
    checkoutTtlSeconds: e.CHECKOUT_TTL_SECONDS,
    /** One JSON object a line (`json`), or lines for people (`pretty`); from `LOG_LEVEL` up (server/lib/log.ts). */
    log: { format: e.LOG_FORMAT, level: e.LOG_LEVEL },
    /** From SIGTERM to the exit: requests in flight finish, streams are told to retry, leases go back (server/shutdown.ts). */
    shutdownTimeoutMs: e.SHUTDOWN_TIMEOUT_MS,
    payerDataRetentionDays: e.PAYER_DATA_RETENTION_DAYS,
    metricsToken: e.METRICS_TOKEN,
    ...secretsKeys(dataDir, e.SECRETS_KEY, e.SECRETS_KEY_PREVIOUS),
    limits: {
      trustProxy: e.TRUST_PROXY,
      sseMaxPerClient: e.SSE_MAX_PER_CLIENT,
      sseMaxTotal: e.SSE_MAX_TOTAL ?? defaultSseMaxTotal(),
      checkoutRatePerMinute: e.CHECKOUT_RATE_PER_MINUTE,
      requestTimeoutMs: e.REQUEST_TIMEOUT_MS,
      bodyTimeoutMs: e.BODY_TIMEOUT_MS,
    },
  };
}

/** The file beside `secrets-key` holding the key a rotation of the embedded default replaced (./admin-secrets.ts). */
export const PREVIOUS_SECRETS_KEY_FILE = 'secrets-key.previous';

function secretsKeys(dataDir: string, fromEnv: string | undefined, previous: string | undefined) {
  const previousFile = join(dataDir, PREVIOUS_SECRETS_KEY_FILE);
  const older = previous ?? (!fromEnv && existsSync(previousFile) ? readFileSync(previousFile, 'utf8') : '');
  return {
    secretsKey: parseSecretsKey(fromEnv ?? keptSecret(dataDir, 'secrets-key')),
    secretsKeysPrevious: older
      .split(',')
      .filter((key) => key.trim())
      .map(parseSecretsKey),
    secretsKeyFromEnv: fromEnv !== undefined,
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
