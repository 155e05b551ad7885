/**
 * The portal's key management, as admin routes (`/sandbox/admin/...`, behind the admin key like the others): access
 * keys in their three states, and the webhook signing key. No answer carries a secret.
 */
import type Database from 'better-sqlite3';
import { Hono } from 'hono';
import { z } from 'zod';
import { accessKeyStatus, type AccessKeys } from '../access-keys';
import { MIN_WEBHOOK_SIGNING_KEY_LENGTH } from '../defaults';
import { EmulatorError, methodNotAllowed, notFound } from '../errors';
import { parseInstant, readBody } from '../request';

const SETTING = 'webhook-signing-key';

/** The signing key in force: the one set through the admin route (kept in the database), else the option's. */
export function createWebhookSigning(db: Database.Database, fromOption: string | undefined) {
  const read = db.prepare('SELECT value FROM settings WHERE key = ?');
  const write = db.prepare('INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value');
  const remove = db.prepare('DELETE FROM settings WHERE key = ?');
  // A stored empty value means "turned off by the admin route", which wins over the option.
  const stored = () => (read.get(SETTING) as { value: string } | undefined)?.value;
  return {
    get: (): string | undefined => {
      const value = stored();
      return value === undefined ? fromOption : value || undefined;
    },
    set: (key: string) => void write.run(SETTING, key),
    off: () => void write.run(SETTING, ''),
    /** Back to the option's key (or none). */
    reset: () => void remove.run(SETTING),
  };
}
export type WebhookSigning = ReturnType<typeof createWebhookSigning>;

const secretText = (min: number) =>
  z
    .string()
    .min(min)
    .max(256)
    .regex(/^[\x21-\x7e]+$/, 'printable ASCII without spaces');
const instant = z.string().nullable().optional();
const newKey = z.object({
  accessKey: z
    .string()
    .min(3)
    .max(128)
    .regex(/^[\w.-]+$/, 'letters, digits, dot, dash or underscore'),
  secret: secretText(8),
  /** A new key waits for approval, as the provider's portal says. */
  status: accessKeyStatus.default('Pending'),
  expiresAt: instant,
});
const change = z.object({ status: accessKeyStatus.optional(), expiresAt: instant });
const signing = z.object({ key: secretText(MIN_WEBHOOK_SIGNING_KEY_LENGTH) });

/** An ISO 8601 instant in its normal form, or null; a 400 at `/expiresAt` otherwise. */
const expiryOf = (value: string | null | undefined) =>
  value === undefined || value === null ? value : new Date(parseInstant(value, '/expiresAt')).toISOString();

export function portalRoutes(portal: { accessKeys: AccessKeys; webhookSigning: WebhookSigning }) {
  const { accessKeys, webhookSigning } = portal;
  const keyOr404 = (accessKey: string) => {
    const found = accessKeys.get(accessKey);
    if (!found) throw notFound(`Access key ${accessKey} not found`);
    return found;
  };
  const signingView = () => ({ signingKeySet: webhookSigning.get() !== undefined });

  return new Hono()
    .get('/access-keys', (c) => c.json({ statusCode: 'Done', data: accessKeys.list() }))
    .post('/access-keys', async (c) => {
      const body = await readBody(c, newKey);
      const created = accessKeys.create({ ...body, expiresAt: expiryOf(body.expiresAt) ?? null });
      if (!created)
        throw new EmulatorError(409, {
          name: 'OperationError',
          message: `Access key ${body.accessKey} exists already`,
          code: 'OperationError',
          details: { reason: 'AccessKeyExists' },
        });
      return c.json({ statusCode: 'Done', data: created }, 201);
    })
    .get('/access-keys/:accessKey', (c) => c.json({ statusCode: 'Done', data: keyOr404(c.req.param('accessKey')) }))
    .put('/access-keys/:accessKey', async (c) => {
      keyOr404(c.req.param('accessKey'));
      const body = await readBody(c, change);
      const updated = accessKeys.update(c.req.param('accessKey'), { status: body.status, expiresAt: expiryOf(body.expiresAt) });
      return c.json({ statusCode: 'Done', data: updated });
    })
    .delete('/access-keys/:accessKey', (c) => {
      const found = keyOr404(c.req.param('accessKey'));
      if (found.configured)
        throw new EmulatorError(409, {
          name: 'OperationError',
          message: 'The configured key pair cannot be deleted; set it Expired instead',
          code: 'OperationError',
          details: { reason: 'AccessKeyConfigured' },
        });
      accessKeys.remove(found.accessKey);
      return c.json({ statusCode: 'Done', data: { accessKey: found.accessKey, deleted: true } });
    })
    .get('/webhook-signing-key', (c) => c.json({ statusCode: 'Done', data: signingView() }))
    .put('/webhook-signing-key', async (c) => {
      webhookSigning.set((await readBody(c, signing)).key);
      return c.json({ statusCode: 'Done', data: signingView() });
    })
    .delete('/webhook-signing-key', (c) => {
      webhookSigning.off();
      return c.json({ statusCode: 'Done', data: signingView() });
    })
    .all('/access-keys', methodNotAllowed)
    .all('/access-keys/:accessKey', methodNotAllowed)
    .all('/webhook-signing-key', methodNotAllowed);
}
