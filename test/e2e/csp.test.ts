import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { chooseMethod, expectResult, driveOutcome, openCheckoutPage, pixCode, placeOrder, useE2E } from './helpers';

const e2e = useE2E();

/** Whether the page scrolls sideways: at 390 px nothing may stick out. */
const overflowsSideways = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);

describe('the demo pages under their strict CSP', () => {
  it('notices an inline script blocked by the policy (the collector itself works)', async () => {
    const page = await e2e.newPage();
    await page.goto(`${e2e.app.url}/`);
    const header = (await page.request.get(`${e2e.app.url}/`)).headersArray();
    expect(header.find((h) => h.name.toLowerCase() === 'content-security-policy')?.value).toContain("script-src 'self'");

    await page.evaluate(() => {
      const script = document.createElement('script');
      script.textContent = 'document.title = "inline ran"';
      document.body.append(script);
    });
    await expect.poll(() => e2e.problems.problems.length).toBeGreaterThan(0);
    expect(await page.title()).not.toBe('inline ran');
    expect(e2e.problems.problems.join('\n')).toMatch(/script-src/);
    e2e.problems.problems.splice(0);
  });

  it('runs the storefront and the checkout at 390 px wide with no error, violation or sideways scroll', async () => {
    const page = await e2e.newPage({ mobile: true });
    await page.goto(`${e2e.app.url}/`);
    await page.getByRole('listitem').filter({ hasText: 'Rapadura artesanal' }).getByRole('button', { name: 'Adicionar' }).click();
    await page.getByRole('button', { name: 'Aumentar Rapadura artesanal' }).click();
    expect(await overflowsSideways(page)).toBe(false);

    await page.getByRole('button', { name: 'Finalizar compra' }).click();
    await page.waitForURL(/\/checkout\.html\?order=/);
    await chooseMethod(page, 'Pix');
    await pixCode(page);
    expect(await overflowsSideways(page)).toBe(false);
    await driveOutcome(page, 'Resultado do PIX', 'Complete');
    await expectResult(page, 'Pagamento confirmado');
    expect(await overflowsSideways(page)).toBe(false);
  });

  it('tells the visitor when the order does not exist', async () => {
    const page = await e2e.newPage();
    await openCheckoutPage(page, e2e.app, { orderId: 'A-MISSING' });
    await page.getByText('Pedido não encontrado.').waitFor();
    expect(await page.locator('pix-checkout').count()).toBe(0);
    // No empty summary and payment cards under the notice: `hidden` wins over the grid's display.
    for (const selector of ['#checkout-content', '.order-summary', '.card.payment']) {
      expect(await page.locator(selector).isVisible(), selector).toBe(false);
    }
    // The browser logs the page's own 404, the expected answer here; anything else is still a failure.
    expect(e2e.problems.problems.splice(0)).toEqual([expect.stringMatching(/status of 404 .*\/checkout\.html\?order=A-MISSING/)]);
  });

  it('shows the order summary as the server priced it', async () => {
    const order = await placeOrder(e2e.app, [{ sku: 'rapadura', quantity: 3 }]);
    const page = await e2e.newPage();
    await openCheckoutPage(page, e2e.app, order);
    await expect.poll(() => page.locator('#order-amount').textContent()).toMatch(/^R\$\s36,75$/);
  });
});
