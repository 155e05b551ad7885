/**
 * The merchant's walk through the console (issue 11), in Chromium against the real process, at desktop size and on a
 * 390 px phone, signed in as the demo's operator: two orders paid in the shop, one of them twice (its new code, then
 * its expired code, late); both seen in the payments list as they happen (live), the list exported as CSV, the
 * duplicate's timeline and provider record, its refund after a confirmation; a receiver registered and approved at
 * the demo's sandbox portal (the provider's stand-in), then paid through a payment request the portal approves; a
 * cash-out confirmed (a double click makes one) and completed by the portal's bank. axe finds nothing in any state,
 * on the console's sign-in and desk and on the portal; the refund and the cash-out are confirmed by keyboard; below
 * 600 px every table is a stack of cards with its actions in view.
 */
import { readFile } from 'node:fs/promises';
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import {
  ADMIN_TOKEN,
  approveInPortal,
  cnpjFrom,
  createPaymentRequest,
  demoUsers,
  executionState,
  expectNoAxeViolations,
  forgiveSignedOut,
  openBackoffice,
  openPortal,
  requestStatus,
} from './backoffice-helpers';
import { driveOutcome, element, expectResult, openCheckoutPage, pixCode, placeOrder, useE2E, type ContextOptions } from './helpers';

const TTL_SECONDS = 6;
const e2e = useE2E({ env: { ADMIN_TOKEN, CHECKOUT_TTL_SECONDS: String(TTL_SECONDS), CHECKOUT_RATE_PER_MINUTE: '0' } });

const DEVICES: [string, ContextOptions, number][] = [
  ['desktop', {}, 1],
  ['a 390 px phone', { mobile: true }, 2],
];

/** Pays an order's PIX code through the sandbox panel of the shop's checkout page and waits for the receipt. */
async function payNow(page: Page) {
  await element(page).getByRole('button', { name: /^Pix/ }).click();
  await pixCode(page);
  await driveOutcome(page, 'Resultado do PIX', 'Complete');
  await expectResult(page, 'Pagamento confirmado');
}

/** The text of what has focus, through the shadow roots of the back-office's elements. */
const focused = (page: Page) =>
  page.evaluate(() => {
    let active: Element | null = document.activeElement;
    while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
    return active?.textContent?.trim() ?? null;
  });

