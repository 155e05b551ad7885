// The shopper's walk through <pix-checkout> on the real demo server, at desktop size and on a 390 px touch phone:
// chooser, PIX awaiting with its countdown, copied, the receipt, the Error / Cancelled / Reversed screens, a refused
// CPF then another, and a second tab and another device. axe finds nothing in any of these states.
import { describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import {
  axeViolations,
  driveOutcome,
  element,
  expectResult,
  openCheckoutPage,
  panelTransactionId,
  pixCode,
  placeOrder,
  useE2E,
  type ContextOptions,
  type PlacedOrder,
} from './helpers';

// Creation is rate-limited per address; this file makes many checkouts from one.
const e2e = useE2E({ env: { CHECKOUT_RATE_PER_MINUTE: '0' } });

const DEVICES: [string, ContextOptions][] = [
  ['desktop', { clipboard: true }],
  ['a 390 px touch phone', { mobile: true, touch: true, clipboard: true }],
];

async function expectAccessible(page: Page): Promise<void> {
  const violations = await axeViolations(page);
  if (violations) expect(violations, 'axe violations').toEqual([]);
}

/** The id of what has focus inside the element's shadow root, or its heading's text when the heading has it. */
const focusInElement = (page: Page) =>
  page.evaluate(() => {
    const active = document.querySelector('pix-checkout')!.shadowRoot!.activeElement;
    return active?.id === 'screen-title' ? `heading: ${active.textContent.trim()}` : (active?.id ?? null);
  });

const box = async (locator: Locator) => (await locator.boundingBox())!;

describe.each(DEVICES)('the shopper on %s', (_device, device) => {
  const press = (locator: Locator) => (device.touch ? locator.tap() : locator.click());

  /** Opens a fresh order's checkout page and picks a method on the chooser. */
  async function choose(page: Page, method: 'Pix' | 'Open Finance', order?: PlacedOrder): Promise<PlacedOrder> {
    const placed = order ?? (await placeOrder(e2e.app));
    await openCheckoutPage(page, e2e.app, placed);
    await press(element(page).getByRole('button', { name: new RegExp(`^${method}`) }));
    return placed;
  }

  it('chooses PIX, sees the countdown, copies the code and ends on the receipt', async () => {
    const page = await e2e.newPage(device);
    await openCheckoutPage(page, e2e.app, await placeOrder(e2e.app));
    const chooser = element(page).getByRole('group', { name: 'Como você quer pagar?' });
    await chooser.waitFor();
    // The shop says who is paid before anything else (its merchant-name attribute).
    await element(page).locator('[part="merchant"]').getByText('Pagamento para Armazém Cerrado').waitFor();
    expect(await element(page).locator('[data-method="pix"] svg.icon-pix').count()).toBe(1);
    expect(
      await element(page)
        .getByRole('button', { name: /^Open Finance/ })
        .count(),
    ).toBe(1);
    await expectAccessible(page);

    await press(element(page).getByRole('button', { name: /^Pix/ }));
    const code = await pixCode(page);
    await expect.poll(() => focusInElement(page)).toBe('heading: Pague com Pix');
    const countdown = element(page).locator('[part="countdown"]');
    await expect
      .poll(async () => (await countdown.textContent())!.replace(/\s+/g, ' ').trim())
      .toMatch(/^Pague em até (29 min 5\d s|30 min 00 s) \(até \d\d:\d\d\)$/);
    expect(await element(page).locator('[part="code"]').innerText()).toBe(`${code.slice(0, 8)}${code.slice(-4)}`);
    const copy = element(page).getByRole('button', { name: 'Copiar código Pix' });
    if (device.touch) {
      // Copy first, above the fold: the amount, the countdown and the copy button fit the phone's screen.
      for (const part of [element(page).locator('[part="amount"]'), countdown, copy]) {
        const { y, height } = await box(part);
        expect(y).toBeGreaterThanOrEqual(0);
        expect(y + height).toBeLessThanOrEqual(844);
      }
      expect((await box(copy)).y).toBeLessThan((await box(element(page).locator('svg[part="qr"]'))).y);
    } else {
      // The numbered steps beside the QR.
      const qr = await box(element(page).locator('svg[part="qr"]'));
      expect((await box(element(page).locator('.how'))).x).toBeGreaterThanOrEqual(qr.x + qr.width);
    }
    await expectAccessible(page);

    await press(copy);
    await element(page).getByRole('button', { name: 'Copiado' }).waitFor();
    await element(page).getByText('Agora abra o app do seu banco e cole em Pix Copia e Cola.', { exact: true }).waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(code);
    await expectAccessible(page);

    const transactionId = await panelTransactionId(page);
    await driveOutcome(page, 'Resultado do PIX', 'Complete');
    await expectResult(page, 'Pagamento confirmado');
    const receipt = element(page).locator('[part="receipt"]');
    expect(await receipt.innerText()).toMatch(/Valor\s+R\$\s39,90/);
    expect(await receipt.innerText()).toMatch(/Data\s+\d{2}\/\d{2}\/\d{4},? \d{2}:\d{2}/);
    expect(await receipt.innerText()).toContain(transactionId);
    await expectAccessible(page);
    // The receipt's way on is the shop's continue-url: back to the storefront.
    await press(element(page).getByRole('link', { name: 'Continuar' }));
    await page.waitForURL(`${e2e.app.url}/`);
  });

  it.each([
    // A refusal says what was refused, and where, not "Houve um problema".
    ['Error', 'O pagamento não foi concluído', 'O banco recusou este Pix e ele não foi processado.', 'Tentar novamente'],
    ['Cancel', 'Pagamento cancelado', 'Este pagamento foi cancelado e nada foi cobrado por ele.', 'Pagar novamente'],
    ['Reverse', 'Pagamento estornado', 'O valor foi devolvido para a conta que pagou', 'Pagar novamente'],
  ])('shows its own screen when the sandbox answers %s', async (operation, title, text, action) => {
    const page = await e2e.newPage(device);
    await choose(page, 'Pix');
    await pixCode(page);
    await driveOutcome(page, 'Resultado do PIX', operation);
    await expectResult(page, title);
    expect(await element(page).locator('[part="message"]').innerText()).toContain(text);
    await element(page).getByRole('button', { name: action }).waitFor();
    await element(page).getByRole('button', { name: 'Escolher outra forma de pagamento' }).waitFor();
    await expectAccessible(page);
  });

  it('gets a refused CPF, uses another one and goes to the bank', async () => {
    const page = await e2e.newPage(device);
    await choose(page, 'Open Finance');
    await element(page).getByLabel('CPF', { exact: true }).pressSequentially('900.000.001-75');
    await press(element(page).getByRole('button', { name: 'Continuar no meu banco' }));
    await expectResult(page, 'Não foi possível usar este CPF');
    await expect.poll(() => focusInElement(page)).toBe('heading: Não foi possível usar este CPF');
    expect(await element(page).getByRole('button', { name: 'Pagar com Pix' }).count()).toBe(1);
    await expectAccessible(page);
    // The browser logs the refusal's 422, the expected answer here; anything else is still a failure.
    expect(e2e.problems.problems.splice(0)).toEqual([expect.stringMatching(/status of 422 .*\/api\/checkouts/)]);

    await press(element(page).getByRole('button', { name: 'Usar outro CPF' }));
    await expect.poll(() => focusInElement(page)).toBe('cpf');
    expect(await element(page).getByLabel('CPF', { exact: true }).inputValue()).toBe('');
    await page.keyboard.type('529.982.247-25');
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/sandbox\/.*\/checkout\/init\//);
  });

  it('resumes the live checkout in a second tab, and another device that chose Open Finance is offered the live PIX', async () => {
    const order = await placeOrder(e2e.app);
    const otherDevice = await e2e.newPage(device);
    await openCheckoutPage(otherDevice, e2e.app, order);
    await element(otherDevice)
      .getByRole('button', { name: /^Open Finance/ })
      .waitFor();

    const context = await e2e.newContext(device);
    const tabA = await context.newPage();
    await choose(tabA, 'Pix', order);
    const code = await pixCode(tabA);

    const tabB = await context.newPage();
    await openCheckoutPage(tabB, e2e.app, order);
    expect(await pixCode(tabB)).toBe(code);
    expect(await element(tabB).locator('[part="chooser"]').count()).toBe(0);

    await press(element(otherDevice).getByRole('button', { name: /^Open Finance/ }));
    await element(otherDevice).getByLabel('CPF', { exact: true }).pressSequentially('529.982.247-25');
    await press(element(otherDevice).getByRole('button', { name: 'Continuar no meu banco' }));
    await expectResult(otherDevice, 'Já existe um pagamento em andamento');
    expect(otherDevice.url()).toContain('/checkout.html');
    await expectAccessible(otherDevice);
    await press(element(otherDevice).getByRole('button', { name: 'Continuar com Pix' }));
    expect(await pixCode(otherDevice)).toBe(code);

    await driveOutcome(tabA, 'Resultado do PIX', 'Complete');
    await Promise.all([tabA, tabB, otherDevice].map((page) => expectResult(page, 'Pagamento confirmado')));
  });
});
