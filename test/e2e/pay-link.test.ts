/**
 * The payment link, as a merchant sends it and a shopper opens it: `npm run admin -- link <orderId>` prints it (with
 * the demo's DATA_DIR and address), Chromium opens it, the page takes the token from the fragment and wipes it from
 * the address, shows the shop's name (the order source's), and the shopper pays by PIX through the emulator and sees
 * the receipt (or goes to the bank by OpenFinance and back); under the page's strict policy with no browser error
 * (useE2E fails the test on any), axe at 0 in the light and the dark theme. A tampered script leaves the page's
 * fallback; an address that names no order is a 404 page.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { axeViolations, element, expectResult, placeOrder, readOrder, useE2E, type RunningApp } from './helpers';

const e2e = useE2E();
const root = fileURLToPath(new URL('../..', import.meta.url));

/** `npm run admin -- link <orderId>` against the demo's DATA_DIR and address: the link it prints. */
function printedLink(app: RunningApp, orderId: string): Promise<string> {
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: app.dataDir, PUBLIC_BASE_URL: app.url };
  delete env.DATABASE_URL;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'server/admin-cli.ts', 'link', orderId], { cwd: root, env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(stdout.trim()) : reject(new Error(`admin link exited with ${code}: ${stderr}`))));
  });
}

/** The PIX code once the element shows it with its QR. */
async function pixCode(page: Page): Promise<string> {
  const code = element(page).locator('[part="code"]');
  await code.waitFor({ timeout: 15_000 });
  return (await code.textContent())!;
}

/** axe over the whole page (the element's shadow tree included): the violations as "rule: target" lines. */
async function pageViolations(page: Page): Promise<string[] | undefined> {
  // Injects axe (through the DevTools protocol, which the page's policy does not govern).
  if ((await axeViolations(page)) === undefined) return undefined;
  return page.evaluate(async () => {
    const axe = (
      window as unknown as { axe: { run(context: Document): Promise<{ violations: { id: string; nodes: { target: unknown }[] }[] }> } }
    ).axe;
    const { violations } = await axe.run(document);
    return violations.flatMap((v) => v.nodes.map((node) => `${v.id}: ${JSON.stringify(node.target)}`));
  });
}