/** The admin API, for what the page does not show (how many cash-outs exist). */
async function adminGet(path: string) {
  const response = await fetch(`${e2e.app.url}/api/admin${path}`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
  return (await response.json()) as { items: { orderId: string; state: string; idempotencyKey: string }[] };
}

/** At 390 px: the table is a stack of cards (cells as flex rows) and every action button of it lies within the viewport. */
async function expectStackedCards(page: Page, table: Locator) {
  const layout = await table.evaluate((t) => {
    const cell = t.querySelector('tbody td')!;
    return {
      table: getComputedStyle(t).display,
      cell: getComputedStyle(cell).display,
      header: t.querySelector('thead')!.getBoundingClientRect().height,
    };
  });
  expect(layout).toMatchObject({ table: 'block', cell: 'flex' });
  expect(layout.header).toBeLessThanOrEqual(1);
  for (const button of await table.getByRole('button').all()) {
    const box = (await button.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(390);
  }
}

describe.each(DEVICES)('the back-office on %s', (device, options, n) => {
  it('walks payments received, refund, receivers, cash-out: live, keyboard-friendly, axe-clean', { timeout: 180_000 }, async () => {
    const mobile = !!options.mobile;
    const bo = await e2e.newPage(options);
    await openBackoffice(bo, e2e.app);
    await bo.getByRole('heading', { name: 'Entrar no console' }).waitFor();
    await expectNoAxeViolations(bo, 'sign-in');
    // Signed in by keyboard: the e-mail (focused on arrival), Tab, the password, then Enter.
    const { operator } = await demoUsers(e2e.app);
    await bo.keyboard.type(operator.email);
    await bo.keyboard.press('Tab');
    await bo.keyboard.type(operator.password);
    await bo.keyboard.press('Enter');
    const payments = bo.getByRole('region', { name: 'Pagamentos recebidos' });
    await payments.getByRole('button', { name: 'Filtrar' }).waitFor();
    await bo.getByText('Ambiente sandbox').waitFor();
    await expect.poll(() => bo.getByText('Atualização ao vivo').count()).toBe(1);
    expect(await bo.getByTestId('signed-in-role').textContent()).toBe('Operador');
    await expectNoAxeViolations(bo, 'signed in');
    // The signed-out page's first question (who is signed in?) was a 401, by design.
    expect(forgiveSignedOut(e2e.problems)).toBe(1);

    // --- Two orders paid in the shop, the second one twice (its new code, then its expired code, late).
    const shop = await e2e.newPage(options);
    const once = await placeOrder(e2e.app);
    await openCheckoutPage(shop, e2e.app, once);
    await payNow(shop);
    const twice = await placeOrder(e2e.app, [{ sku: 'cafe-especial', quantity: 2 }]);
    await openCheckoutPage(shop, e2e.app, twice);
    await element(shop).getByRole('button', { name: /^Pix/ }).click();
    await pixCode(shop);
    await expectResult(shop, 'Código expirado');
    await element(shop).getByRole('button', { name: 'Gerar novo código' }).click();
    await pixCode(shop);
    await driveOutcome(shop, 'Resultado do PIX', 'Complete');
    await expectResult(shop, 'Pagamento confirmado');
    const payLate = shop.getByRole('button', { name: 'Pagar código expirado' });
    await expect.poll(() => payLate.isEnabled()).toBe(true);
    await payLate.click();
    await expect.poll(() => shop.locator('#sb-result').textContent()).toContain('Código expirado pago com atraso');

    // --- Both appear in the list without a reload (the live stream); the duplicate is flagged.
    const rowsOf = (orderId: string) => payments.locator(`tr[data-order="${orderId}"]`);
    await expect.poll(() => rowsOf(once.orderId).count(), { timeout: 10_000 }).toBe(1);
    await expect.poll(() => rowsOf(twice.orderId).count(), { timeout: 10_000 }).toBe(2);
    const duplicateRow = rowsOf(twice.orderId).filter({ hasText: 'Duplicado' });
    await expect.poll(() => duplicateRow.textContent(), { timeout: 10_000 }).toContain('Pago após o prazo');
    expect(await rowsOf(once.orderId).textContent()).toContain('Pago');
    if (mobile) await expectStackedCards(bo, payments.getByRole('table'));
    await expectNoAxeViolations(bo, 'payments list');

    // Filtered by the order and by the flag.
    await payments.getByRole('searchbox', { name: 'Pedido' }).fill(twice.orderId);
    await payments.getByRole('button', { name: 'Filtrar' }).click();
    await expect.poll(() => payments.locator('tbody tr').count()).toBe(2);
    await payments.getByLabel('Sinais', { exact: true }).selectOption('flagged');
    await payments.getByRole('button', { name: 'Filtrar' }).click();
    await expect.poll(() => payments.locator('tbody tr').count()).toBe(1);

    // --- CSV export of the filtered list, in the machines' form (csv-iso).
    await payments.getByLabel('Formato da exportação').selectOption('csv-iso');
    const [download] = await Promise.all([bo.waitForEvent('download'), payments.getByRole('button', { name: 'Exportar CSV' }).click()]);
    expect(download.suggestedFilename()).toMatch(/^pagamentos-iso-\d{4}-\d\d-\d\d\.csv$/);
    const csv = (await readFile(await download.path(), 'utf8'))
      .replace(/^\uFEFF/, '')
      .trimEnd()
      .split('\r\n');
    expect(csv[0]).toContain('orderId');
    expect(csv).toHaveLength(2);
    expect(csv[1]).toContain(twice.orderId);
    expect(csv[1]).toContain(',true,');
    await payments.getByLabel('Sinais', { exact: true }).selectOption('');
    await payments.getByRole('searchbox', { name: 'Pedido' }).fill('');
    await payments.getByRole('button', { name: 'Filtrar' }).click();
    await expect.poll(() => rowsOf(once.orderId).count()).toBe(1);

    // --- The duplicate's detail: timeline, webhooks, provider record re-read.
    await duplicateRow.getByRole('button', { name: /^Detalhes/ }).click();
    const detail = bo.getByRole('region', { name: `Pagamento do pedido ${twice.orderId}` });
    await detail.getByTestId('timeline').waitFor();
    await expect.poll(() => focused(bo)).toBe(`Pagamento do pedido ${twice.orderId}`);
    expect(await detail.getByTestId('timeline').textContent()).toContain('webhook do provedor');
    expect(await detail.getByTestId('timeline').textContent()).toContain('pagamento após o prazo');
    // Every webhook received about it, with what became of each.
    expect(await detail.getByTestId('webhooks').textContent()).toContain('mudou a situação');
    expect(await detail.textContent()).toContain('Duplicado de');
    await detail.getByRole('button', { name: 'Reler no provedor' }).click();
    await expect.poll(() => detail.getByTestId('provider-record').textContent()).toContain('Concluída');
    await expectNoAxeViolations(bo, 'payment detail');

    // --- Its refund (all of it, the amount offered): a confirmation first, then one cash-out to the payer, linked to
    // the checkout (by keyboard).
    const refund = detail.getByRole('region', { name: 'Reembolso', exact: true });
    await refund.getByTestId('refund-summary').waitFor();
    await refund.getByRole('button', { name: 'Revisar reembolso' }).click();
    const confirmation = refund.getByTestId('refund-confirmation');
    await confirmation.waitFor();
    await expect.poll(() => focused(bo)).toBe('Confirme o reembolso');
    const facts = (await confirmation.textContent())!;
    for (const label of ['Destinatário', 'Chave PIX', 'Valor', 'Tarifa']) expect(facts).toContain(label);
    expect(facts).toContain('***.');
    expect(facts).toMatch(/R\$\s*\d/);
    await expectNoAxeViolations(bo, 'refund confirmation');
    await refund.getByRole('button', { name: 'Confirmar reembolso' }).focus();
    await bo.keyboard.press('Enter');
    await expect.poll(() => refund.getByTestId('refund').count()).toBe(1);
    // Nothing is left to refund: no form any more.
    await expect.poll(() => refund.getByRole('button', { name: 'Revisar reembolso' }).count()).toBe(0);
    await expect.poll(() => duplicateRow.textContent()).toContain('Reembolso');
    await expectNoAxeViolations(bo, 'refunded');

    // --- A receiver registered and approved at the sandbox portal (the provider's stand-in, in the console's browser:
    // its session opens it), then paid through a payment request the portal approves.
    expect(await bo.getByRole('button', { name: /Aprovar|Cadastrar recebedor/ }).count()).toBe(0);
    const portal = await openPortal(bo.context(), e2e.app);
    await expectNoAxeViolations(portal, 'portal');
    const company = `Oficina Nova ${n}`;
    const account = `2468${n}-0`;
    await portal.getByRole('button', { name: 'Cadastrar recebedor' }).click();
    await expect.poll(() => portal.getByLabel('Nome fantasia').getAttribute('aria-invalid')).toBe('true');
    await portal.getByLabel('Nome fantasia').fill(company);
    await portal.getByLabel('CNPJ').fill(cnpjFrom(`4455566600${String(n).padStart(2, '0')}`));
    await portal.getByLabel('Código do banco').fill('341');
    await portal.getByLabel('Nome do banco').fill('Itaú Unibanco');
    await portal.getByLabel('Agência').fill('0001');
    await portal.getByLabel('Número da conta').fill(account);
    await portal.getByRole('button', { name: 'Cadastrar recebedor' }).click();
    const registered = portal.locator(`tr[data-receiver="${company}"]`);
    await expect.poll(() => registered.getByTestId('receiver-status').textContent()).toBe('Pendente');
    await expectNoAxeViolations(portal, 'receiver registered');
    await registered.getByRole('button', { name: `Aprovar recebedor ${company}` }).click();
    await expect.poll(() => registered.getByTestId('receiver-status').textContent()).toBe('Aprovado');

    const receivers = bo.getByRole('region', { name: 'Recebedores' });
    await receivers.getByLabel('Itens por página').selectOption('20');
    await expect.poll(() => receivers.getByRole('table').first().textContent()).toContain(company);
    await receivers.getByRole('button', { name: `Ver contas de ${company}` }).click();
    await receivers.getByRole('heading', { name: `Contas de ${company}` }).waitFor();
    if (mobile) await expectStackedCards(bo, receivers.getByRole('table').nth(1));
    await expectNoAxeViolations(bo, 'receiver accounts');
    await receivers.getByRole('button', { name: `Pagar nesta conta: ${account} (Itaú Unibanco)` }).click();
    await createPaymentRequest(bo, '250,00', `Serviço da ${company}`);
    await expect.poll(() => requestStatus(bo)).toBe('Pendente');
    await approveInPortal(portal, `Serviço da ${company}`);
    // The console follows the request every 2 s: the portal's approval shows up there on its own.
    await expect.poll(() => requestStatus(bo), { timeout: 10_000 }).toBe('Aprovado');
    await expect.poll(() => executionState(bo), { timeout: 20_000 }).toBe('Concluída');
    await expectNoAxeViolations(bo, 'payment request executed');

    // --- A cash-out, confirmed first; a double click on the confirmation makes one.
    const before = (await adminGet('/cashouts?limit=50')).items.length;
    await bo.getByRole('link', { name: 'Transferências' }).focus();
    await bo.keyboard.press('Enter');
    const cashOut = bo.locator('bo-cashout-form');
    await cashOut.getByLabel('Tipo de chave').selectOption('EMAIL');
    await cashOut.getByLabel('Chave PIX').fill(`fornecedor${n}@exemplo.com.br`);
    await cashOut.getByLabel('Nome do destinatário').fill('Maria da Silva');
    await cashOut.getByLabel('CPF do destinatário').fill('529.982.247-25');
    await cashOut.getByLabel('Valor (R$)').fill('12,34');
    await cashOut.getByRole('button', { name: 'Revisar transferência' }).click();
    const summary = cashOut.getByTestId('cashout-confirmation');
    await summary.waitFor();
    // Focus is on the confirmation's heading; Tab reaches its button next.
    await expect.poll(() => focused(bo)).toBe('Confirme a transferência');
    await bo.keyboard.press('Tab');
    expect(await focused(bo)).toBe('Confirmar transferência');
    const shown = (await summary.textContent())!;
    expect(shown).toContain('Maria da Silva');
    expect(shown).toContain(`fornecedor${n}@exemplo.com.br`);
    expect(shown).toMatch(/Valor\s*R\$\s*12,34/);
    expect(shown).toMatch(/Tarifa\s*R\$\s*0,62/);
    await expectNoAxeViolations(bo, 'cash-out confirmation');
    await cashOut.getByRole('button', { name: 'Confirmar transferência' }).dblclick();
    const recent = bo.getByRole('region', { name: 'Transferências recentes' });
    const row = recent.locator('tbody tr').filter({ hasText: `fornecedor${n}@exemplo.com.br` });
    await expect.poll(() => row.count()).toBe(1);
    expect((await adminGet('/cashouts?limit=50')).items.length).toBe(before + 1);
    if (mobile) await expectStackedCards(bo, recent.getByRole('table'));
    await expectNoAxeViolations(bo, 'cash-out sent');

    // The portal's bank completes it (the console has no such button); the console's list hears it live.
    expect(await row.getByRole('button').count()).toBe(0);
    const moving = portal.locator('#cashouts tbody tr').filter({ hasText: `fornecedor${n}@exemplo.com.br` });
    await expect.poll(() => moving.count(), { timeout: 10_000 }).toBe(1);
    await expectNoAxeViolations(portal, 'portal cash-outs');
    await moving.getByRole('button', { name: /^Concluir transferência de R\$\s12,34 para Maria da Silva$/ }).click();
    await expect.poll(() => row.getByTestId('cashout-state').textContent(), { timeout: 10_000 }).toBe('Concluída');
    await expectNoAxeViolations(bo, `cash-out completed (${device})`);
  });
});
