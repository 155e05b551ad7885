/**
 * The back office's named API keys, `/api-keys` (owners only: `roleFor` in ../actor.ts): list them (never a key nor its
 * hash), create one (`{ name, role, expiresAt? }` → `{ id, key, apiKey }`, the key shown this once), revoke one
 * (`DELETE /api-keys/:id`, at once on every instance). A key cannot be made with a role above its creator's. Every
 * creation and revocation, and every refused one, is recorded in the audit trail. The logic is
 * server/accounts/api-keys.ts's, shared with `npm run admin`.
 */
import { Hono } from 'hono';
import { z } from 'zod';
import type { ApiKey, NewApiKeyInput } from '../../../core/backoffice';
import type { Clock } from '../../lib/clock';
import { parseJson } from '../../http/json-body';
import { createApiKey, listApiKeys, revokeApiKey } from '../../accounts/api-keys';
import { USER_ROLES } from '../../store/accounts';
import type { ApiKeyStore } from '../../store/api-keys';
import type { BackOfficeEnv } from '../actor';
import { taking } from '../wire-check';

const newKeyBody = taking<NewApiKeyInput>()(
  z.object({ name: z.string().max(64), role: z.enum(USER_ROLES), expiresAt: z.string().max(64).optional() }).strict(),
);

export function apiKeyRoutes({ store, clock }: { store: ApiKeyStore; clock: Clock }) {
  return new Hono<BackOfficeEnv>()
    .get('/api-keys', async (c) => c.json({ data: await listApiKeys(store) } satisfies { data: ApiKey[] }))
    .post('/api-keys', async (c) => {
      const body = await parseJson(c, newKeyBody);
      const { name, role } = c.get('actor');
      const input = { name: body.name, role: body.role, ...(body.expiresAt !== undefined ? { expiresAt: body.expiresAt } : {}) };
      return c.json(await createApiKey({ store, clock }, input, { name, role }, c.get('audit')), 201);
    })
    .delete('/api-keys/:id', async (c) => c.json(await revokeApiKey({ store, clock }, c.req.param('id'), c.get('audit'))));
}