describe('a payment link', () => {
  it('opens the printed link, pays by PIX through the emulator and shows the receipt', { timeout: 90_000 }, async () => {
    const { orderId } = await placeOrder(e2e.app);
    const link = await printedLink(e2e.app, orderId);
    expect(link).toMatch(new RegExp(`^${e2e.app.url}/pay/${orderId}#t=\\d+\\.[\\w-]{43}$`));

    const page = await e2e.newPage({ mobile: true, touch: true });
    const lookups: string[] = [];
    page.on('request', (request) => {
      if (request.url().endsWith(`/api/orders/${orderId}/checkout`)) lookups.push(request.method());
    });
    await page.goto(link);
    // The token left the address at once: neither a reload, a shared address nor a return address carries it.
    expect(page.url()).toBe(`${e2e.app.url}/pay/${orderId}`);
    // The shop's name, from the order source, once the token unlocked it.
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Armazém Cerrado');
    await expect.poll(() => page.title()).toBe('Pagamento · Armazém Cerrado');
    await expect.poll(() => element(page).getByText('Pagamento para Armazém Cerrado').count()).toBeGreaterThan(0);
    expect(await pageViolations(page)).toEqual([]);

    await element(page).getByRole('button', { name: /^pix/i }).click();
    const code = await pixCode(page);
    expect(code).toMatch(/^000201/);
    // The page's script asked the element's first question (before the element's script came), and only it did.
    expect(lookups).toEqual(['POST']);

    // A reload finds the same checkout: the tab kept the token.
    await page.reload();
    expect(await pixCode(page)).toBe(code);

    // The payer's bank pays it at the emulator.
    const { checkouts } = await readOrder(e2e.app, orderId);
    const transactionId = checkouts[0]!.transactionId;
    const paid = await fetch(`${e2e.app.url}/demo/api/sandbox/pix/complete/${transactionId}`, { method: 'POST' });
    expect(paid.status).toBe(200);

    await expectResult(page, 'Pagamento confirmado');
    await expect.poll(() => element(page).getByText('Armazém Cerrado recebeu o seu pagamento', { exact: false }).count()).toBe(1);
    await expect.poll(() => page.title()).toBe('Pagamento confirmado · Armazém Cerrado');
    expect(await pageViolations(page)).toEqual([]);
    // The page follows the system's dark theme, as the element does.
    await page.emulateMedia({ colorScheme: 'dark' });
    expect(await pageViolations(page)).toEqual([]);
    expect((await readOrder(e2e.app, orderId)).checkouts).toEqual([expect.objectContaining({ method: 'pix', state: 'Completed' })]);
  });

  it('goes to the bank by OpenFinance and comes back to the receipt on the same page', { timeout: 90_000 }, async () => {
    const { orderId } = await placeOrder(e2e.app, [{ sku: 'caneca', quantity: 1 }]);
    const page = await e2e.newPage();
    await page.goto(await printedLink(e2e.app, orderId));
    await element(page)
      .getByRole('button', { name: /^open finance/i })
      .click();
    await element(page).getByLabel('CPF', { exact: true }).pressSequentially('529.982.247-25');
    await element(page).getByRole('button', { name: 'Continuar no meu banco' }).click();
    await page.waitForURL(/\/sandbox\/.*\/checkout\/init\//);
    // The bank's return address is the page's, without the token.
    expect(decodeURIComponent(page.url())).not.toContain('#t=');
    await page.getByRole('button', { name: 'Aprovar pagamento' }).click();
    await page.waitForURL(`${e2e.app.url}/pay/${orderId}`);
    await expectResult(page, 'Pagamento confirmado');
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Armazém Cerrado');
    expect((await readOrder(e2e.app, orderId)).checkouts).toEqual([expect.objectContaining({ method: 'openfinance', state: 'Completed' })]);
  });

  it("shows the page's fallback when the element's script does not match its integrity hash", async () => {
    const { orderId } = await placeOrder(e2e.app);
    const page = await e2e.newPage();
    // A tampered bundle: the browser refuses it (SRI), so the element is never defined.
    await page.route(/\/widget\/pix-checkout\.[0-9a-f]+\.js$/, (route) =>
      route.fulfill({ status: 200, contentType: 'text/javascript', headers: { 'access-control-allow-origin': '*' }, body: '// tampered' }),
    );
    await page.goto(await printedLink(e2e.app, orderId));
    const fallback = page.getByText('Carregando o pagamento… Se ele não aparecer, recarregue a página ou peça um novo link à loja.');
    // Hidden for the first two seconds of a load (no flash before the element), then shown.
    await expect.poll(() => fallback.isVisible(), { timeout: 10_000 }).toBe(true);
    expect(await page.evaluate(() => customElements.get('pix-checkout') === undefined)).toBe(true);
    // The page's script still ran: the fallback is inside the element, and the token left the address.
    expect(await page.locator('pix-checkout > .pay-fallback').count()).toBe(1);
    expect(page.url()).toBe(`${e2e.app.url}/pay/${orderId}`);
    // The browser logs the refused script: expected here.
    expect(e2e.problems.problems.splice(0).join('\n')).toMatch(/integrity/);
  });

  it('is a page saying the link is wrong for an address that names no order', async () => {
    const page = await e2e.newPage();
    const response = await page.goto(`${e2e.app.url}/pay/${'x'.repeat(65)}#t=1.2`);
    expect(response?.status()).toBe(404);
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Link de pagamento inválido');
    // The 404 is the answer itself: the browser logs it as a failed load, which is expected here.
    e2e.problems.problems.splice(0);
  });
});
