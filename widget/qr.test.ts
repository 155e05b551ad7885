import { render } from 'lit';
import { expect } from '@open-wc/testing';
import { qrSvg } from './qr.js';

describe('qrSvg', () => {
  const matrix = (size: number, dark: number[], length = Math.ceil((size * size) / 8)) => {
    const bytes = new Uint8Array(length);
    for (const i of dark) bytes[i >> 3]! |= 0x80 >> (i & 7);
    return { size, modules: btoa(String.fromCharCode(...bytes)) };
  };
  const pathOf = (result: ReturnType<typeof qrSvg>) => {
    const host = document.createElement('div');
    render(result, host);
    return host.querySelector('path')!.getAttribute('d');
  };

  it('draws one rectangle per run of dark modules, inside a 2-module quiet zone', () => {
    // Row 0: columns 0 to 2; row 1: column 5.
    const svg = qrSvg(matrix(21, [0, 1, 2, 21 + 5]), 'QR');
    expect(pathOf(svg)).to.equal('M2 2h3v1h-3zM7 3h1v1h-1z');
  });

  it('draws nothing from a malformed symbol', () => {
    expect(qrSvg(undefined, 'QR')).to.equal(undefined);
    for (const size of [0, 20, 22, 181, 21.5]) expect(qrSvg(matrix(size, []), 'QR'), `size ${size}`).to.equal(undefined);
    expect(qrSvg(matrix(21, [], 10), 'QR')).to.equal(undefined);
    expect(qrSvg({ size: 21, modules: '%%%not base64%%%' }, 'QR')).to.equal(undefined);
    expect(qrSvg({ size: 21, modules: 42 } as unknown as { size: number; modules: string }, 'QR')).to.equal(undefined);
  });
});
