/**
 * Invoice documents of payment requests: `POST /documents` hands out a single-use upload address (see uploads.ts),
 * `GET /documents` lists a request's documents, `DELETE /documents/:documentId` removes one with its file.
 */
import { randomBytes } from 'node:crypto';
import { Hono } from 'hono';
import { documentUploadRequest, listDocumentsQuery } from '../../../provider/schemas';
import type { SandboxContext } from '../../context';
import { UPLOAD_TTL_SECONDS } from '../../defaults';
import { methodNotAllowed, notFound, operationError } from '../../errors';
import { newId } from '../../records';
import { formatError, readBody, validate } from '../../request';

/** The document list has no paging parameters; the spec's sample answers 50 and 0. */
const PAGE = { limit: 50, offset: 0 } as const;

/** A file name as a browser sends it: no folders, no control characters. */
// eslint-disable-next-line no-control-regex -- refusing control characters is the point of this pattern.
const FILE_NAME = /^[^/\\\x00-\x1f\x7f]{1,255}$/;

export function documentRoutes(ctx: SandboxContext) {
  const { documents, store } = ctx.company;
  return new Hono()
    .post('/', async (c) => {
      const body = await readBody(c, documentUploadRequest);
      if (!FILE_NAME.test(body.fileName)) throw formatError('/fileName', 'must be a file name of at most 255 characters without folders');
      if (!store.request(body.owner))
        throw operationError('PaymentRequestNotFound', `Payment request ${body.owner} not found`, { owner: body.owner });
      const now = ctx.clock.now();
      // 32 random bytes: the address is the only credential of the upload, so it must not be guessable.
      const token = randomBytes(32).toString('base64url');
      documents.insert({
        id: newId(),
        owner: body.owner,
        ownerType: body.ownerType,
        type: body.type,
        name: body.properties.name,
        fileName: body.fileName,
        createdAt: now.toISOString(),
        token,
        expiresAt: new Date(now.getTime() + UPLOAD_TTL_SECONDS * 1000).toISOString(),
      });
      return c.json({ statusCode: 'Done', data: ctx.company.uploadAddress(token) }, 201);
    })
    .get('/', (c) => {
      const query = validate(listDocumentsQuery, c.req.query());
      const items = documents.list(query.owner, query.ownerType, query.type, ctx.clock.now());
      return c.json({ statusCode: 'Done', data: { ...PAGE, total: items.length, items } });
    })
    .delete('/:documentId', (c) => {
      const id = c.req.param('documentId');
      if (!documents.remove(id)) throw notFound(`Document ${id} not found`);
      return c.json({ statusCode: 'Done' });
    })
    .all('/', methodNotAllowed)
    .all('/:documentId', methodNotAllowed);
}
