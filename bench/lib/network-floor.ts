/**
 * The network's own floor for a page, measured in the same throttled browser: a bare node:http page that moves the
 * same bytes in the same number of sequential round trips as the page it stands for, and does nothing else (no
 * framework, no rendering beyond one SVG). `GET /floor?html=<bytes>&bytes=<total>&trips=<n>`: the document (padded to
 * `html` bytes), a script, then fetches one after the other until `trips` round trips have carried `total` bytes; the
 * frame after the last one ends sets `window.benchQrAt`, as the element's QR does.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

const SCRIPT = `(async () => {
  const params = new URL(document.currentScript.src).searchParams;
  const each = Number(params.get('each'));
  for (let i = Number(params.get('fetches')); i > 0; i--) await (await fetch('/floor/bytes?n=' + each + '&i=' + i)).arrayBuffer();
  document.body.insertAdjacentHTML('beforeend', '<svg part="qr" width="10" height="10"></svg>');
  requestAnimationFrame(() => { window.benchQrAt = performance.now(); });
})();`;

/** Text of `n` bytes that no encoding would shrink much (nothing is compressed here anyway). */
const filler = (n: number) => {
  let text = '';
  let x = 0x2545f491;
  while (text.length < n) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    text += (x >>> 0).toString(36);
  }
  return text.slice(0, Math.max(0, n));
};

export async function startNetworkFloor() {
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const number = (name: string) => Math.max(0, Math.floor(Number(url.searchParams.get(name)) || 0));
    const headers = { 'cache-control': 'no-store', connection: 'keep-alive' };
    if (url.pathname === '/floor') {
      const trips = Math.max(2, number('trips'));
      const html = number('html');
      // The document, the script, then the fetches: the bytes past the document split evenly over the others.
      const each = Math.ceil(Math.max(0, number('bytes') - html) / (trips - 1));
      const page = `<!doctype html><html><head><meta charset="utf-8"><title>floor</title><script src="/floor/script.js?fetches=${trips - 2}&each=${each}"></script></head><body><!--`;
      const body = `${page}${filler(html - page.length - 20)}--></body></html>`;
      res.writeHead(200, { ...headers, 'content-type': 'text/html; charset=utf-8' });
      res.end(body);
    } else if (url.pathname === '/floor/script.js') {
      res.writeHead(200, { ...headers, 'content-type': 'text/javascript' });
      res.end(`${SCRIPT}\n//${filler(number('each') - SCRIPT.length)}`);
    } else if (url.pathname === '/floor/bytes') {
      res.writeHead(200, { ...headers, 'content-type': 'application/octet-stream' });
      res.end(filler(number('n')));
    } else {
      res.writeHead(404).end();
    }
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (html: number, bytes: number, trips: number) => `http://127.0.0.1:${port}/floor?html=${html}&bytes=${bytes}&trips=${trips}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
