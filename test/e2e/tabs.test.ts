import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import {
  chooseMethod,
  driveOutcome,
  element,
  expectResult,
  openCheckoutPage,
  panelTransactionId,
  pixCode,
  placeOrder,
  readOrder,
  useE2E,
  type PlacedOrder,
} from './helpers';

const e2e = useE2E();

/** Opens the order's checkout page, picks PIX and returns what the page shows: code and transaction id. */
async function payWithPix(page: Page, order: PlacedOrder) {
  await openCheckoutPage(page, e2e.app, order);
  await chooseMethod(page, 'Pix');
  return { code: await pixCode(page), transactionId: await panelTransactionId(page) };
}

/** Opens the order's checkout page where a checkout is live already: the element resumes it without a choice. */
async function resume(page: Page, order: PlacedOrder) {
  await openCheckoutPage(page, e2e.app, order);
  return { code: await pixCode(page), transactionId: await panelTransactionId(page) };
}

describe('one order open in several tabs', () => {
  it('shows the same checkout in two tabs of one browser and in a second browser, and completes all of them', async () => {
    const order = await placeOrder(e2e.app);
    const { orderId } = order;
    const firstContext = await e2e.newContext();
    const tabA = await firstContext.newPage();
    const tabB = await firstContext.newPage();
    const otherBrowser = await e2e.newPage();

    const a = await payWithPix(tabA, order);
    // Tabs keep their own sessionStorage, so tab B and the other browser ask the BFF for the order's live checkout
    // before showing the chooser, and resume it.
    const b = await resume(tabB, order);
    const c = await resume(otherBrowser, order);
    expect(b).toEqual(a);
    expect(c).toEqual(a);
    expect((await readOrder(e2e.app, orderId)).checkouts).toHaveLength(1);

    await driveOutcome(otherBrowser, 'Resultado do PIX', 'Complete');
    await Promise.all([tabA, tabB, otherBrowser].map((page) => expectResult(page, 'Pagamento confirmado')));
    for (const page of [tabA, tabB, otherBrowser]) {
      await expect.poll(() => page.locator('#sb-state').textContent()).toBe('Completed');
    }
  });

  it("shows in a tab's panel the checkout another tab created, before its element picks a method", async () => {
    const order = await placeOrder(e2e.app);
    const first = await e2e.newPage();
    const { transactionId } = await payWithPix(first, order);

    const second = await e2e.newPage();
    await openCheckoutPage(second, e2e.app, order);
    expect(await panelTransactionId(second)).toBe(transactionId);
    await driveOutcome(second, 'Resultado do PIX', 'Complete');

    await expectResult(first, 'Pagamento confirmado');
    // The second tab's panel follows the order through the webhook log.
    await expect.poll(() => second.locator('#sb-state').textContent()).toBe('Completed');
  });
});

describe('a page opened with only the order id', () => {
  it("is told at once it cannot start the order (no method offered, nothing sent), and the shopper's page then pays it with Pix", async () => {
    const order = await placeOrder(e2e.app);
    // The attacker knows the order id (the demo's order page answers anyone), not the token the shop gave the shopper.
    const attacker = await e2e.newPage();
    await openCheckoutPage(attacker, e2e.app, { orderId: order.orderId });
    // Without a token the element says so before offering any method: nothing to pick, nothing sent.
    await expectResult(attacker, 'Não foi possível iniciar o pagamento');
    expect(await element(attacker).locator('[part="message"]').textContent()).toContain('Não conseguimos confirmar que este pedido é seu');
    expect(await element(attacker).locator('[part="method-button"], input').count()).toBe(0);
    expect(attacker.url()).toContain('/checkout.html');
    expect((await readOrder(e2e.app, order.orderId)).checkouts).toEqual([]);
    expect(e2e.problems.problems.splice(0)).toEqual([]);

    const shopper = await e2e.newPage();
    const { transactionId } = await payWithPix(shopper, order);
    // The token left the address as soon as the page took it.
    expect(shopper.url()).toBe(`${e2e.app.url}/checkout.html?order=${order.orderId}`);
    expect((await readOrder(e2e.app, order.orderId)).checkouts).toEqual([expect.objectContaining({ method: 'pix', transactionId })]);
  });
});
