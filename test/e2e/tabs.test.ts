import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import {
  chooseMethod,
  driveOutcome,
  expectResult,
  openCheckoutPage,
  panelTransactionId,
  pixCode,
  placeOrder,
  readOrder,
  useE2E,
} from './helpers';

const e2e = useE2E();

/** Opens the order's checkout page, picks PIX and returns what the page shows: code and transaction id. */
async function payWithPix(page: Page, orderId: string) {
  await openCheckoutPage(page, e2e.app, orderId);
  await chooseMethod(page, 'PIX');
  return { code: await pixCode(page), transactionId: await panelTransactionId(page) };
}

describe('one order open in several tabs', () => {
  it('shows the same checkout in two tabs of one browser and in a second browser, and completes all of them', async () => {
    const orderId = await placeOrder(e2e.app);
    const firstContext = await e2e.newContext();
    const tabA = await firstContext.newPage();
    const tabB = await firstContext.newPage();
    const otherBrowser = await e2e.newPage();

    const a = await payWithPix(tabA, orderId);
    // Tabs keep their own sessionStorage, so tab B and the other browser ask the BFF, which returns the live checkout.
    const b = await payWithPix(tabB, orderId);
    const c = await payWithPix(otherBrowser, orderId);
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
    const orderId = await placeOrder(e2e.app);
    const first = await e2e.newPage();
    const { transactionId } = await payWithPix(first, orderId);

    const second = await e2e.newPage();
    await openCheckoutPage(second, e2e.app, orderId);
    expect(await panelTransactionId(second)).toBe(transactionId);
    await driveOutcome(second, 'Resultado do PIX', 'Complete');

    await expectResult(first, 'Pagamento confirmado');
    // The second tab's element still offers the methods, but its panel follows the order through the webhook log.
    await expect.poll(() => second.locator('#sb-state').textContent()).toBe('Completed');
  });
});
