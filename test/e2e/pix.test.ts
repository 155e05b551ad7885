import { describe, expect, it } from 'vitest';
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
  scanQr,
  useE2E,
} from './helpers';

const e2e = useE2E();

describe('storefront with a PIX payment', () => {
  it('goes from the shop to a completed PIX payment driven by the sandbox panel', async () => {
    const page = await e2e.newPage();
    await page.goto(`${e2e.app.url}/`);
    const coffee = page.getByRole('listitem').filter({ hasText: 'Café especial 250 g' });
    await coffee.getByRole('button', { name: 'Adicionar' }).click();
    await coffee.getByRole('button', { name: 'Adicionar' }).click();
    await expect.poll(() => page.locator('#cart-total').textContent()).toMatch(/^R\$\s79,80$/);

    await page.getByRole('button', { name: 'Finalizar compra' }).click();
    await page.waitForURL(/\/checkout\.html\?order=A-/);
    const orderId = new URL(page.url()).searchParams.get('order')!;
    await expect.poll(() => page.locator('#order-amount').textContent()).toMatch(/^R\$\s79,80$/);
    // The shop handed the order token over in the fragment; the page took it and wiped it from the address.
    expect(page.url()).toBe(`${e2e.app.url}/checkout.html?order=${orderId}`);

    await chooseMethod(page, 'Pix');
    const code = await pixCode(page);
    const transactionId = await panelTransactionId(page);
    expect(code).toMatch(/^000201/);
    expect(code).toContain('br.gov.bcb.pix');
    expect(code).toContain(transactionId);
    // The QR drawn on screen reads back as that very code.
    expect(await scanQr(page)).toBe(code);

    await driveOutcome(page, 'Resultado do PIX', 'Complete');
    await expectResult(page, 'Pagamento confirmado');
    await expect.poll(() => page.locator('#sb-state').textContent()).toBe('Completed');
    const logged = page.locator('#sb-log li').filter({ hasText: transactionId });
    await expect.poll(() => logged.first().textContent(), { timeout: 5_000 }).toMatch(/Completed\s*applied/);

    const order = await readOrder(e2e.app, orderId);
    expect(order.checkouts).toEqual([expect.objectContaining({ method: 'pix', state: 'Completed', transactionId })]);
  });

  it.each([
    ['Error', 'O pagamento não foi concluído', 'Error', 'Tentar novamente'],
    ['Cancel', 'Pagamento cancelado', 'Cancelled', 'Pagar novamente'],
    ['Reverse', 'Pagamento estornado', 'Reversed', 'Pagar novamente'],
  ])('shows its screen when the sandbox answers %s', async (operation, title, state, action) => {
    const page = await e2e.newPage();
    await openCheckoutPage(page, e2e.app, await placeOrder(e2e.app));
    await chooseMethod(page, 'Pix');
    await pixCode(page);

    await driveOutcome(page, 'Resultado do PIX', operation);
    await expectResult(page, title);
    await expect.poll(() => page.locator('#sb-state').textContent()).toBe(state);
    await expect(element(page).getByRole('button', { name: action }).isVisible()).resolves.toBe(true);
    // A final state takes no more outcomes.
    expect(await page.getByRole('region', { name: 'Resultado do PIX' }).getByRole('button', { name: 'Complete' }).isDisabled()).toBe(true);
  });

  it('resumes the same checkout after a reload mid-payment, then completes it', async () => {
    const page = await e2e.newPage();
    const order = await placeOrder(e2e.app);
    const { orderId } = order;
    await openCheckoutPage(page, e2e.app, order);
    await chooseMethod(page, 'Pix');
    const code = await pixCode(page);
    const transactionId = await panelTransactionId(page);

    await page.reload();
    // No chooser this time: the element resumes the checkout it remembered for this order.
    expect(await pixCode(page)).toBe(code);
    expect(await panelTransactionId(page)).toBe(transactionId);

    await driveOutcome(page, 'Resultado do PIX', 'Complete');
    await expectResult(page, 'Pagamento confirmado');
    expect((await readOrder(e2e.app, orderId)).checkouts).toHaveLength(1);
  });
});
