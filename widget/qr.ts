/** Draws the PIX code as an inline SVG QR, locally: no third-party image, no fetch of `qrCodeLocation`. */
import { html, type TemplateResult } from 'lit';
import { create } from 'qrcode/lib/core/qrcode.js';

/** Quiet zone around the symbol, in modules; scanners need one (the standard asks for 4, phones manage with 2). */
const MARGIN = 2;

let warmed = false;

/**
 * Encodes a BR Code-sized text once, off the critical path, while the element waits for the BFF: the encoder's first
 * run in a fresh page is several times slower than the next ones (the engine has not compiled it yet), and it would
 * otherwise sit between the BFF's answer and the QR on screen. Once per page.
 */
export function warmQrEncoder(): void {
  if (warmed) return;
  warmed = true;
  const run = () => {
    try {
      create([{ data: '0'.repeat(160), mode: 'byte' }], { errorCorrectionLevel: 'M' });
    } catch {
      // Only a warm-up: the real code is encoded (and its failure handled) in qrSvg.
    }
  };
  setTimeout(run, 0);
}

/** One `<path>` drawing the dark modules; undefined when the text cannot be encoded. */
export function qrSvg(text: string, label: string): TemplateResult | undefined {
  let size: number;
  let path = '';
  try {
    // One byte segment (a BR Code mixes cases, digits and punctuation): no segment search, so the bundle keeps only
    // the encoder of `qrcode`.
    const { modules } = create([{ data: text, mode: 'byte' }], { errorCorrectionLevel: 'M' });
    size = modules.size;
    // One rectangle per horizontal run of dark modules keeps the path about a third of one-square-per-module.
    for (let row = 0; row < size; row++) {
      for (let col = 0; col < size; col++) {
        if (!modules.get(row, col)) continue;
        let run = 1;
        while (col + run < size && modules.get(row, col + run)) run++;
        path += `M${col + MARGIN} ${row + MARGIN}h${run}v1h-${run}z`;
        col += run - 1;
      }
    }
  } catch {
    return undefined;
  }
  const box = size + MARGIN * 2;
  // A whole <svg> element belongs in an html`` template; svg`` is for fragments inside one.
  return html`<svg part="qr" class="qr" role="img" aria-label=${label} viewBox="0 0 ${box} ${box}"
    shape-rendering="crispEdges" xmlns="http://www.w3.org/2000/svg"><rect width=${box} height=${box}
    class="qr-background"></rect><path d=${path} class="qr-modules"></path></svg>`;
}
