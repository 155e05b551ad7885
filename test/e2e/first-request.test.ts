/**
 * The shopper's first request leaves from a script in the page itself, while the page is parsed: the order lookup
 * (the element's first question) on the payment link page and on the demo's checkout page (whose summary the server
 * wrote into the page). It leaves before the element's script has come, so both travel together (a round trip fewer
 * before the QR), and the element reads the lookup's answer instead of asking again. On the demo's page nothing else
 * comes first: its stylesheets are in the page, and its own module waits until the element has its checkout. Each test
 * holds back every stylesheet and script of the page until the first requests have left (or a few seconds have
 * passed), and checks which came first.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { chooseMethod, openCheckoutPage, pixCode, placeOrder, useE2E } from './helpers';

const e2e = useE2E();

/** How long a held file waits for the first requests before it is let through anyway (and the test fails). */
const HOLD_MS = 5_000;

/**
 * Holds back every stylesheet and script of `page` until a request to each of `firstPaths` has left; returns what
 * happened, in order: `sent <path>` for those requests (each lookup's method too), `file <path>` for each file let
 * through.
 */
async function holdFilesUntil(page: Page, firstPaths: string[]): Promise<string[]> {
  const events: string[] = [];
  const waiting = new Set(firstPaths);
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  page.on('request', (request) => {
    const path = new URL(request.url()).pathname;
    if (!firstPaths.includes(path)) return;
    events.push(`sent ${request.method()} ${path}`);
    waiting.delete(path);
    if (waiting.size === 0) release();
  });
  await page.route(
    (url) => /\.(js|css)$/.test(url.pathname),
    async (route) => {
      await Promise.race([released, new Promise((resolve) => setTimeout(resolve, HOLD_MS))]);
      events.push(`file ${new URL(route.request().url()).pathname}`);
      await route.continue();
    },
  );
  return events;
}

describe("the shopper's first requests", () => {
  it('leave the payment link page before its scripts have come; the element uses the lookup', { timeout: 60_000 }, async () => {
    const order = await placeOrder(e2e.app);
    const page = await e2e.newPage();
    const lookup = `/api/orders/${order.orderId}/checkout`;
    const events = await holdFilesUntil(page, [lookup]);
    await page.goto(`${e2e.app.url}/pay/${order.orderId}#t=${encodeURIComponent(order.orderToken)}`);
    await chooseMethod(page, 'Pix');
    expect(await pixCode(page)).toMatch(/^000201/);
    // The lookup first, then the element's script (the page's only file, besides the element's later chunks).
    expect(events[0]).toBe(`sent POST ${lookup}`);
    expect(events[1]).toMatch(/^file \/widget\/pix-checkout\.[0-9a-f]+\.js$/);
    // The element asked nothing again.
    expect(events.filter((e) => e.startsWith('sent '))).toEqual([`sent POST ${lookup}`]);
  });

  it(
    "leave the demo checkout page before the element's script; the page's own module waits for the first QR",
    { timeout: 60_000 },
    async () => {
      const order = await placeOrder(e2e.app);
      const page = await e2e.newPage();
      const lookup = `/api/orders/${order.orderId}/checkout`;
      const events = await holdFilesUntil(page, [lookup]);
      page.on('response', (response) => {
        const url = new URL(response.url());
        if (url.pathname === '/api/checkouts' && response.request().method() === 'POST') events.push('answered POST /api/checkouts');
      });
      await openCheckoutPage(page, e2e.app, order);
      // The token left the address at once.
      expect(page.url()).toBe(`${e2e.app.url}/checkout.html?order=${order.orderId}`);
      await chooseMethod(page, 'Pix');
      expect(await pixCode(page)).toMatch(/^000201/);
      // The lookup first, then the element's script under its hashed name.
      expect(events[0]).toBe(`sent POST ${lookup}`);
      expect(events[1]).toMatch(/^file \/widget\/pix-checkout\.[0-9a-f]+\.js$/);
      // Until the element has its checkout, only the element's own files: the page's stylesheets are in the page, and
      // its module (the sandbox panel, the delivery log) and the panel's stylesheet come after.
      await expect.poll(() => events.includes('file /assets/checkout.js') && events.includes('file /sandbox-panel.css')).toBe(true);
      const created = events.indexOf('answered POST /api/checkouts');
      expect(created).toBeGreaterThan(0);
      expect(events.slice(0, created).filter((e) => e.startsWith('file ') && !e.startsWith('file /widget/'))).toEqual([]);
      // The element asked nothing again.
      expect(events.filter((e) => e.startsWith('sent POST'))).toEqual([`sent POST ${lookup}`]);
      // The panel, started late, still shows the checkout the element made before it came.
      await expect.poll(() => page.locator('#sb-checkout').textContent()).toMatch(/^co_/);
    },
  );
});
