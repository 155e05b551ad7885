import { afterEach, describe, expect, it } from 'vitest';
import type { ManualClock } from '../../../server/lib/clock';
import { documentPage, type DocumentUploadRequest } from '../../../server/provider/schemas';
import type { Sandbox } from '../../../server/sandbox';
import { MAX_UPLOAD_BYTES } from '../../../server/sandbox/defaults';
import { startSandbox } from '../helpers/sandbox';
import { admin, companySandbox, createRequest, documentBody, upload } from './company-helpers';
import type { Api } from './helpers';

let sandbox: Sandbox;
let api: Api;
let clock: ManualClock;
const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  sandbox?.close();
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

async function start() {
  ({ sandbox, api, clock } = await companySandbox());
}

const PDF = '%PDF-1.4\n% nota fiscal\n';

async function address(owner: string, extra: object = {}): Promise<string> {
  const reply = await api('POST', '/documents', documentBody(owner, extra));
  expect(reply.status).toBe(201);
  return reply.body.data;
}

const listDocuments = (owner: string) => api('GET', `/documents?type=Invoice&ownerType=Transaction&owner=${owner}`);

describe('POST /documents', () => {
  it('answers an absolute, unguessable upload address outside the partner API', async () => {
    await start();
    const owner = await createRequest(api);
    const reply = await api('POST', '/documents', documentBody(owner));
    expect(reply.body).toEqual({
      statusCode: 'Done',
      data: expect.stringMatching(/^http:\/\/127\.0\.0\.1:3000\/sandbox\/v1\/uploads\/[\w-]{43}$/),
    });
    expect(await address(owner)).not.toBe(reply.body.data);
  });

  it('validates the body: required fields, Transaction owner type, Invoice type, a plain file name', async () => {
    await start();
    const owner = await createRequest(api);
    const missing = await api('POST', '/documents', {});
    expect(missing.status).toBe(400);
    expect(missing.body.error.details.map((d: { info: { missingProperty: string } }) => d.info.missingProperty)).toEqual([
      'properties',
      'ownerType',
      'owner',
      'type',
      'fileName',
    ]);
    expect((await api('POST', '/documents', documentBody(owner, { properties: {} }))).body.error.details[0]).toMatchObject({
      path: '/properties',
      code: 'required',
    });
    expect((await api('POST', '/documents', documentBody(owner, { ownerType: 'Receiver' }))).body.error.details[0]).toMatchObject({
      path: '/ownerType',
      code: 'enum',
      info: { allowedValues: ['Transaction'] },
    });
    expect((await api('POST', '/documents', documentBody(owner, { type: 'Receipt' }))).body.error.details[0]).toMatchObject({
      path: '/type',
      code: 'enum',
    });
    expect((await api('POST', '/documents', documentBody(owner, { fileName: '../etc/passwd' }))).body.error.details[0]).toMatchObject({
      path: '/fileName',
      code: 'format',
    });
  });

  it('refuses an owner that is not a payment request with 409', async () => {
    await start();
    const reply = await api('POST', '/documents', documentBody('nope'));
    expect(reply.status).toBe(409);
    expect(reply.body.error.details).toEqual({ reason: 'PaymentRequestNotFound', owner: 'nope' });
  });
});

