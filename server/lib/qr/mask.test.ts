/**
 * The bit-parallel mask search (server/lib/qr/mask.ts) against qrcode's own: the same penalties, mask by mask and
 * term by term, the same mask chosen, and the same symbol sent, module for module, over texts from version 1 to 40.
 */
import { createRequire } from 'node:module';
import QRCode, { type BitMatrix, type QRCodeErrorCorrectionLevel, type QRCodeMaskPattern } from 'qrcode';
import { describe, expect, it } from 'vitest';
import { bestMask, maskPenalties, remask } from './mask';
import { qrMatrixOf } from './matrix';

/** qrcode's scoring (CommonJS, no types of its own). */
const qrcodePenalty = createRequire(import.meta.url)('qrcode/lib/core/mask-pattern.js') as Record<
  'getPenaltyN1' | 'getPenaltyN2' | 'getPenaltyN3' | 'getPenaltyN4',
  (matrix: BitMatrix) => number
>;

/** mulberry32: the same texts on every run. */
function prng(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Characters of one to four bytes in UTF-8, and a few texts that are mostly one character (long runs). */
const ALPHABETS = ['0123456789', 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ ./:-', 'áéíóúãõçÀÉ€£', '中文字符号码', '😀🎉💸🇧'];

function randomTexts(count: number, seed: number): string[] {
  const random = prng(seed);
  const texts: string[] = [];
  for (let n = 0; n < count; n++) {
    const bytes = 1 + Math.floor(random() ** 1.5 * 1200);
    const chars = [...ALPHABETS.slice(0, 1 + Math.floor(random() * ALPHABETS.length)).join('')];
    const uniform = n % 10 === 0 ? chars[0]! : '';
    let text = '';
    while (Buffer.byteLength(text) < bytes) text += uniform || chars[Math.floor(random() * chars.length)]!;
    texts.push(text);
  }
  return texts;
}

/** PIX copy-and-paste codes as a provider issues them. */
const PIX = [
  '00020101021226850014br.gov.bcb.pix2563qrcodepix.bb.com.br/pix/v2/cobv/0c5f1e4e-7b8a-4b9e-9d3c-1f2a3b4c5d6e5204000053039865406123.455802BR5925ARMAZEM CERRADO COMERCIO6008BRASILIA62070503***6304A1B2',
  '00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400005204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***63041D3D',
  '00020126330014BR.GOV.BCB.PIX011112345678901520400005303986540679.805802BR5925Armazém Cerrado — Loja 016009São Paulo62290525checkout7f3a9c2e1b4d5f6a76304C0FE',
];

const TEXTS = [...PIX, ...randomTexts(600, 0x5eed)];

function create(text: string, options: { errorCorrectionLevel?: QRCodeErrorCorrectionLevel; maskPattern?: QRCodeMaskPattern } = {}) {
  return QRCode.create([{ data: Buffer.from(text, 'utf8'), mode: 'byte' }], { errorCorrectionLevel: 'M', ...options });
}

/** qr-matrix.ts's wire form, packed here on its own (and a quick way to compare two symbols). */
function wire({ size, data }: BitMatrix): string {
  const bytes = Buffer.alloc(Math.ceil((size * size) / 8));
  for (let i = 0; i < size * size; i++) if (data[i]) bytes[i >> 3]! |= 0x80 >> (i & 7);
  return bytes.toString('base64');
}

describe('qr-mask', () => {
  it('covers small to large symbols', () => {
    const sizes = new Set(TEXTS.map((text) => create(text, { maskPattern: 0 }).modules.size));
    expect(Math.min(...sizes)).toBe(21);
    expect(Math.max(...sizes)).toBeGreaterThanOrEqual(125);
    expect(sizes.size).toBeGreaterThanOrEqual(25);
  });

  it("picks qrcode's mask and sends qrcode's symbol, module for module", () => {
    for (const text of TEXTS) {
      const expected = create(text);
      const symbol = create(text, { maskPattern: 0 });
      const mask = bestMask(symbol.modules, 0, symbol.errorCorrectionLevel.bit);
      expect(mask, text).toBe(expected.maskPattern);
      remask(symbol.modules, 0, mask, symbol.errorCorrectionLevel.bit);
      expect(wire(symbol.modules), text).toBe(wire(expected.modules));
      expect(qrMatrixOf(text), text).toEqual({ size: expected.modules.size, modules: wire(expected.modules) });
    }
  });

  it("scores each mask as qrcode's getPenaltyN1..N4 do, from a symbol built with any mask, at any level", () => {
    const random = prng(7);
    const levels: QRCodeErrorCorrectionLevel[] = ['L', 'M', 'Q', 'H'];
    const seen = new Set<string>();
    for (const [n, text] of TEXTS.slice(0, 150).entries()) {
      const errorCorrectionLevel = n < 75 ? 'M' : levels[n % 4]!;
      // What getBestMask scores for mask p: the data under mask p, the format modules carrying mask p.
      const expected = [0, 1, 2, 3, 4, 5, 6, 7].map((p) => {
        const { modules } = create(text, { errorCorrectionLevel, maskPattern: p as QRCodeMaskPattern });
        return {
          n1: qrcodePenalty.getPenaltyN1(modules),
          n2: qrcodePenalty.getPenaltyN2(modules),
          n3: qrcodePenalty.getPenaltyN3(modules),
          n4: qrcodePenalty.getPenaltyN4(modules),
        };
      });
      for (const { n1, n2, n3, n4 } of expected) seen.add(`n1 ${n1}`).add(`n2 ${n2}`).add(`n3 ${n3}`).add(`n4 ${n4}`);
      const applied = Math.floor(random() * 8) as QRCodeMaskPattern;
      const symbol = create(text, { errorCorrectionLevel, maskPattern: applied });
      expect(maskPenalties(symbol.modules, applied, symbol.errorCorrectionLevel.bit), text).toEqual(expected);

      const to = Math.floor(random() * 8) as QRCodeMaskPattern;
      remask(symbol.modules, applied, to, symbol.errorCorrectionLevel.bit);
      expect(wire(symbol.modules), text).toBe(wire(create(text, { errorCorrectionLevel, maskPattern: to }).modules));
    }
    // Every term took several values (a term stuck at one value would let a wrong formula for it pass).
    for (const term of ['n1', 'n2', 'n3', 'n4']) expect([...seen].filter((key) => key.startsWith(term)).length).toBeGreaterThanOrEqual(3);
  });
});
