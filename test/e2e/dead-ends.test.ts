// Point 4, no dead ends, in the demo shop: the element checks before it asks, and a failure no retry can fix leads
// back to the shop. (The demo page's own "Pedido não encontrado" without empty cards under it: csp.test.ts.)
import { describe, expect, it } from 'vitest';
import { axeViolations, element, openCheckoutPage, placeOrder, useE2E } from './helpers';

const e2e = useE2E();

describe('the checkout page with no dead ends', () => {
  for (const [name, options] of [
    ['a desktop', {}],
    ['a 390 px touch phone', { mobile: true, touch: true }],
  ] as const) {
    it(`says a missing order token before any method, and leads back to the shop (${name})`, async () => {
      const order = await placeOrder(e2e.app);
      const page = await e2e.newPage(options);
      // The shop handed no token over (no fragment): the page sets no order-token.
      await openCheckoutPage(page, e2e.app, { orderId: order.orderId });
      await element(page).locator('[part="message"]', { hasText: 'Não conseguimos confirmar que este pedido é seu' }).waitFor();
      expect(await element(page).locator('[part="method-button"], input').count()).toBe(0);
      const violations = await axeViolations(page);
      if (violations) expect(violations, 'axe violations').toEqual([]);
      const back = element(page).getByRole('link', { name: 'Voltar para a loja' });
      if ('mobile' in options) {
        // The only action, full width on a phone.
        const [box, content] = await Promise.all([back.boundingBox(), element(page).locator('[part="result"]').boundingBox()]);
        expect(box!.width).toBeGreaterThan(content!.width * 0.8);
      }
      await back.click();
      await page.waitForURL(`${e2e.app.url}/`);
    });
  }
});
