/**
 * The QR symbol of a PIX code, encoded here once rather than in every shopper's browser: a cold page spent 40 to
 * 100 ms of its main thread encoding it (the mask search runs before the engine has compiled anything), and the
 * encoder was a fifth of the element's bundle. The element only draws the modules.
 *
 * Wire form: `{ size, modules }`, `modules` being the dark modules row by row from the top left, one bit each, most
 * significant bit first, the last byte padded with zeros, in base64. Error correction M, one byte segment.
 */
import QRCode from 'qrcode';
import { bestMask, remask } from './mask';

export interface QrMatrix {
  /** Modules per side (21 to 177). */
  size: number;
  modules: string;
}

/** Recently drawn codes: a page polling or coming back asks for the same checkout again. */
const cache = new Map<string, QrMatrix | null>();
const CACHE_SIZE = 1_000;

function encode(text: string): QrMatrix | null {
  try {
    // Built with mask 0 (qrcode's own search of the eight masks was most of the time), then the mask it would pick.
    const symbol = QRCode.create([{ data: Buffer.from(text, 'utf8'), mode: 'byte' }], { errorCorrectionLevel: 'M', maskPattern: 0 });
    const { modules, errorCorrectionLevel } = symbol;
    remask(modules, 0, bestMask(modules, 0, errorCorrectionLevel.bit), errorCorrectionLevel.bit);
    const { size, data } = modules;
    const bytes = Buffer.alloc(Math.ceil((size * size) / 8));
    for (let i = 0; i < size * size; i++) if (data[i]) bytes[i >> 3]! |= 0x80 >> (i & 7);
    return { size, modules: bytes.toString('base64') };
  } catch {
    // Too long for a QR symbol: the shopper still has the copy-and-paste code.
    return null;
  }
}

/** The symbol of `text`, or undefined when no QR can hold it. */
export function qrMatrixOf(text: string): QrMatrix | undefined {
  let matrix = cache.get(text);
  if (matrix === undefined) {
    matrix = encode(text);
    if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value!);
    cache.set(text, matrix);
  }
  return matrix ?? undefined;
}
