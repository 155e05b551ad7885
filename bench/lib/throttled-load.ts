/**
 * One cold load of a page in Chromium under DevTools throttling (playwright-core's CDP session:
 * `Network.emulateNetworkConditions` and `Emulation.setCPUThrottlingRate`), as a shopper with no think time: the
 * moment the element offers the methods, Pix is clicked. Gives navigation → QR drawn (the frame after the QR's SVG is
 * in the element), and every request that ended before it: the bytes on the wire and the round trips (the longest
 * chain of requests each sent after the one before it ended).
 */
import type { Browser, CDPSession } from 'playwright-core';

export interface Profile {
  name: string;
  /** CPU slowdown: 4 is a mid-range phone, 6 a low-end one. */
  cpu: number;
  /** Network conditions; undefined for none (desktop on the loopback). */
  network?: { latencyMs: number; downKbps: number; upKbps: number };
}

/** The profiles: slow 4G is Lighthouse's mobile setting; 3G is WebPageTest's "3G" profile. */
export const PROFILES: Profile[] = [
  { name: 'desktop', cpu: 1 },
  { name: 'slow 4G, 4× CPU', cpu: 4, network: { latencyMs: 150, downKbps: 1_600, upKbps: 750 } },
  { name: '3G, 6× CPU', cpu: 6, network: { latencyMs: 300, downKbps: 1_600, upKbps: 768 } },
];

export interface Load {
  /** Navigation start → the frame after the QR appeared, ms. */
  ms: number;
  /** Bytes received before the QR (headers and bodies, as Chromium counts them on the wire). */
  bytes: number;
  /** Requests that ended before the QR. */
  requests: number;
  /** The longest chain of those requests, each sent after the previous one ended. */
  roundTrips: number;
  /** The document's own bytes. */
  documentBytes: number;
}

/**
 * Runs in the page before its own scripts (injected through the DevTools protocol, so the page's CSP does not apply):
 * clicks Pix when the element offers it, and notes when the QR is drawn.
 */
const SHOPPER = `(() => {
  // The page itself, then the element's shadow trees only: walking the whole page every frame would weigh on a slow
  // CPU what no shopper's page pays (the floor's page has its QR in the page itself).
  const deep = (root, selector) => {
    const found = root.querySelector(selector);
    if (found) return found;
    for (const el of root.querySelectorAll('*')) if (el.shadowRoot) { const inner = deep(el.shadowRoot, selector); if (inner) return inner; }
    return null;
  };
  const find = (selector) => {
    const found = document.querySelector(selector);
    if (found) return found;
    for (const host of document.querySelectorAll('pix-checkout')) if (host.shadowRoot) { const inner = deep(host.shadowRoot, selector); if (inner) return inner; }
    return null;
  };
  let clicked = false;
  const look = () => {
    // Only what the shopper can see counts, and only what they can see can be clicked.
    const qr = document.documentElement && find('svg[part~="qr"]');
    if (qr && qr.checkVisibility()) return requestAnimationFrame(() => { window.benchQrAt = performance.now(); });
    const pix = !clicked && document.documentElement && find('button[part~="method-button"]');
    if (pix && pix.checkVisibility() && /pix/i.test(pix.textContent)) { clicked = true; pix.click(); }
    requestAnimationFrame(look);
  };
  requestAnimationFrame(look);
})();`;

interface Request {
  url: string;
  start: number;
  end?: number;
  bytes: number;
  /** The response's headers came (a request cancelled after them still made its round trip). */
  answered?: boolean;
}

async function throttle(cdp: CDPSession, profile: Profile) {
  await cdp.send('Network.enable');
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: profile.cpu });
  if (!profile.network) return;
  const { latencyMs, downKbps, upKbps } = profile.network;
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: latencyMs,
    downloadThroughput: (downKbps * 1000) / 8,
    uploadThroughput: (upKbps * 1000) / 8,
  });
}

/** The longest chain of requests where each was sent after the previous one ended. */
export function longestChain(requests: { start: number; end: number }[]): number {
  const sorted = [...requests].sort((a, b) => a.start - b.start);
  const depth: number[] = [];
  sorted.forEach((request, i) => {
    let best = 0;
    for (let j = 0; j < i; j++) if (sorted[j]!.end <= request.start) best = Math.max(best, depth[j]!);
    depth.push(best + 1);
  });
  return Math.max(0, ...depth);
}

/** Loads `url` in a new context (empty cache) under `profile`; `ready` names the window flag that marks the end. */
export async function throttledLoad(browser: Browser, url: string, profile: Profile, ready = 'benchQrAt'): Promise<Load> {
  const context = await browser.newContext(
    profile.network ? { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true } : {},
  );
  try {
    const page = await context.newPage();
    await page.addInitScript(SHOPPER);
    const cdp = await context.newCDPSession(page);
    await throttle(cdp, profile);
    const requests = new Map<string, Request>();
    cdp.on('Network.requestWillBeSent', (event) => {
      if (!requests.has(event.requestId)) requests.set(event.requestId, { url: event.request.url, start: event.timestamp, bytes: 0 });
    });
    cdp.on('Network.responseReceived', (event) => {
      const request = requests.get(event.requestId);
      if (!request) return;
      request.answered = true;
      request.bytes = event.response.encodedDataLength;
    });
    cdp.on('Network.loadingFinished', (event) => {
      const request = requests.get(event.requestId);
      if (!request) return;
      request.end = event.timestamp;
      request.bytes = event.encodedDataLength;
    });
    // Chromium reports a fetch whose answer had no body to read (the order lookup's 204) as cancelled once the page
    // lets go of it: its round trip still happened, so it ends there, with the bytes of its headers.
    cdp.on('Network.loadingFailed', (event) => {
      const request = requests.get(event.requestId);
      if (request?.answered) request.end = event.timestamp;
    });
    await page.goto(url, { waitUntil: 'commit' });
    await page.waitForFunction((flag) => (window as unknown as Record<string, number | undefined>)[flag], ready, {
      timeout: 60_000,
      polling: 50,
    });
    const ms = (await page.evaluate((flag) => (window as unknown as Record<string, number>)[flag], ready)) as number;
    const all = [...requests.values()];
    const navigation = all.find((r) => r.url.split('#')[0] === url.split('#')[0]) ?? all[0]!;
    const qrAt = navigation.start + ms / 1000;
    const before = all.filter((r): r is Required<Request> => r.end !== undefined && r.end <= qrAt);
    return {
      ms,
      bytes: before.reduce((sum, r) => sum + r.bytes, 0),
      requests: before.length,
      roundTrips: longestChain(before),
      documentBytes: navigation.bytes,
    };
  } finally {
    await context.close();
  }
}
