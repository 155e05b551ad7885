// The payment window on the real demo server (CHECKOUT_TTL_SECONDS=15), at desktop size and on a 390 px touch phone:
// the countdown ticks, the code expires, a new one is made for the same order, and the expired code paid late still
// ends on the receipt, on this device and on another one that showed the newer code. axe finds nothing on the way.
import { describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import {
  axeViolations,
  element,
  expectResult,
  openCheckoutPage,
  pixCode,
  placeOrder,
  readOrder,
  useE2E,
  type ContextOptions,
} from './helpers';

const TTL_SECONDS = 15;
const e2e = useE2E({ env: { CHECKOUT_TTL_SECONDS: String(TTL_SECONDS), CHECKOUT_RATE_PER_MINUTE: '0' } });

const DEVICES: [string, ContextOptions][] = [
  ['desktop', {}],
  ['a 390 px touch phone', { mobile: true, touch: true }],
];

async function expectAccessible(page: Page): Promise<void> {
  const violations = await axeViolations(page);
  if (violations) expect(violations, 'axe violations').toEqual([]);
}

/** Seconds left on the element's countdown ("Pague em até 12 s (até 14:32)" → 12, "1 min 05 s" → 65). */
async function secondsLeft(page: Page): Promise<number> {
  const text = (await element(page).locator('[part="countdown"] [role="timer"]').textContent())!.trim();
  const [, hours, minutes, seconds] = /^(?:(\d+) h )?(?:(\d+) min )?(\d+) s$/.exec(text) ?? [];
  if (seconds === undefined) throw new Error(`not a time left: "${text}"`);
  return Number(hours ?? 0) * 3600 + Number(minutes ?? 0) * 60 + Number(seconds);
}

describe.each(DEVICES)('the payment window on %s', (_device, device) => {
  const press = (locator: Locator) => (device.touch ? locator.tap() : locator.click());

  it('counts down, expires, makes a new code, and shows the receipt when the expired code is paid late', async () => {
    const order = await placeOrder(e2e.app);
    const page = await e2e.newPage(device);
    await openCheckoutPage(page, e2e.app, order);
    await press(element(page).getByRole('button', { name: /^Pix/ }));
    const firstCode = await pixCode(page);

    const first = await secondsLeft(page);
    expect(first).toBeLessThanOrEqual(TTL_SECONDS);
    await expect.poll(() => secondsLeft(page), { timeout: 3000 }).toBeLessThan(first);
    await expectAccessible(page);

    await expectResult(page, 'Código expirado');
    expect(await element(page).locator('[part="code"]').count(), 'the expired code is gone').toBe(0);
    await element(page).getByText('Já pagou? Fique nesta página').waitFor();
    await expectAccessible(page);
    // The server says so too (the element may have shown it first, by its clock).
    await expect
      .poll(async () => (await readOrder(e2e.app, order.orderId)).checkouts.map((c) => c.state), { timeout: 10_000 })
      .toEqual(['Expired']);

    await press(element(page).getByRole('button', { name: 'Gerar novo código' }));
    const secondCode = await pixCode(page);
    expect(secondCode).not.toBe(firstCode);
    expect(await secondsLeft(page)).toBeGreaterThan(TTL_SECONDS - 5);
    const [expired, renewed] = (await readOrder(e2e.app, order.orderId)).checkouts;
    expect([expired?.state, renewed?.state]).toEqual(['Expired', 'Registered']);

    // The shopper's other device opens the order now: it resumes the new code.
    const other = await e2e.newPage(device);
    await openCheckoutPage(other, e2e.app, order);
    expect(await pixCode(other)).toBe(secondCode);

    const payLate = page.getByRole('button', { name: 'Pagar código expirado' });
    await expect.poll(() => payLate.isEnabled()).toBe(true);
    await payLate.click();
    await expectResult(page, 'Pagamento confirmado');
    expect(await element(page).locator('[part="receipt"]').innerText()).toContain(expired!.transactionId);
    await expectAccessible(page);
    // The new code is over: the other device, which only followed that one, shows the paid order's receipt, and the
    // order has nothing left to pay (the newer code expired in favour of the paid one).
    await expectResult(other, 'Pagamento confirmado');
    expect(await element(other).locator('[part="receipt"]').innerText()).toContain(expired!.transactionId);
    expect((await readOrder(e2e.app, order.orderId)).checkouts.map((c) => c.state)).toEqual(['Completed', 'Expired']);
    await page.reload();
    await expectResult(page, 'Pagamento confirmado');
  });
});
