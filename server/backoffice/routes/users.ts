/**
 * The console's users, `/users` (owners only: `roleFor` in ./actor.ts): list them, add one (`{ email, role,
 * password }`), change one (`PATCH /users/:id` `{ role?, disabled? }`). Disabling a user ends its sessions and its
 * live streams at once; a change that would leave no enabled owner is refused (`last_owner`). Every change, and every
 * refused one, is recorded in the audit trail. The logic is server/accounts/users.ts's, shared with `npm run admin`.
 */
import { Hono } from 'hono';
import { z } from 'zod';
import type { Clock } from '../../lib/clock';
import { USER_ROLES, type AccountStore } from '../../store/accounts';
import { parseJson } from '../../http/json-body';
import { userNotFound } from '../../accounts/errors';
import { addUser, changeUser, listUsers, PasswordSchema } from '../../accounts/users';
import type { BackOfficeEnv } from '../actor';
import type { BackOfficeStreams } from '../stream';
import type { AdminUser, NewUserInput, UserChange } from '../../../core/backoffice';
import { taking } from '../wire-check';

/** What a user id looks like (`usr_` and base64url); anything else is a 404 without a query. */
const USER_ID = /^usr_[A-Za-z0-9_-]{1,64}$/;

const newUserBody = taking<NewUserInput>()(z.object({ email: z.string().max(320), role: z.enum(USER_ROLES), password: PasswordSchema }));
const changeBody = taking<UserChange>()(
  z
    .object({ role: z.enum(USER_ROLES).optional(), disabled: z.boolean().optional() })
    .strict()
    .refine((body) => body.role !== undefined || body.disabled !== undefined, 'Send role, disabled or both'),
);

export function userRoutes({ store, clock, streams }: { store: AccountStore; clock: Clock; streams: BackOfficeStreams }) {
  return new Hono<BackOfficeEnv>()
    .get('/users', async (c) => c.json({ data: await listUsers(store) } satisfies { data: AdminUser[] }))
    .post('/users', async (c) => {
      const body = await parseJson(c, newUserBody);
      return c.json(await addUser({ store, clock }, body, c.get('audit')), 201);
    })
    .patch('/users/:id', async (c) => {
      const id = c.req.param('id');
      if (!USER_ID.test(id)) throw userNotFound();
      const body = await parseJson(c, changeBody);
      const change = { ...(body.role ? { role: body.role } : {}), ...(body.disabled !== undefined ? { disabled: body.disabled } : {}) };
      const changed = await changeUser({ store, clock }, id, change, c.get('audit'));
      if (changed.disabled) streams.end({ userId: id });
      return c.json(changed);
    });
}
