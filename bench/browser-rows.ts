/**
 * The browser rows of `npm run bench`, in the system Chromium (playwright-core, never a downloaded browser):
 * - the sandbox trigger → the element sees Completed over SSE (p50, p99), next to the floor: a bare node:http page
 *   whose EventSource gets the same message; next to the same floor behind the contract's hops (trigger, webhook,
 *   re-read; `startHopsFloor`); and the element polling (EventSource removed from the page);
 * - element connected → QR drawn on a cold load (a new browser context each time, so nothing is cached);
 * - the bytes of /widget/pix-checkout.js on the wire, cold and warm (a second load in the same context).
 * Times cross from Node to the page as epoch milliseconds (`performance.timeOrigin + performance.now()` on both).
 */
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import type { PricedOrder } from '../server/payments/orders';
import { startTestServer, type TestServer } from '../test/server/helpers/server';
import { now } from './lib/client-process';
import { startHopsFloor, startHttpFloor } from './lib/floors';
import { sleep } from './lib/stats';

/** What the bench page keeps on `window`. */
interface BenchWindow {
  benchTimes: number[];
  benchMarks: { checkout?: { checkoutId: string }; connected?: number; qr?: number };
}

/** Plain JavaScript shared with the browser tests, imported by address so TypeScript does not look for its types. */
const { chromiumArgs, findChromium, installHint } = (await import(new URL('../scripts/find-chromium.mjs', import.meta.url).href)) as {
  chromiumArgs: string[];
  findChromium: () => string | undefined;
  installHint: string;
};

const anyOrder = { resolve: async (): Promise<PricedOrder> => ({ amountCents: 7_980, description: 'Bench order' }) };
const PAYER = { name: 'Bench', taxNumber: '52998224725' };

/** Marks of the element's page: connected (the element defined and upgraded), created, QR drawn, Completed. */
const MARKS = `
window.benchTimes = [];
window.benchMarks = {};
const deep = (root, selector) => {
  const found = root.querySelector(selector);
  if (found) return found;
  for (const el of root.querySelectorAll('*')) if (el.shadowRoot) { const inner = deep(el.shadowRoot, selector); if (inner) return inner; }
  return null;
};
document.addEventListener('pix-checkout-completed', () => benchTimes.push(performance.timeOrigin + performance.now()));
document.addEventListener('pix-checkout-created', (event) => { benchMarks.checkout = event.detail; });
customElements.whenDefined('pix-checkout').then(() => {
  benchMarks.connected = performance.now();
  const el = document.querySelector('pix-checkout');
  const check = () => {
    if (benchMarks.qr || !el.shadowRoot || !deep(el.shadowRoot, 'svg[part~="qr"]')) return false;
    requestAnimationFrame(() => { benchMarks.qr = performance.now(); });
    return true;
  };
  if (check()) return;
  const observer = new MutationObserver(() => { if (check()) observer.disconnect(); });
  observer.observe(el.shadowRoot ?? el, { subtree: true, childList: true, attributes: true });
});`;

function pageHtml(bff: string, orderId: string, orderToken: string, polling: boolean) {
  return `<!doctype html><html lang="pt-BR"><meta charset="utf-8"><title>bench</title>
<script>${polling ? 'window.EventSource = undefined;' : ''}${MARKS}</script>
<script type="module" src="${bff}/widget/pix-checkout.js"></script>
<pix-checkout endpoint="${bff}/api" order-id="${orderId}" order-token="${orderToken}"></pix-checkout></html>`;
}

/** Serves the element's page from its own origin (a storefront), the order id and token in the query. */
async function startPageServer(bff: () => string, token: (orderId: string) => string) {
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const orderId = url.searchParams.get('order') ?? `B-${randomUUID()}`;
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
    res.end(pageHtml(bff(), orderId, token(orderId), url.searchParams.has('polling')));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

async function waitUntil(condition: () => boolean, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('bench: timed out waiting');
    await sleep(1);
  }
}

export interface BrowserRowsOptions {
  runs: number;
  pollingRuns: number;
  coldRuns: number;
  log: (line: string) => void;
}

