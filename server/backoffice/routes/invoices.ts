/**
 * The invoices of payment requests, for the back office: `PUT /payment-requests/:id/invoice` streams a PDF straight
 * through to the provider's upload address (the server never holds the file), `GET /payment-requests/:id/documents`
 * lists them, `DELETE /documents/:id` removes one. An invoice is what the provider's reviewer pays a request against,
 * so its upload and deletion are audited with the request's movements (`payment_request.invoice_upload`,
 * `payment_request.invoice_delete`: done, refused or failed). The upload is the one body that is neither JSON nor
 * small: `invoiceUploadRoutes` is mounted ahead of the back office's JSON body guards, which never see it.
 */
import { Hono, type Context, type MiddlewareHandler } from 'hono';
import { ProviderNetworkError, type ProviderClient } from '../../provider';
import { fileTooLarge, invalidFileName, lengthRequired, pdfRequired, requestTimeout } from '../../payments/errors';
import { withIdleDeadline } from '../../lib/node-body';
import type { BackOfficeEnv } from '../actor';
import { auditedMovement } from '../movement-audit';
import { backOfficeError, callProvider } from '../provider-call';
import type { DocumentView, ProviderPage } from '../../../core/backoffice';

/** Largest invoice the BFF streams to the provider. */
export const MAX_INVOICE_BYTES = 10 * 1024 * 1024;

/** The uploaded file's name as the client percent-encoded it, or a 400 when that encoding is broken. */
function invoiceFileName(header: string | undefined): string {
  let name: string;
  try {
    name = decodeURIComponent(header ?? 'invoice.pdf');
  } catch {
    throw invalidFileName();
  }
  return name.replace(/[^\w.\- ]/g, '_').slice(0, 120) || 'invoice.pdf';
}

/**
 * The client's body as the upload reads it, and whether the upload, when it failed, was waiting for the client's
 * bytes (a read still pending, the client's side broken or silent too long) rather than for the provider to take them.
 */
function watchedBody(body: ReadableStream<Uint8Array>) {
  const reader = body.getReader();
  let waiting = false;
  let stalled = false;
  let cancelled = false;
  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      waiting = true;
      try {
        const chunk = await reader.read();
        if (cancelled) return;
        if (chunk.done) controller.close();
        else controller.enqueue(chunk.value);
      } catch (error) {
        stalled = true;
        if (!cancelled) controller.error(error);
      } finally {
        waiting = false;
      }
    },
    cancel(reason) {
      cancelled = true;
      if (waiting) stalled = true;
      return reader.cancel(reason);
    },
  });
  return { stream, clientStalled: () => waiting || stalled };
}

export interface InvoiceUploadOptions {
  provider: ProviderClient;
  signedIn: MiddlewareHandler<BackOfficeEnv>;
  allowed: MiddlewareHandler<BackOfficeEnv>;
  /** Longest silence between two chunks of the file before the upload fails with 408 (the body's deadline). */
  idleMs: number;
}

/**
 * `PUT /payment-requests/:id/invoice`, behind `signedIn` (who is calling) and `allowed` (whether their role may): it
 * answers before any middleware registered after it, so the JSON body guards that follow never run for the upload.
 */
export function invoiceUploadRoutes({ provider, signedIn, allowed, idleMs }: InvoiceUploadOptions) {
  /** Checks the upload's headers and streams its body to the provider; the provider's document, if it answered one. */
  async function upload(c: Context<BackOfficeEnv>, id: string, size: number): Promise<unknown> {
    if (!Number.isSafeInteger(size) || size <= 0) throw lengthRequired();
    if (size > MAX_INVOICE_BYTES) throw fileTooLarge(MAX_INVOICE_BYTES);
    const contentType = c.req.header('content-type') ?? 'application/octet-stream';
    if (contentType !== 'application/pdf') throw pdfRequired();
    const fileName = invoiceFileName(c.req.header('x-file-name'));
    const address = await callProvider(
      provider.documents.createUploadAddress({
        properties: { name: fileName },
        ownerType: 'Transaction',
        owner: id,
        type: 'Invoice',
        fileName,
      }),
    );
    // The browser's bytes go straight through to the provider's address; the BFF never buffers the file. A sender
    // that stops sending fails the upload after `idleMs` of silence, not at Node's request timeout.
    const body = watchedBody(withIdleDeadline(c.req.raw.body!, idleMs, requestTimeout));
    let document: unknown;
    try {
      document = await provider.documents.upload(address, body.stream, { contentType, size });
    } catch (error) {
      // An answer of the provider is its own; a broken or timed-out upload is the client's when the file had stopped
      // coming (the provider's upload window closed, or Node's request timeout ended the socket): a 408, and the rest
      // of the body is not waited for.
      if (!(error instanceof ProviderNetworkError) || !body.clientStalled()) throw backOfficeError(error);
      c.header('connection', 'close');
      throw requestTimeout();
    }
    return document;
  }

  return new Hono<BackOfficeEnv>().put('/payment-requests/:id/invoice', signedIn, allowed, async (c) => {
    const id = c.req.param('id');
    const size = Number(c.req.header('content-length'));
    const details = { requestId: id, size: Number.isFinite(size) ? size : null };
    const document = await auditedMovement(
      c,
      { action: 'payment_request.invoice_upload', target: id, details },
      () => upload(c, id, size),
      () => ({ outcome: 'ok' }),
    );
    return c.json({ statusCode: 'Done', data: document ?? null }, 201);
  });
}

/** The invoices of a payment request, and the removal of one. */
export function invoiceRoutes({ provider }: { provider: ProviderClient }) {
  return new Hono<BackOfficeEnv>()
    .get('/payment-requests/:id/documents', async (c) =>
      c.json(
        (await callProvider(
          provider.documents.list({ type: 'Invoice', ownerType: 'Transaction', owner: c.req.param('id') }),
        )) satisfies ProviderPage<DocumentView>,
      ),
    )
    .delete('/documents/:id', async (c) => {
      const id = c.req.param('id');
      await auditedMovement(
        c,
        { action: 'payment_request.invoice_delete', target: id, details: { documentId: id } },
        () => callProvider(provider.documents.delete(id)),
        () => ({ outcome: 'ok' }),
      );
      return c.json({ statusCode: 'Done' });
    });
}
