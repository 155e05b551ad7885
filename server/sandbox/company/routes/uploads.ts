/**
 * The pre-signed upload address handed out by `POST /documents`: one `PUT` of the raw file bytes, within
 * UPLOAD_TTL_SECONDS of the emulator clock and at most MAX_UPLOAD_BYTES. Outside the partner API (the address is
 * the credential, no token) and mounted before the sandbox's 64 KiB JSON body limit. Only a PDF, PNG, JPEG or WebP
 * is kept, by its declared content type and by its first bytes; a refused file leaves the address unused.
 */
import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { SandboxContext } from '../../context';
import { MAX_UPLOAD_BYTES } from '../../defaults';
import { withIdleDeadline } from '../../../lib/node-body';
import { EmulatorError, invalidRequest, methodNotAllowed, notFound } from '../../errors';
import { bytesMatch, DOCUMENT_TYPES, isDocumentType, mediaType } from '../document-types';

const uploadError = (status: 408 | 409 | 410 | 413 | 415, name: string, reason: string, message: string, extra: object = {}) =>
  new EmulatorError(status, { name, message, code: name, details: { reason, ...extra } });

const ALLOWED = DOCUMENT_TYPES.join(', ');

/**
 * With `idleMs`, a sender that stops sending (a `Content-Length` larger than what it sends) gets 408 after that much
 * silence, and the connection is closed: the address stays unused.
 */
export function uploadRoutes(ctx: SandboxContext, { idleMs }: { idleMs?: number } = {}) {
  const { documents } = ctx.company;
  return new Hono()
    .put(
      '/:token',
      // Checked before the body is read, so a refused upload does not have to be received first.
      (c, next) => {
        const row = documents.byToken(c.req.param('token'));
        if (!row) throw notFound('No upload at this address');
        if (row.uploaded_at) throw uploadError(409, 'OperationError', 'UploadAddressUsed', 'This address already received its file');
        if (row.expires_at <= ctx.clock.now().toISOString())
          throw uploadError(410, 'OperationError', 'UploadAddressExpired', 'This upload address has expired; request a new one');
        if (!isDocumentType(mediaType(c.req.header('content-type'))))
          throw uploadError(415, 'UnsupportedMediaTypeError', 'DocumentTypeNotAllowed', `Send the file as one of ${ALLOWED}`, {
            allowedTypes: DOCUMENT_TYPES,
          });
        if (idleMs !== undefined && c.req.raw.body) {
          const body = withIdleDeadline(c.req.raw.body, idleMs, () => {
            c.header('connection', 'close');
            return uploadError(408, 'RequestTimeoutError', 'BodyTimeout', 'The file did not arrive in time');
          });
          c.req.raw = new Request(c.req.raw, { body, duplex: 'half' } as RequestInit);
        }
        return next();
      },
      bodyLimit({
        maxSize: MAX_UPLOAD_BYTES,
        onError: () => {
          throw uploadError(413, 'PayloadTooLargeError', 'PayloadTooLarge', `The file is larger than ${MAX_UPLOAD_BYTES} bytes`);
        },
      }),
      async (c) => {
        const token = c.req.param('token');
        const content = Buffer.from(await c.req.arrayBuffer());
        if (content.length === 0)
          throw invalidRequest([{ path: '', code: 'minLength', message: 'the file is empty', info: { limit: 1 } }], 'The file is empty');
        const contentType = mediaType(c.req.header('content-type'));
        if (!bytesMatch(contentType, content))
          throw uploadError(415, 'UnsupportedMediaTypeError', 'DocumentContentMismatch', `The file is not a valid ${contentType}`, {
            contentType,
          });
        const now = ctx.clock.now();
        if (!documents.upload(token, now.toISOString(), contentType, content))
          throw uploadError(409, 'OperationError', 'UploadAddressUsed', 'This address already received its file');
        return c.json({ statusCode: 'Done', data: documents.itemOf(documents.byToken(token)!, now) });
      },
    )
    .all('/:token', methodNotAllowed);
}
