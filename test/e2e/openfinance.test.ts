import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { chooseMethod, element, expectResult, openCheckoutPage, panelCheckoutId, placeOrder, readOrder, useE2E } from './helpers';

const e2e = useE2E();

/** Chooses OpenFinance, types the payer's CPF, submits, and lands on the sandbox bank page. */
async function goToBank(page: Page, cpf: string): Promise<void> {
  await chooseMethod(page, 'Open Finance');
  await element(page).getByLabel('CPF', { exact: true }).pressSequentially(cpf);
  await element(page).getByRole('button', { name: 'Continuar no meu banco' }).click();
  await page.waitForURL(/\/sandbox\/.*\/checkout\/init\//);
}

describe('storefront with an OpenFinance payment', () => {
  it('goes to the bank page, comes back approved and resumes the same checkout as Completed', async () => {
    const page = await e2e.newPage();
    const order = await placeOrder(e2e.app, [{ sku: 'caneca', quantity: 1 }]);
    const { orderId } = order;
    await openCheckoutPage(page, e2e.app, order);

    await goToBank(page, '529.982.247-25');
    await expect(page.getByText('R$ 54,90').count()).resolves.toBe(1);
    const [created] = (await readOrder(e2e.app, orderId)).checkouts;
    expect(created).toMatchObject({ method: 'openfinance', state: 'Registered' });

    await page.getByRole('button', { name: 'Aprovar pagamento' }).click();
    await page.waitForURL(`${e2e.app.url}/checkout.html?order=${orderId}`);
    await expectResult(page, 'Pagamento confirmado');
    expect(await panelCheckoutId(page)).toBe(created!.id);

    const { checkouts } = await readOrder(e2e.app, orderId);
    expect(checkouts).toEqual([expect.objectContaining({ id: created!.id, state: 'Completed' })]);
  });

  it('comes back from a refused payment to the failure screen', async () => {
    const page = await e2e.newPage();
    await openCheckoutPage(page, e2e.app, await placeOrder(e2e.app));

    await goToBank(page, '529.982.247-25');
    await page.getByRole('button', { name: 'Recusar pagamento' }).click();
    await page.waitForURL(/\/checkout\.html\?order=/);
    await expectResult(page, 'O pagamento não foi concluído');
  });

  it('keeps the payer on the form while the CPF is invalid', async () => {
    const page = await e2e.newPage();
    const order = await placeOrder(e2e.app);
    const { orderId } = order;
    await openCheckoutPage(page, e2e.app, order);
    await chooseMethod(page, 'Open Finance');
    await element(page).getByLabel('CPF', { exact: true }).pressSequentially('529.982.247-24');
    await element(page).getByRole('button', { name: 'Continuar no meu banco' }).click();

    await element(page).getByText('CPF inválido. Confira os 11 dígitos.').waitFor();
    expect(page.url()).toContain('/checkout.html');
    expect((await readOrder(e2e.app, orderId)).checkouts).toEqual([]);
  });
});
