/**
 * Payment links from the console, in Chromium against the real process, at desktop size and on a 390 px phone: an
 * operator types an order number, a wrong one is refused on the page and an unknown one by the shop, the link of a real
 * order is copied by keyboard, and opening it pays nothing yet but offers the methods of that order (its token works);
 * a viewer has no such section. axe finds nothing in each state.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, expectNoAxeViolations } from './backoffice-helpers';
import {
  addUser,
  expectFitsPhone,
  expectRefusals,
  focused,
  forgetSignedOutChecks,
  openSection,
  signInAs,
} from './console-sections-helpers';
import { element, placeOrder, useE2E, type ContextOptions } from './helpers';

const e2e = useE2E({ env: { ADMIN_TOKEN } });

const DEVICES: [string, ContextOptions, number][] = [
  ['desktop', {}, 1],
  ['a 390 px phone', { mobile: true }, 2],
];

describe.each(DEVICES)('payment links in the console on %s', (device, options, n) => {
  const operator = `operador-link-${n}@loja.test`;
  const viewer = `leitura-link-${n}@loja.test`;
  beforeAll(async () => {
    await addUser(e2e.app, operator, 'operator');
    await addUser(e2e.app, viewer, 'viewer');
  });

  it('makes the link of an order, refuses a wrong or unknown one, and the link opens that order', { timeout: 90_000 }, async () => {
    const order = await placeOrder(e2e.app);
    const page = await e2e.newPage({ ...options, clipboard: true });
    await signInAs(page, e2e.app, operator);
    const links = await openSection(page, 'Links de pagamento', 'Links de pagamento');
    await expectNoAxeViolations(page, `payment links (${device})`);

    await links.getByLabel('Número do pedido').fill('pedido 12');
    await links.getByRole('button', { name: 'Gerar link' }).click();
    await expect.poll(() => links.locator('#pl-order-hint').textContent()).toContain('letras, números');
    await expectNoAxeViolations(page, 'order number refused on the page');

    await links.getByLabel('Número do pedido').fill('A-NAO-EXISTE');
    await links.getByRole('button', { name: 'Gerar link' }).click();
    await expect.poll(() => links.getByRole('alert').textContent()).toContain('A loja não conhece este pedido');
    expectRefusals(e2e.problems, 404, 1);

    await links.getByLabel('Número do pedido').fill(order.orderId);
    await links.getByLabel('Validade (dias)').fill('2');
    await links.getByLabel('Validade (dias)').press('Enter');
    const made = links.getByTestId('payment-link');
    await made.waitFor();
    expect(await focused(page)).toBe('Copiar link');
    await expectNoAxeViolations(page, 'link made');
    if (options.mobile) await expectFitsPhone(page);
    await page.keyboard.press('Enter');
    await expect.poll(() => made.getByRole('status').textContent()).toContain('copiado');
    const url = await page.evaluate(() => navigator.clipboard.readText());
    expect(url).toBe(await links.getByLabel(`Link do pedido ${order.orderId}`).inputValue());
    expect(url).toMatch(new RegExp(`^${e2e.app.url}/pay/${order.orderId}#t=`));

    // The shopper's side: the link opens the order's payment page, which offers the methods (its token is good).
    const shopper = await e2e.newPage(options);
    await shopper.goto(url);
    await element(shopper).locator('[part="chooser"]').waitFor();
    await expect(element(shopper).getByRole('button', { name: /^Pix/ }).count()).resolves.toBe(1);

    const trail = await (
      await fetch(`${e2e.app.url}/api/admin/audit?action=payment_link.create&limit=2`, {
        headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
      })
    ).json();
    expect(trail.data.map((entry: { target: string; outcome: string }) => [entry.target, entry.outcome])).toEqual([
      [order.orderId, 'ok'],
      ['A-NAO-EXISTE', 'refused'],
    ]);
    forgetSignedOutChecks(e2e.problems);
  });

  it('has no payment links section for a viewer', async () => {
    const page = await e2e.newPage(options);
    await signInAs(page, e2e.app, viewer);
    const nav = page.getByRole('navigation', { name: 'Seções do console' });
    await expect(nav.getByRole('link', { name: 'Pagamentos recebidos' }).count()).resolves.toBe(1);
    await expect(nav.getByRole('link', { name: 'Links de pagamento' }).count()).resolves.toBe(0);
    await expect(page.locator('bo-payment-link').count()).resolves.toBe(0);
    forgetSignedOutChecks(e2e.problems);
  });
});
