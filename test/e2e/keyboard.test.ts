// A shopper who uses only the keyboard pays an order from the shop's first page to the receipt and back: Tab, Enter
// and typing, never the mouse. Each new screen of the element takes focus on its heading, so the next Tab goes on
// from there. The sandbox panel's "Complete" (the payer's bank) is pressed by keyboard too.
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { axeViolations, element, expectResult, useE2E } from './helpers';

const e2e = useE2E();

/** What has focus, through shadow roots: "tag: accessible text". */
function focused(page: Page): Promise<string> {
  return page.evaluate(() => {
    let active = document.activeElement;
    while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
    if (!active) return '';
    const text = active.getAttribute('aria-label') || active.textContent || '';
    return `${active.tagName.toLowerCase()}: ${text.trim().replace(/\s+/g, ' ')}`;
  });
}

/** Presses Tab until the focused control matches; fails naming what had focus last. */
async function tabTo(page: Page, wanted: RegExp, most = 40): Promise<void> {
  for (let presses = 0; presses < most; presses++) {
    await page.keyboard.press('Tab');
    if (wanted.test(await focused(page))) return;
  }
  throw new Error(`Tab never reached ${String(wanted)}; focus ended on "${await focused(page)}"`);
}

describe('a keyboard-only shopper', () => {
  it('adds a product, goes to payment, pays by PIX, reads the receipt and goes back to the shop', async () => {
    const page = await e2e.newPage();
    await page.goto(`${e2e.app.url}/`);
    await page.getByRole('button', { name: 'Adicionar' }).first().waitFor();

    await tabTo(page, /^button: Adicionar$/);
    await page.keyboard.press('Enter');
    await tabTo(page, /^button: Finalizar compra$/);
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/checkout\.html\?order=/);

    // The element is the page's payment section: the methods come after the order summary.
    await element(page).getByRole('button', { name: /^Pix/ }).waitFor();
    await tabTo(page, /^button: Pix/);
    await page.keyboard.press('Enter');
    await element(page).getByRole('img', { name: 'QR code do pagamento Pix' }).waitFor();
    // The new screen took focus on its heading: the next Tabs stay in the element and reach the copy button.
    await expect.poll(() => focused(page)).toMatch(/^h\d: /);
    await tabTo(page, /^button: Copiar código Pix/, 10);
    await page.keyboard.press('Enter');
    await element(page).getByRole('button', { name: 'Copiado' }).waitFor();
    const violations = await axeViolations(page);
    if (violations) expect(violations, 'axe violations').toEqual([]);

    // The payer's bank pays (the sandbox panel, by keyboard as well).
    const complete = page.getByRole('region', { name: 'Resultado do PIX' }).getByRole('button', { name: 'Complete', exact: true });
    await expect.poll(() => complete.isEnabled()).toBe(true);
    await tabTo(page, /^button: Complete$/);
    await page.keyboard.press('Enter');

    await expectResult(page, 'Pagamento confirmado');
    await expect.poll(() => focused(page)).toMatch(/^h\d: Pagamento confirmado/);
    await tabTo(page, /^a: Continuar/, 15);
    await page.keyboard.press('Enter');
    await page.waitForURL((url) => url.pathname === '/' || url.pathname.endsWith('/index.html'));
    await page.getByRole('button', { name: 'Adicionar' }).first().waitFor();
  });
});
