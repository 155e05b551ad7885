/**
 * Draws the PIX code's QR as an inline SVG, locally: no third-party image, no fetch of `qrCodeLocation`. The BFF
 * encodes the symbol (`qrMatrix`) and the element only draws its modules, so a cold page spends no time in a QR
 * encoder and the bundle carries none.
 */
import { html, type TemplateResult } from 'lit';
import type { QrMatrix } from './api.js';

/** Quiet zone around the symbol, in modules; scanners need one (the standard asks for 4, phones manage with 2). */
const MARGIN = 2;

/** The dark modules, row by row; undefined unless `matrix` is a well-formed QR symbol (versions 1 to 40). */
function darkModules(matrix: QrMatrix): ((row: number, col: number) => boolean) | undefined {
  const { size, modules } = matrix;
  if (!Number.isInteger(size) || size < 21 || size > 177 || (size - 17) % 4 !== 0 || typeof modules !== 'string') return undefined;
  let bytes: string;
  try {
    bytes = atob(modules);
  } catch {
    return undefined;
  }
  if (bytes.length !== Math.ceil((size * size) / 8)) return undefined;
  return (row, col) => {
    const i = row * size + col;
    return (bytes.charCodeAt(i >> 3) & (0x80 >> (i & 7))) !== 0;
  };
}

/** One `<path>` drawing the dark modules; undefined when there is no symbol to draw. */
export function qrSvg(matrix: QrMatrix | undefined, label: string): TemplateResult | undefined {
  const dark = matrix && darkModules(matrix);
  if (!matrix || !dark) return undefined;
  const { size } = matrix;
  let path = '';
  // One rectangle per horizontal run of dark modules keeps the path about a third of one-square-per-module.
  for (let row = 0; row < size; row++) {
    for (let col = 0; col < size; col++) {
      if (!dark(row, col)) continue;
      let run = 1;
      while (col + run < size && dark(row, col + run)) run++;
      path += `M${col + MARGIN} ${row + MARGIN}h${run}v1h-${run}z`;
      col += run - 1;
    }
  }
  const box = size + MARGIN * 2;
  // A whole <svg> element belongs in an html`` template; svg`` is for fragments inside one.
  return html`<svg part="qr" class="qr" role="img" aria-label=${label} viewBox="0 0 ${box} ${box}"
    shape-rendering="crispEdges" xmlns="http://www.w3.org/2000/svg"><rect width=${box} height=${box}
    class="qr-background"></rect><path d=${path} class="qr-modules"></path></svg>`;
}
