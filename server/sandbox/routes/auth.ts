/** `POST /login`: the key pair in, a bare JWT out (the one operation without the envelope). */
import { Hono } from 'hono';
import { loginRequest } from '../../provider/schemas';
import type { SandboxContext } from '../context';
import { EmulatorError, methodNotAllowed } from '../errors';
import { readBody } from '../request';

export function authRoutes(ctx: SandboxContext) {
  return new Hono()
    .post('/login', async (c) => {
      const { accessKey, secret } = await readBody(c, loginRequest);
      if (!ctx.tokens.accepts(accessKey, secret))
        throw new EmulatorError(401, {
          name: 'AuthenticationError',
          message: 'The access key is invalid, pending or expired',
          code: 'AuthenticationError',
          details: { reason: 'AccessKeyUnauthorized' },
        });
      return c.text(ctx.tokens.issue(accessKey), 201);
    })
    .all('/login', methodNotAllowed);
}
