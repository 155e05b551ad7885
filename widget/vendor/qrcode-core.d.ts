// The encoder alone of the `qrcode` package (its lib/core/qrcode.js), without the renderers, the canvas and the
// automatic segment choice: the element draws the SVG itself and always passes one byte segment (a string is
// encoded as UTF-8 by the package).
declare module 'qrcode/lib/core/qrcode.js' {
  import type { QRCode, QRCodeOptions } from 'qrcode';
  export function create(data: { data: string; mode: 'byte' }[], options?: QRCodeOptions): QRCode;
}
