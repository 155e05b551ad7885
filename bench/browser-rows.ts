/**
 * The browser rows of `npm run bench`, in the system Chromium (playwright-core, never a downloaded browser):
 * - the provider's trigger → the element sees Completed over SSE (p50, p99), twice: the BFF alone, its provider a
 *   stand-in over HTTP that answers at next to no cost (./lib/stub-provider.ts), as the hops floor's does; and the
 *   demo, the BFF on the embedded emulator (which persists each transaction and answers through its own API, the
 *   provider's cost, not the BFF's). Next to the floor: a bare node:http page whose EventSource gets the same message;
 *   next to the same floor behind the contract's hops (trigger, webhook, re-read; `startHopsFloor`); and the element
 *   polling (EventSource removed from the page);
 * - element connected → QR drawn on a cold load (a new browser context each time, so nothing is cached);
 * - the bytes of /widget/pix-checkout.js on the wire, cold and warm (a second load in the same context).
 * Times cross from Node to the page as epoch milliseconds (`performance.timeOrigin + performance.now()` on both).
 */
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import type { PricedOrder } from '../server/payments/orders';
import { startTestBff, startTestServer, type TestServer } from '../test/server/helpers/server';
import { now } from './lib/client-process';
import { startHopsFloor, startHttpFloor } from './lib/floors';
import { sleep } from './lib/stats';
import { startStubProvider } from './lib/stub-provider';

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

/** A BFF the element's page can point at: its address, and the order token its merchant would sign. */
interface Target {
  url: string;
  token: (orderId: string) => string;
}

/**
 * Serves the element's page from its own origin (a storefront), the order id and token in the query; the page
 * points at the BFF named by `bff` (the first of `targets` without it).
 */
async function startPageServer(targets: () => Record<string, Target>) {
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const orderId = url.searchParams.get('order') ?? `B-${randomUUID()}`;
    const all = targets();
    const target = all[url.searchParams.get('bff') ?? ''] ?? Object.values(all)[0]!;
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
    res.end(pageHtml(target.url, orderId, target.token(orderId), url.searchParams.has('polling')));
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
  const targets: Record<string, Target> = {};
  const pages = await startPageServer(() => targets);
  const env = { ALLOWED_ORIGINS: pages.url, CHECKOUT_RATE_PER_MINUTE: '0', SSE_MAX_PER_CLIENT: '1000' };
  // The demo: the BFF and the embedded emulator in this process.
  const server = await startTestServer({ env, start: { orders: anyOrder } });
  targets.demo = { url: server.url, token: (orderId) => server.orderTokenFor(orderId) };
  // The BFF alone, in this process too, its provider the stand-in recorded from that emulator.
  const stub = await startStubProvider(`${server.url}/sandbox`);
  const alone = await startTestBff({
    env: { PROVIDER_BASE_URL: `${stub.url}/v1`, PROVIDER_ACCESS_KEY: 'sandbox-access-key', PROVIDER_SECRET: 'sandbox-secret', ...env },
    start: { orders: anyOrder },
  });
  targets.alone = { url: alone.url, token: (orderId) => alone.orderTokenFor(orderId) };
  await recordCompletion(alone, server);
  if (!stub.canComplete()) throw new Error('bench: the stand-in provider did not record a completion');
  const floor = await startHttpFloor();
  const hops = await startHopsFloor();
  const browser: Browser = await chromium.launch({ executablePath, args: chromiumArgs });
  const result = {
    /** The BFF alone on the stand-in provider (the status goal's row). */
    alone: [] as number[],
    /** The demo: the BFF on the embedded emulator. */
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
    const alonePage = await context.newPage();
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

    /**
     * Loads the element for a new order on `bff` and waits until its stream (or its polling) is on; returns the
     * checkout.
     */
    const loadElement = async (target: Page, polling: boolean, bff: Pick<TestServer, 'hub' | 'store'> = server) => {
      const subscribers = bff.hub.subscriberCount();
      const which = bff === server ? 'demo' : 'alone';
      await target.goto(`${pages.url}/?order=B-${randomUUID()}&bff=${which}${polling ? '&polling' : ''}`);
      await target.waitForFunction(() => (window as unknown as BenchWindow).benchMarks.checkout);
      const checkout = (await target.evaluate(() => (window as unknown as BenchWindow).benchMarks.checkout)) as { checkoutId: string };
      if (!polling) await waitUntil(() => bff.hub.subscriberCount() > subscribers);
      const stored = await bff.store.getCheckout(checkout.checkoutId);
      return stored!;
    };
    const seen = async (target: Page) => {
      await target.waitForFunction(() => (window as unknown as BenchWindow).benchTimes.length > 0, undefined, {
        polling: 'raf',
        timeout: 30_000,
      });
      return (await target.evaluate(() => (window as unknown as BenchWindow).benchTimes[0])) as number;
    };

    /** The stand-in provider's trigger: one loopback POST, as the hops floor's. */
    const triggerAlone = (transactionId: string) =>
      fetch(`${stub.triggerUrl}?c=${transactionId}`, { method: 'POST' }).then((r) => r.text());

    // Warm-up: JIT of the server paths, the browser's first page.
    for (let i = 0; i < 3; i++) {
      const checkout = await loadElement(page, false);
      await server.provider.sandbox.pix.complete(checkout.transactionId!, PAYER);
      await seen(page);
      const ofAlone = await loadElement(alonePage, false, alone);
      await triggerAlone(ofAlone.transactionId!);
      await seen(alonePage);
    }
    for (let i = 0; i < runs; i++) {
      const ofAlone = await loadElement(alonePage, false, alone);
      await sleep(20);
      const aloneStarted = now();
      await triggerAlone(ofAlone.transactionId!);
      result.alone.push((await seen(alonePage)) - aloneStarted);

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
    log(`browser: ${runs} runs each of the BFF alone, the demo, the floor and the floor with the contract's hops`);

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
    await alone.close();
    await stub.close();
    await server.close();
    await pages.close();
  }
  return result;
}

/**
 * Has the stand-in provider record a completion from the emulator: a checkout made on the BFF alone (its create
 * forwarded to the emulator), completed by the emulator's sandbox, whose webhook and re-read go through the stand-in.
 */
async function recordCompletion(alone: Awaited<ReturnType<typeof startTestBff>>, demo: TestServer) {
  const orderId = `R-${randomUUID()}`;
  const created = await alone.json('POST', '/api/checkouts', { orderId, orderToken: alone.orderTokenFor(orderId), method: 'pix' });
  if (created.status !== 201) throw new Error(`bench: creation on the BFF alone failed: ${created.text}`);
  await demo.provider.sandbox.pix.complete((created.body as { transactionId: string }).transactionId, PAYER);
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
