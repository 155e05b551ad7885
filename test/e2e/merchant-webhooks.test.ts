/**
 * The demo shop as the merchant's backend, in the browser: the checkout page shows the order's status as the shop
 * knows it from the product's signed webhooks ("Aguardando pagamento", then "Pago" once the verified
 * checkout.completed arrived), and the sandbox panel lists that delivery as verified.
 */
import { describe, expect, it } from 'vitest';
import { chooseMethod, driveOutcome, expectResult, openCheckoutPage, pixCode, placeOrder, useE2E } from './helpers';

const e2e = useE2E();

describe("the shop's own webhook receiver", () => {
  it('marks the order paid from the signed checkout.completed it received, and lists the delivery', async () => {
    const page = await e2e.newPage();
    const order = await placeOrder(e2e.app);
    await openCheckoutPage(page, e2e.app, order);
    const status = page.locator('#order-payment-status');
    await expect.poll(() => status.textContent()).toBe('Aguardando pagamento');

    await chooseMethod(page, 'Pix');
    await pixCode(page);
    await driveOutcome(page, 'Resultado do PIX', 'Complete');
    await expectResult(page, 'Pagamento confirmado');
    await expect.poll(() => status.textContent(), { timeout: 10_000 }).toBe('Pago');

    const delivery = page.getByRole('region', { name: 'Webhooks da loja' }).getByRole('listitem').filter({ hasText: order.orderId });
    await expect.poll(() => delivery.first().textContent()).toMatch(/verificado\s*checkout\.completed/);
    expect(e2e.app.output()).toContain('/demo/api/merchant-webhooks');
  });
});
