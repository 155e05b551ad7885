import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from './config';

const tempDir = () => mkdtempSync(join(tmpdir(), 'pix-config-'));

describe('loadConfig', () => {
  it('defaults to the embedded emulator and generates secrets once, kept in the data directory', () => {
    const dir = tempDir();
    const first = loadConfig({ DATA_DIR: dir });
    expect(first.provider).toBeUndefined();
    expect(first.port).toBe(3000);
    expect(Buffer.from(first.webhookSecret, 'base64url').length).toBe(32);
    expect(readFileSync(join(dir, 'webhook-secret'), 'utf8').trim()).toBe(first.webhookSecret);
    const second = loadConfig({ DATA_DIR: dir });
    expect(second.webhookSecret).toBe(first.webhookSecret);
    expect(second.adminToken).toBe(first.adminToken);
    expect(second.adminToken).not.toBe(second.webhookSecret);
  });

  it('generates SECRETS_KEY into the data directory unset, and refuses DATABASE_URL without it', () => {
    const dir = tempDir();
    const embedded = loadConfig({ DATA_DIR: dir });
    expect(embedded.secretsKey.length).toBe(32);
    expect(embedded.secretsKeyFromEnv).toBe(false);
    expect(loadConfig({ DATA_DIR: dir }).secretsKey.equals(embedded.secretsKey)).toBe(true);
    const database = { DATA_DIR: dir, DATABASE_URL: 'postgres://u@127.0.0.1/db' };
    expect(() => loadConfig(database)).toThrow(/SECRETS_KEY: DATABASE_URL needs SECRETS_KEY/);
    const key = Buffer.alloc(32, 9);
    const shared = loadConfig({
      ...database,
      SECRETS_KEY: key.toString('hex'),
      SECRETS_KEY_PREVIOUS: Buffer.alloc(32, 8).toString('base64url'),
    });
    expect(shared.secretsKey.equals(key)).toBe(true);
    expect(shared.secretsKeysPrevious).toEqual([Buffer.alloc(32, 8)]);
    expect(() => loadConfig({ ...database, SECRETS_KEY: 'short' })).toThrow(/SECRETS_KEY: must be 32 bytes/);
  });

  it('uses the real provider when its address and keys are given', () => {
    const config = loadConfig({
      DATA_DIR: tempDir(),
      PROVIDER_BASE_URL: 'https://api.example.com/v1',
      PROVIDER_ACCESS_KEY: 'k',
      PROVIDER_SECRET: 's',
      ALLOWED_ORIGINS: 'https://shop.example, https://www.shop.example/',
    });
    expect(config.provider).toEqual({ baseUrl: 'https://api.example.com/v1', accessKey: 'k', secret: 's' });
    expect(config.allowedOrigins).toEqual(['https://shop.example', 'https://www.shop.example']);
  });

  it('reads the order service address and its token', () => {
    const config = loadConfig({
      DATA_DIR: tempDir(),
      ORDERS_URL: 'https://shop.example/internal/orders',
      ORDERS_TOKEN: 'a-token-of-16-chars',
    });
    expect(config.orders).toEqual({ url: 'https://shop.example/internal/orders', token: 'a-token-of-16-chars' });
    expect(loadConfig({ DATA_DIR: tempDir() }).orders).toBeUndefined();
  });

  it('reads APPROVAL_ABOVE exactly as reais into cents: R$ 1000.00 unset, 0 for every movement', () => {
    const above = (value?: string) =>
      loadConfig({ DATA_DIR: tempDir(), ...(value === undefined ? {} : { APPROVAL_ABOVE: value }) }).approvalAboveCents;
    expect(above()).toBe(100_000);
    expect(above('')).toBe(100_000);
    expect(above('1000')).toBe(100_000);
    expect(above('1000.00')).toBe(100_000);
    expect(above('250.5')).toBe(25_050);
    expect(above('0.29')).toBe(29);
    expect(above('0')).toBe(0);
    expect(above('90071992547409.91')).toBe(Number.MAX_SAFE_INTEGER);
  });

  it('refuses an APPROVAL_ABOVE that is no exact amount of reais, naming it', () => {
    for (const value of ['-1', '1000.001', '1e3', '1.000,00', 'R$ 1000', 'mil', '90071992547409.92', 'NaN']) {
      expect(() => loadConfig({ DATA_DIR: tempDir(), APPROVAL_ABOVE: value }), value).toThrowError(
        /APPROVAL_ABOVE: must be an amount in reais/,
      );
    }
  });

  it('fails fast with one message naming every bad variable', () => {
    const attempt = () =>
      loadConfig({
        DATA_DIR: tempDir(),
        PORT: 'eighty',
        PROVIDER_BASE_URL: 'https://api.example.com/v1',
        WEBHOOK_SECRET: 'short',
        DATABASE_URL: 'mysql://nope',
        ALLOWED_ORIGINS: 'not a url',
        ORDERS_URL: 'https://shop.example/internal/orders',
      });
    expect(attempt).toThrowError(/Invalid configuration/);
    const message = (() => {
      try {
        attempt();
        return '';
      } catch (error) {
        return (error as Error).message;
      }
    })();
    for (const name of ['PORT', 'WEBHOOK_SECRET', 'DATABASE_URL', 'ALLOWED_ORIGINS', 'PROVIDER_ACCESS_KEY', 'ORDERS_TOKEN'])
      expect(message).toContain(name);
  });
});
