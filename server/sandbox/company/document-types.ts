/**
 * The invoice files the sandbox keeps: PDF, PNG, JPEG and WebP. An upload must declare one of them and its bytes must
 * start the way that type does; a download is always an attachment the browser neither sniffs nor runs.
 */
import { wellFormed } from '../../lib/json-safety';

/** Allowed media types and the first bytes that make a file one of them. */
const SIGNATURES: Record<string, (bytes: Uint8Array) => boolean> = {
  'application/pdf': (b) => startsWith(b, [0x25, 0x50, 0x44, 0x46, 0x2d]), // %PDF-
  'image/png': (b) => startsWith(b, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  'image/jpeg': (b) => startsWith(b, [0xff, 0xd8, 0xff]),
  // RIFF <4-byte size> WEBP
  'image/webp': (b) => startsWith(b, [0x52, 0x49, 0x46, 0x46]) && startsWith(b.subarray(8), [0x57, 0x45, 0x42, 0x50]),
};

export const DOCUMENT_TYPES = Object.keys(SIGNATURES);

function startsWith(bytes: Uint8Array, prefix: readonly number[]): boolean {
  return bytes.length >= prefix.length && prefix.every((byte, i) => bytes[i] === byte);
}

/** The declared media type in lower case without parameters (`application/pdf; charset=x` → `application/pdf`). */
export function mediaType(header: string | undefined): string {
  return (header ?? '').split(';')[0]!.trim().toLowerCase();
}

export const isDocumentType = (type: string) => Object.hasOwn(SIGNATURES, type);

/** True when the bytes start as the (allowed) declared type says. */
export const bytesMatch = (type: string, bytes: Uint8Array) => isDocumentType(type) && SIGNATURES[type]!(bytes);

/** A `content-disposition: attachment` value whose plain `filename` is ASCII-only and `filename*` keeps the real name. */
export function attachment(fileName: string): string {
  const plain = fileName.replace(/[^\w.\- ]/g, '_').slice(0, 120) || 'document';
  const encoded = encodeURIComponent(wellFormed(fileName)).replace(/['()*]/g, (ch) => `%${ch.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${plain}"; filename*=UTF-8''${encoded}`;
}

/** Headers of every document download: a file to save, never a page to render or a script to run. */
export function downloadHeaders(contentType: string, fileName: string): Record<string, string> {
  return {
    // Rows stored before the type rules came in may hold anything; those are served as opaque bytes.
    'content-type': isDocumentType(contentType) ? contentType : 'application/octet-stream',
    'content-disposition': attachment(fileName),
    'x-content-type-options': 'nosniff',
    'content-security-policy': "default-src 'none'; sandbox",
    'cross-origin-resource-policy': 'same-origin',
  };
}
