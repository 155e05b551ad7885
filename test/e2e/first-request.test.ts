/**
 * The demo's checkout page sends the element's first question (the order lookup) from its own script, which it lists
 * before the element's, and the element reads that answer instead of asking again: the lookup does not wait for the
 * element's larger script to arrive and run. (The payment link page does the same: pay-link.test.ts.)
 */
import { describe, expect, it } from 'vitest';
import { chooseMethod, openCheckoutPage, pixCode, placeOrder, useE2E } from './helpers';

const e2e = useE2E();

describe("the demo checkout page's first request", () => {
  it('is the order lookup, sent once, by the page, whose script comes before the element’s', { timeout: 60_000 }, async () => {
    const order = await placeOrder(e2e.app);
    const page = await e2e.newPage();
    const lookups: string[] = [];
    page.on('request', (request) => {
      if (request.url().endsWith(`/api/orders/${order.orderId}/checkout`)) lookups.push(request.method());
    });
    await openCheckoutPage(page, e2e.app, order);
    const scripts = await page.evaluate(() =>
      [...document.querySelectorAll('script[type="module"]')].map((s) => new URL((s as HTMLScriptElement).src).pathname),
    );
    expect(scripts).toEqual(['/assets/checkout.js', '/widget/pix-checkout.js']);
    await chooseMethod(page, 'Pix');
    expect(await pixCode(page)).toMatch(/^000201/);
    expect(lookups).toEqual(['POST']);
  });
});