describe('PUT <upload address>', () => {
  it('stores the bytes once and refuses a second upload with 409', async () => {
    await start();
    const owner = await createRequest(api);
    const to = await address(owner);
    const first = await upload(sandbox, to, PDF);
    expect(first.status).toBe(200);
    expect(first.body).toEqual({
      statusCode: 'Done',
      data: {
        id: expect.any(String),
        name: 'Nota fiscal 123',
        fileName: 'nf-123.pdf',
        type: 'Invoice',
        ownerType: 'Transaction',
        owner,
        status: 'Uploaded',
        size: PDF.length,
        contentType: 'application/pdf',
        creationDate: '2026-01-15T12:00:00.000Z',
        uploadDate: '2026-01-15T12:00:00.000Z',
      },
    });
    const second = await upload(sandbox, to, 'other');
    expect(second.status).toBe(409);
    expect(second.body.error.details.reason).toBe('UploadAddressUsed');
    const content = await admin(sandbox, 'GET', `/documents/${first.body.data.id}/content`);
    expect(content.text).toBe(PDF);
    expect(content.headers.get('content-type')).toBe('application/pdf');
  });

  it('refuses an expired address with 410 (emulator clock, 300 s)', async () => {
    await start();
    const owner = await createRequest(api);
    const to = await address(owner);
    clock.advance(299_999);
    const early = await address(owner);
    expect((await upload(sandbox, early, PDF)).status).toBe(200);
    clock.advance(1);
    const late = await upload(sandbox, to, PDF);
    expect(late.status).toBe(410);
    expect(late.body.error.details.reason).toBe('UploadAddressExpired');
    expect((await listDocuments(owner)).body.data.items.map((d: { status: string }) => d.status)).toEqual(['Expired', 'Uploaded']);
  });

  it('takes files beyond the 64 KiB JSON limit and refuses more than 10 MiB with 413', async () => {
    await start();
    const owner = await createRequest(api);
    const bytes = new Uint8Array(MAX_UPLOAD_BYTES);
    bytes.set(new TextEncoder().encode(PDF));
    const big = await upload(sandbox, await address(owner), bytes);
    expect(big.status).toBe(200);
    expect(big.body.data.size).toBe(MAX_UPLOAD_BYTES);
    const to = await address(owner);
    const tooBig = await upload(sandbox, to, new Uint8Array(MAX_UPLOAD_BYTES + 1));
    expect(tooBig.status).toBe(413);
    expect(tooBig.body.error.name).toBe('PayloadTooLargeError');
    expect((await upload(sandbox, to, PDF)).status).toBe(200);
  });

  it('refuses an empty file, an unknown address and other methods', async () => {
    await start();
    const to = await address(await createRequest(api));
    expect((await upload(sandbox, to, '')).status).toBe(400);
    expect((await upload(sandbox, to.replace(/[\w-]{43}$/, 'x'.repeat(43)), PDF)).status).toBe(404);
    const path = new URL(to).pathname.replace(/^\/sandbox/, '');
    expect((await sandbox.app.request(path, { method: 'POST', body: PDF })).status).toBe(405);
  });

  it('works with the typed client over a real socket, streaming with content-length', async () => {
    const served = await startSandbox();
    cleanups.push(served.close);
    const provider = served.client();
    const request = await provider.paymentRequests.create({
      amount: '10.00',
      description: 'NF 9',
      refReceiver: 'c0a000000000000000000001',
      refBankAccount: 'acc000000000000000000001',
    });
    const to = await provider.documents.createUploadAddress(documentBody(request.id) as DocumentUploadRequest);
    const bytes = new TextEncoder().encode(PDF);
    const stored = await provider.documents.upload(to, new Blob([bytes]).stream(), { contentType: 'application/pdf', size: bytes.length });
    expect(stored).toMatchObject({ status: 'Uploaded', size: bytes.length, owner: request.id });
    const listed = await provider.documents.list({ type: 'Invoice', ownerType: 'Transaction', owner: request.id });
    expect(listed.items.map((d) => d.id)).toEqual([stored!.id]);
    await provider.documents.delete(stored!.id);
    expect((await provider.documents.list({ type: 'Invoice', ownerType: 'Transaction', owner: request.id })).total).toBe(0);
  });
});

describe('PUT <upload address> from a sender that stops', () => {
  it('answers 408 after the body deadline of silence, closes, and leaves the address unused', async () => {
    ({ sandbox, api, clock } = await companySandbox({ bodyTimeoutMs: 200 }));
    const owner = await createRequest(api);
    const to = await address(owner);
    const path = new URL(to).pathname.replace(/^\/sandbox/, '');
    // One chunk, then nothing: the rest of the declared file never comes.
    const stalled = new ReadableStream<Uint8Array>({
      start: (controller) => controller.enqueue(new TextEncoder().encode(PDF)),
    });
    const started = Date.now();
    const response = await sandbox.app.request(path, {
      method: 'PUT',
      body: stalled,
      headers: { 'content-type': 'application/pdf' },
      duplex: 'half',
    } as RequestInit);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(response.status).toBe(408);
    expect(response.headers.get('connection')).toBe('close');
    expect(await response.json()).toMatchObject({ statusCode: 'Error', error: { code: 'RequestTimeoutError' } });
    // The address still takes its file.
    expect((await upload(sandbox, to, PDF)).status).toBe(200);
  });
});

describe('GET /documents and DELETE /documents/:documentId', () => {
  it("lists a request's documents with limit 50 and offset 0, and deletes them", async () => {
    await start();
    const owner = await createRequest(api);
    const other = await createRequest(api);
    await upload(sandbox, await address(owner), PDF);
    await address(owner, { fileName: 'nf-124.xml', properties: { name: 'XML' } });
    await address(other);
    const reply = await listDocuments(owner);
    expect(reply.status).toBe(200);
    const page = documentPage.parse(reply.body.data);
    expect(page).toMatchObject({ limit: 50, offset: 0, total: 2 });
    expect(page.items.map((d) => [d.fileName, d.status])).toEqual([
      ['nf-123.pdf', 'Uploaded'],
      ['nf-124.xml', 'AwaitingUpload'],
    ]);
    expect((await listDocuments('nope')).body.data).toEqual({ limit: 50, offset: 0, total: 0, items: [] });

    const removed = await api('DELETE', `/documents/${page.items[0]!.id}`);
    expect(removed.status).toBe(200);
    expect(removed.body).toEqual({ statusCode: 'Done' });
    expect((await listDocuments(owner)).body.data.total).toBe(1);
    expect((await api('DELETE', `/documents/${page.items[0]!.id}`)).status).toBe(404);
  });

  it('requires type, ownerType and owner', async () => {
    await start();
    const missing = await api('GET', '/documents');
    expect(missing.status).toBe(400);
    expect(
      missing.body.error.details.map((d: { code: string; info: { missingProperty: string } }) => [d.code, d.info.missingProperty]),
    ).toEqual([
      ['required', 'type'],
      ['required', 'ownerType'],
      ['required', 'owner'],
    ]);
    expect((await api('GET', '/documents?type=Receipt&ownerType=Transaction&owner=x')).body.error.details[0]).toMatchObject({
      path: '/type',
      code: 'enum',
    });
  });
});