export async function browserRows({ runs, pollingRuns, coldRuns, log }: BrowserRowsOptions) {
  const executablePath = findChromium();
  if (!executablePath) throw new Error(installHint);
  let bffUrl = '';
  let server: TestServer | undefined = undefined;
  const pages = await startPageServer(
    () => bffUrl,
    (orderId) => server!.orderTokenFor(orderId),
  );
  server = await startTestServer({
    env: { ALLOWED_ORIGINS: pages.url, CHECKOUT_RATE_PER_MINUTE: '0', SSE_MAX_PER_CLIENT: '1000' },
    start: { orders: anyOrder },
  });
  bffUrl = server.url;
  const floor = await startHttpFloor();
  const hops = await startHopsFloor();
  const browser: Browser = await chromium.launch({ executablePath, args: chromiumArgs });
  const result = {
    sse: [] as number[],
    floor: [] as number[],
    hops: [] as number[],
    polling: [] as number[],
    qr: [] as number[],
    wire: { cold: 0, warm: 0, coldEncoding: '' },
  };
  try {
    const context = await browser.newContext();
    const page = await context.newPage();
    const floorPage = await context.newPage();
    const hopsPage = await context.newPage();
    /** Opens the page of a floor for a new channel and waits until its stream is on; returns the channel. */
    const openFloor = async (target: Page, server: typeof floor, channel: string) => {
      const opened = server.opened();
      await target.goto(`${server.url}/page?c=${channel}`);
      await waitUntil(() => server.opened() > opened);
      await sleep(20);
      return [channel];
    };

    /** Loads the element for a new order and waits until its stream (or its polling) is on; returns the checkout. */
    const loadElement = async (target: Page, polling: boolean) => {
      const subscribers = server.hub.subscriberCount();
      await target.goto(`${pages.url}/?order=B-${randomUUID()}${polling ? '&polling' : ''}`);
      await target.waitForFunction(() => (window as unknown as BenchWindow).benchMarks.checkout);
      const checkout = (await target.evaluate(() => (window as unknown as BenchWindow).benchMarks.checkout)) as { checkoutId: string };
      if (!polling) await waitUntil(() => server.hub.subscriberCount() > subscribers);
      const stored = await server.store.getCheckout(checkout.checkoutId);
      return stored!;
    };
    const seen = async (target: Page) => {
      await target.waitForFunction(() => (window as unknown as BenchWindow).benchTimes.length > 0, undefined, {
        polling: 'raf',
        timeout: 30_000,
      });
      return (await target.evaluate(() => (window as unknown as BenchWindow).benchTimes[0])) as number;
    };

    // Warm-up: JIT of the server paths, the browser's first page.
    for (let i = 0; i < 3; i++) {
      const checkout = await loadElement(page, false);
      await server.provider.sandbox.pix.complete(checkout.transactionId!, PAYER);
      await seen(page);
    }
    for (let i = 0; i < runs; i++) {
      const checkout = await loadElement(page, false);
      await sleep(20);
      const started = now();
      await server.provider.sandbox.pix.complete(checkout.transactionId!, PAYER);
      result.sse.push((await seen(page)) - started);

      const channel = await openFloor(floorPage, floor, `p${i}`);
      const floorStarted = now();
      await floor.trigger(channel);
      result.floor.push((await seen(floorPage)) - floorStarted);

      const hopsChannel = await openFloor(hopsPage, hops, `h${i}`);
      const hopsStarted = now();
      await hops.trigger(hopsChannel);
      result.hops.push((await seen(hopsPage)) - hopsStarted);
    }
    log(`browser: ${runs} SSE runs, ${runs} floor runs and ${runs} runs of the floor with the contract's hops`);

    for (let i = 0; i < pollingRuns; i++) {
      const checkout = await loadElement(page, true);
      // The payment comes at any moment of the polling cycle.
      await sleep(Math.random() * 2_000);
      const started = now();
      await server.provider.sandbox.pix.complete(checkout.transactionId!, PAYER);
      result.polling.push((await seen(page)) - started);
    }
    log(`browser: ${pollingRuns} polling runs`);
    await context.close();

    // Cold loads: a new context each (empty cache), the bytes of the bundle counted on the first one.
    for (let i = 0; i < coldRuns; i++) {
      const cold: BrowserContext = await browser.newContext();
      const coldPage = await cold.newPage();
      const wire = i === 0 ? await countWidgetBytes(coldPage) : undefined;
      await coldPage.goto(`${pages.url}/?order=B-${randomUUID()}`);
      await coldPage.waitForFunction(() => (window as unknown as BenchWindow).benchMarks.qr, undefined, { timeout: 30_000 });
      const marks = (await coldPage.evaluate(() => (window as unknown as BenchWindow).benchMarks)) as { connected: number; qr: number };
      result.qr.push(marks.qr - marks.connected);
      if (wire) {
        result.wire.cold = wire.bytes();
        result.wire.coldEncoding = wire.encoding();
        wire.reset();
        await coldPage.goto(`${pages.url}/?order=B-${randomUUID()}`);
        await coldPage.waitForFunction(() => (window as unknown as BenchWindow).benchMarks.qr, undefined, { timeout: 30_000 });
        result.wire.warm = wire.bytes();
      }
      await cold.close();
    }
    log(`browser: ${coldRuns} cold loads`);
  } finally {
    await browser.close();
    await floor.close();
    await hops.close();
    await server.close();
    await pages.close();
  }
  return result;
}

/** Bytes of /widget/pix-checkout*.js received on the wire (headers and body, as Chromium counts them); 0 from cache. */
async function countWidgetBytes(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  const widget = new Set<string>();
  let bytes = 0;
  let encoding = '';
  cdp.on('Network.responseReceived', (event) => {
    if (!/\/widget\/pix-checkout[^/]*\.js/.test(event.response.url)) return;
    if (event.response.fromDiskCache || event.response.fromPrefetchCache) return;
    widget.add(event.requestId);
    encoding = String(event.response.headers['content-encoding'] ?? event.response.headers['Content-Encoding'] ?? 'identity');
  });
  cdp.on('Network.loadingFinished', (event) => {
    if (widget.has(event.requestId)) bytes += event.encodedDataLength;
  });
  return {
    bytes: () => bytes,
    encoding: () => encoding,
    reset: () => {
      bytes = 0;
      widget.clear();
    },
  };
}
