/**
 * Where company-payment transactions send their webhooks. Payment requests carry no webhook (the provider sets it
 * per key in its portal), so the sandbox takes it from `createSandbox({ companyWebhook })` or from the admin route,
 * which persists it and wins over the option.
 */
import type Database from 'better-sqlite3';
import { webhookConfig, type WebhookConfig } from '../../provider/schemas';

const KEY = 'company-webhook';

export function createCompanyWebhookConfig(db: Database.Database, fallback: WebhookConfig | undefined) {
  const read = db.prepare('SELECT value FROM settings WHERE key = ?');
  const write = db.prepare('INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value');
  const remove = db.prepare('DELETE FROM settings WHERE key = ?');
  return {
    get(): WebhookConfig | undefined {
      const row = read.get(KEY) as { value: string } | undefined;
      return row ? webhookConfig.parse(JSON.parse(row.value)) : fallback;
    },
    set: (config: WebhookConfig) => void write.run(KEY, JSON.stringify(config)),
    /** Back to the `companyWebhook` option (or none). */
    reset: () => void remove.run(KEY),
  };
}

export type CompanyWebhookConfig = ReturnType<typeof createCompanyWebhookConfig>;
