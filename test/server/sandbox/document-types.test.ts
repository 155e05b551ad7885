/** Invoice uploads keep only PDF, PNG, JPEG and WebP (declared type and first bytes); downloads are inert attachments. */
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { errorEnvelope } from '../../../server/provider/schemas';
import { createSandbox, type Sandbox } from '../../../server/sandbox';
import { admin, companySandbox, createRequest, documentBody, upload } from './company-helpers';
import { ADMIN_KEY, BASE, client, tempDir, type Api } from './helpers';

let sandbox: Sandbox | undefined;
let api: Api;
afterEach(() => {
  sandbox?.close();
  sandbox = undefined;
});

const bytes = (...parts: (number[] | string)[]) =>
  new Uint8Array(parts.flatMap((part) => (typeof part === 'string' ? [...new TextEncoder().encode(part)] : part)));

const FILES = {
  pdf: bytes('%PDF-1.7\n%\u00e2\u00e3\n1 0 obj<<>>endobj\n%%EOF\n'),
  png: bytes([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13], 'IHDR'),
  jpeg: bytes([0xff, 0xd8, 0xff, 0xe0, 0, 16], 'JFIF'),
  webp: bytes('RIFF', [36, 0, 0, 0], 'WEBPVP8 '),
  html: bytes('<!doctype html><script>alert(document.domain)</script>'),
  svg: bytes('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>'),
  pdfAfterHtml: bytes('<html>%PDF-1.4</html>'),
  riffNotWebp: bytes('RIFF', [36, 0, 0, 0], 'WAVEfmt '),
  shortJpeg: bytes([0xff, 0xd8]),
};

async function uploadAddress(): Promise<string> {
  const reply = await api('POST', '/documents', documentBody(await createRequest(api)));
  expect(reply.status).toBe(201);
  return reply.body.data as string;
}

async function fresh() {
  ({ sandbox, api } = await companySandbox());
  return sandbox;
}

describe('upload types', () => {
  it.each([
    ['a PDF', FILES.pdf, 'application/pdf'],
    ['a PNG', FILES.png, 'image/png'],
    ['a JPEG', FILES.jpeg, 'image/jpeg'],
    ['a WebP', FILES.webp, 'image/webp'],
    ['a PDF with a parameter and odd case', FILES.pdf, 'Application/PDF; name=nf.pdf'],
  ])('keeps %s', async (_name, file, contentType) => {
    const s = await fresh();
    const reply = await upload(s, await uploadAddress(), file, contentType);
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body.data).toMatchObject({ status: 'Uploaded', size: file.length, contentType: contentType.split(';')[0]!.toLowerCase() });
  });

  it.each([
    ['an HTML page', FILES.html, 'text/html', 'DocumentTypeNotAllowed'],
    ['HTML with a charset', FILES.html, 'text/html; charset=utf-8', 'DocumentTypeNotAllowed'],
    ['an SVG', FILES.svg, 'image/svg+xml', 'DocumentTypeNotAllowed'],
    ['XHTML', FILES.html, 'application/xhtml+xml', 'DocumentTypeNotAllowed'],
    ['plain text', FILES.pdf, 'text/plain', 'DocumentTypeNotAllowed'],
    ['opaque bytes', FILES.pdf, 'application/octet-stream', 'DocumentTypeNotAllowed'],
    ['no content type', FILES.pdf, '', 'DocumentTypeNotAllowed'],
    ['HTML declared as a PDF', FILES.html, 'application/pdf', 'DocumentContentMismatch'],
    ['HTML declared as a PNG', FILES.html, 'image/png', 'DocumentContentMismatch'],
    ['an SVG declared as a JPEG', FILES.svg, 'image/jpeg', 'DocumentContentMismatch'],
    ['a PDF marker after HTML', FILES.pdfAfterHtml, 'application/pdf', 'DocumentContentMismatch'],
    ['a PNG declared as a PDF', FILES.png, 'application/pdf', 'DocumentContentMismatch'],
    ['a RIFF that is no WebP', FILES.riffNotWebp, 'image/webp', 'DocumentContentMismatch'],
    ['a truncated JPEG marker', FILES.shortJpeg, 'image/jpeg', 'DocumentContentMismatch'],
  ])('refuses %s with 415 and leaves the address unused', async (_name, file, contentType, reason) => {
    const s = await fresh();
    const to = await uploadAddress();
    const path = new URL(to).pathname.replace(/^\/sandbox/, '');
    const response = await s.app.request(path, {
      method: 'PUT',
      body: file,
      headers: contentType ? { 'content-type': contentType } : {},
    });
    expect(response.status).toBe(415);
    const envelope = errorEnvelope.parse(await response.json());
    expect(envelope.error).toMatchObject({ name: 'UnsupportedMediaTypeError', details: { reason } });
    expect((await upload(s, to, FILES.pdf)).status).toBe(200);
  });

  it('names the allowed types in the refusal', async () => {
    const s = await fresh();
    const reply = await upload(s, await uploadAddress(), FILES.html, 'text/html');
    expect(reply.body.error.details.allowedTypes).toEqual(['application/pdf', 'image/png', 'image/jpeg', 'image/webp']);
  });
});

