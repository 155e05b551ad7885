/**
 * The QR symbol the BFF sends with a PIX checkout (`qrMatrix`): it decodes, with an independent QR reader, to exactly
 * the copy-and-paste code; REST answers carry it, event-stream snapshots leave it out.
 */
import jsQR from 'jsqr';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { qrMatrixOf, type QrMatrix } from '../../../server/lib/qr/matrix';
import { openSse } from '../helpers/sse';
import { startTestServer, type TestServer } from '../helpers/server';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

/** Paints the symbol (4 pixels a module, a 4-module quiet zone) and reads it back with jsQR. */
function read(matrix: QrMatrix): string | undefined {
  const bits = Buffer.from(matrix.modules, 'base64');
  const scale = 4;
  const side = (matrix.size + 8) * scale;
  const pixels = new Uint8ClampedArray(side * side * 4).fill(255);
  for (let row = 0; row < matrix.size; row++) {
    for (let col = 0; col < matrix.size; col++) {
      const i = row * matrix.size + col;
      if (!(bits[i >> 3]! & (0x80 >> (i & 7)))) continue;
      for (let y = 0; y < scale; y++) {
        for (let x = 0; x < scale; x++) {
          const at = (((row + 4) * scale + y) * side + (col + 4) * scale + x) * 4;
          pixels[at] = pixels[at + 1] = pixels[at + 2] = 0;
        }
      }
    }
  }
  return jsQR(pixels, side, side)?.data;
}

describe('qrMatrix', () => {
  it('is sent with a new PIX checkout and reads back as exactly its code', async () => {
    const { orderId, orderToken } = await server.order();
    const res = await server.json('POST', '/api/checkouts', { orderId, orderToken, method: 'pix' });
    expect(res.status).toBe(201);
    const { qrCode, qrMatrix } = res.body as { qrCode: string; qrMatrix: QrMatrix };
    expect(qrMatrix.size).toBeGreaterThanOrEqual(21);
    expect(Buffer.from(qrMatrix.modules, 'base64').length).toBe(Math.ceil(qrMatrix.size ** 2 / 8));
    expect(read(qrMatrix)).toBe(qrCode);

    const again = await server.json('GET', `/api/checkouts/${res.body.id}`);
    expect(again.body.qrMatrix).toEqual(qrMatrix);
  });

  it('is left out of event-stream snapshots', async () => {
    const { orderId, orderToken } = await server.order();
    const res = await server.json('POST', '/api/checkouts', { orderId, orderToken, method: 'pix' });
    const sse = await openSse(`${server.url}/api/checkouts/${res.body.id}/events`);
    try {
      await sse.next();
      const snapshot = JSON.parse((await sse.next())!.data) as Record<string, unknown>;
      expect(snapshot.qrCode).toBe(res.body.qrCode);
      expect(snapshot).not.toHaveProperty('qrMatrix');
    } finally {
      sse.close();
    }
  });

  it('reads back as any text a QR can hold, accents included, and is absent for text too long', () => {
    for (const text of ['00020126580014br.gov.bcb.pix0136a', 'Pagamento para Armazém Cerrado — R$ 79,80', 'x'.repeat(1_000)]) {
      expect(read(qrMatrixOf(text)!)).toBe(text);
    }
    expect(qrMatrixOf('x'.repeat(5_000))).toBeUndefined();
  });
});
