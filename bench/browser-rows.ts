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
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { startTestServer } from '../test/server/helpers/server';
import { startAlone } from './lib/alone';
import { now } from './lib/client-process';
import { anyOrder, PAYER, startPageServer, type Target } from './lib/element-page';
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
  /** The BFF the page points at, once it is up. */
  const target: { current?: Target } = {};
  const pages = await startPageServer(() => target.current!);
  // The demo: the BFF and the embedded emulator, in this process.
  const server = await startTestServer({
    env: { ALLOWED_ORIGINS: pages.url, CHECKOUT_RATE_PER_MINUTE: '0', SSE_MAX_PER_CLIENT: '1000' },
    start: { orders: anyOrder },
  });
  target.current = { url: server.url, token: (orderId) => server.orderTokenFor(orderId) };
  // The BFF alone on the stand-in provider, in a process of its own as each floor is.
  const alone = await startAlone();
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
    wire: { cold: 0, coldChunks: 0, warm: 0, coldEncoding: '' },
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

    /** The checkout the element of `target` created, once the page has it. */
    const createdOn = async (target: Page) => {
      await target.waitForFunction(() => (window as unknown as BenchWindow).benchMarks.checkout);
      return (await target.evaluate(() => (window as unknown as BenchWindow).benchMarks.checkout)) as { checkoutId: string };
    };
    /** Loads the element for a new order and waits until its stream (or its polling) is on; returns the checkout. */
    const loadElement = async (target: Page, polling: boolean) => {
      const subscribers = server.hub.subscriberCount();
      await target.goto(`${pages.url}/?order=B-${randomUUID()}${polling ? '&polling' : ''}`);
      const checkout = await createdOn(target);
      if (!polling) await waitUntil(() => server.hub.subscriberCount() > subscribers);
      const stored = await server.store.getCheckout(checkout.checkoutId);
      return stored!;
    };
    /** The same on the BFF alone, in its process; returns the checkout's transaction. */
    const loadAlone = async () => {
      const subscribers = await alone.subscribers();
      await alonePage.goto(`${alone.pagesUrl}/?order=B-${randomUUID()}`);
      const checkout = await createdOn(alonePage);
      const deadline = Date.now() + 10_000;
      while ((await alone.subscribers()) <= subscribers) {
        if (Date.now() > deadline) throw new Error('bench: timed out waiting for the stream on the BFF alone');
        await sleep(1);
      }
      const transactionId = await alone.transactionOf(checkout.checkoutId);
      if (!transactionId) throw new Error('bench: the BFF alone has no transaction for its checkout');
      return transactionId;
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
      await alone.trigger(await loadAlone());
      await seen(alonePage);
    }
    for (let i = 0; i < runs; i++) {
      const transactionId = await loadAlone();
      await sleep(20);
      const aloneStarted = now();
      await alone.trigger(transactionId);
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
        result.wire.coldChunks = wire.chunks();
        result.wire.coldEncoding = wire.encoding();
        wire.reset();
        await coldPage.goto(`${pages.url}/?order=B-${randomUUID()}`);
        await coldPage.waitForFunction(() => (window as unknown as BenchWindow).benchMarks.qr, undefined, { timeout: 30_000 });
        result.wire.warm = wire.bytes() + wire.chunks();
      }
      await cold.close();
    }
    log(`browser: ${coldRuns} cold loads`);
  } finally {
    await browser.close();
    await floor.close();
    await hops.close();
    await alone.close();
    await server.close();
    await pages.close();
  }
  return result;
}

/** The element's entry script, by either of its names (`pix-checkout.js`, `pix-checkout.<hash>.js`); not its chunks. */
const ENTRY = /\/widget\/pix-checkout(\.[0-9a-f]{16})?\.js(\?|$)/;

/**
 * Bytes of the element's scripts received on the wire (headers and body, as Chromium counts them), 0 from cache: the
 * entry (the row's file) apart from its chunks (`pix-checkout-*.js`, fetched after the QR is drawn or on demand).
 */
async function countWidgetBytes(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  const scripts = new Map<string, 'entry' | 'chunk'>();
  const bytes = { entry: 0, chunk: 0 };
  let encoding = '';
  cdp.on('Network.responseReceived', (event) => {
    if (!/\/widget\/pix-checkout[^/]*\.js/.test(event.response.url)) return;
    if (event.response.fromDiskCache || event.response.fromPrefetchCache) return;
    const entry = ENTRY.test(event.response.url);
    scripts.set(event.requestId, entry ? 'entry' : 'chunk');
    if (entry) encoding = String(event.response.headers['content-encoding'] ?? event.response.headers['Content-Encoding'] ?? 'identity');
  });
  cdp.on('Network.loadingFinished', (event) => {
    const kind = scripts.get(event.requestId);
    if (kind) bytes[kind] += event.encodedDataLength;
  });
  return {
    bytes: () => bytes.entry,
    chunks: () => bytes.chunk,
    encoding: () => encoding,
    reset: () => {
      bytes.entry = bytes.chunk = 0;
      scripts.clear();
    },
  };
}
