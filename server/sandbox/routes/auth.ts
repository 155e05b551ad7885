/** `POST /login`: the key pair in, a bare JWT out (the one operation without the envelope). */
import { Hono } from 'hono';
import { loginRequest } from '../../provider/schemas';
import type { SandboxContext } from '../context';
import { EmulatorError, methodNotAllowed } from '../errors';
import { readBody } from '../request';

const MESSAGES = {
  invalid: 'The access key is invalid, pending or expired',
  pending: 'The access key is pending approval',
  expired: 'The access key has expired',
} as const;

export function authRoutes(ctx: SandboxContext) {
  return new Hono()
    .post('/login', async (c) => {
      const { accessKey, secret } = await readBody(c, loginRequest);
      const check = ctx.tokens.accepts(accessKey, secret);
      // One refusal for all three, as the contract says; only a caller holding the right secret learns which it is.
      if (check !== 'ok')
        throw new EmulatorError(401, {
          name: 'AuthenticationError',
          message: MESSAGES[check],
          code: 'AuthenticationError',
          details: { reason: 'AccessKeyUnauthorized' },
        });
      return c.text(ctx.tokens.issue(accessKey), 201);
    })
    .all('/login', methodNotAllowed);
}