describe('downloads', () => {
  const EXPECTED_CSP = "default-src 'none'; sandbox";

  it.each([
    ['nf-123.pdf', 'attachment; filename="nf-123.pdf"; filename*=UTF-8\'\'nf-123.pdf'],
    ['nota "fiscal" ç.pdf', 'attachment; filename="nota _fiscal_ _.pdf"; filename*=UTF-8\'\'nota%20%22fiscal%22%20%C3%A7.pdf'],
    ["a'b(c)*.png", 'attachment; filename="a_b_c__.png"; filename*=UTF-8\'\'a%27b%28c%29%2A.png'],
  ])('serve %s as an attachment the browser does not sniff or run', async (fileName, disposition) => {
    const s = await fresh();
    const owner = await createRequest(api);
    const to = (await api('POST', '/documents', documentBody(owner, { fileName }))).body.data as string;
    const stored = await upload(s, to, FILES.png, 'image/png');
    const content = await admin(s, 'GET', `/documents/${stored.body.data.id}/content`);
    expect(content.status).toBe(200);
    expect(content.headers.get('content-type')).toBe('image/png');
    expect(content.headers.get('content-disposition')).toBe(disposition);
    expect(content.headers.get('x-content-type-options')).toBe('nosniff');
    expect(content.headers.get('content-security-policy')).toBe(EXPECTED_CSP);
    expect(content.headers.get('cache-control')).toBe('no-store');
  });

  it('serves a file stored before the type rules as opaque bytes', async () => {
    const dataDir = tempDir();
    const open = () => createSandbox({ dataDir, publicBaseUrl: BASE, adminKey: ADMIN_KEY, webhookRetry: { delaysMs: [] } });
    sandbox = open();
    api = await client(sandbox);
    const stored = await upload(sandbox, await uploadAddress(), FILES.pdf);
    sandbox.close();
    // What an older emulator let in: an HTML page kept with its declared type.
    const db = new Database(join(dataDir, 'sandbox.sqlite'));
    db.prepare('UPDATE documents SET content = ?, content_type = ? WHERE id = ?').run(
      Buffer.from(FILES.html),
      'text/html',
      stored.body.data.id,
    );
    db.close();
    sandbox = open();
    const content = await admin(sandbox, 'GET', `/documents/${stored.body.data.id}/content`);
    expect(content.headers.get('content-type')).toBe('application/octet-stream');
    expect(content.headers.get('content-disposition')).toMatch(/^attachment;/);
    expect(content.headers.get('content-security-policy')).toBe(EXPECTED_CSP);
  });
});
