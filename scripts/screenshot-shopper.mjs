// The shopper's screens for the README, on a 390 px touch phone in pt-BR (scripts/screenshot.mjs calls it): the
// payment link page (the methods with the Pix symbol, the QR with the time left, the receipt to keep), the same in the
// dark theme, OpenFinance (the bank page and the way back), Spanish, and the screens that lead back to the shop (a
// missing order token, a storefront missing from ALLOWED_ORIGINS).
import { createServer } from 'node:http';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const PHONE = { viewport: { width: 390, height: 844 }, deviceScaleFactor: 1, locale: 'pt-BR', isMobile: true, hasTouch: true };

async function placeOrder(base, items = [{ sku: 'cafe-especial', quantity: 1 }]) {
  const response = await fetch(`${base}/demo/api/orders`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ items }),
  });
  if (response.status !== 201) throw new Error(`POST /demo/api/orders: ${response.status}`);
  return response.json();
}

/** Pays the order's live Pix checkout at the emulator, as the shopper's bank would. */
async function payAtBank(base, orderId) {
  const { checkouts } = await (await fetch(`${base}/demo/api/orders/${encodeURIComponent(orderId)}`)).json();
  const live = checkouts.find((checkout) => checkout.method === 'pix' && checkout.state === 'Registered');
  if (!live) throw new Error(`order ${orderId} has no registered Pix checkout`);
  const response = await fetch(`${base}/demo/api/sandbox/pix/complete/${encodeURIComponent(live.transactionId)}`, { method: 'POST' });
  if (!response.ok) throw new Error(`sandbox complete: ${response.status}`);
}

const payLink = (base, order) => `${base}/pay/${encodeURIComponent(order.orderId)}#t=${encodeURIComponent(order.orderToken)}`;
const element = (page) => page.locator('pix-checkout');
const heading = (page, name) => element(page).getByRole('heading', { name }).waitFor();

/** The payment link in one colour scheme: the methods, the QR and the receipt. */
async function payLinkFlow(browser, base, shoot, { suffix, colorScheme }) {
  const context = await browser.newContext({ ...PHONE, colorScheme });
  const page = await context.newPage();
  const order = await placeOrder(base, [
    { sku: 'cafe-especial', quantity: 1 },
    { sku: 'caneca', quantity: 1 },
  ]);
  await page.goto(payLink(base, order));
  await element(page).locator('[part="chooser"]').waitFor();
  await page.waitForTimeout(200);
  await shoot(page, `pay-link-methods${suffix}`, { fullPage: false });
  await element(page).getByRole('button', { name: /^Pix/ }).click();
  await element(page).locator('svg').first().waitFor();
  await page.waitForTimeout(200);
  await shoot(page, `pay-link-pix${suffix}`, { fullPage: false });
  await payAtBank(base, order.orderId);
  await heading(page, 'Pagamento confirmado');
  await element(page).getByRole('button', { name: 'Salvar comprovante' }).waitFor();
  await shoot(page, `pay-link-receipt${suffix}`, { fullPage: false });
  await context.close();
}

/** OpenFinance from the payment link: the CPF, the bank's page, and back to the receipt. */
async function openFinanceFlow(browser, base, shoot) {
  const context = await browser.newContext(PHONE);
  const page = await context.newPage();
  const order = await placeOrder(base, [{ sku: 'caneca', quantity: 1 }]);
  await page.goto(payLink(base, order));
  await element(page)
    .getByRole('button', { name: /^Open Finance/ })
    .click();
  await element(page).getByLabel('CPF', { exact: true }).pressSequentially('529.982.247-25');
  await shoot(page, 'openfinance-cpf-mobile', { fullPage: false });
  await element(page).getByRole('button', { name: 'Continuar no meu banco' }).click();
  await page.getByRole('button', { name: 'Aprovar pagamento' }).waitFor();
  await shoot(page, 'openfinance-bank-mobile', { fullPage: false });
  await page.getByRole('button', { name: 'Aprovar pagamento' }).click();
  await page.waitForURL(/\/pay\//);
  await heading(page, 'Pagamento confirmado');
  await shoot(page, 'openfinance-receipt-mobile', { fullPage: false });
  await context.close();
}

/** The payment link with the element in Spanish (its `lang`), with the QR. */
async function spanish(browser, base, shoot) {
  const context = await browser.newContext({ ...PHONE, locale: 'es' });
  const page = await context.newPage();
  const order = await placeOrder(base);
  await page.goto(payLink(base, order));
  await element(page).locator('[part="chooser"]').waitFor();
  await element(page).evaluate((el) => el.setAttribute('lang', 'es'));
  await element(page).getByRole('button', { name: /^Pix/ }).click();
  await element(page).locator('svg').first().waitFor();
  await page.waitForTimeout(200);
  await shoot(page, 'pay-link-pix-es-mobile', { fullPage: false });
  await context.close();
}

/** A link the shop sent without its token: said before any method, with the way back. */
async function missingToken(browser, base, shoot) {
  const context = await browser.newContext(PHONE);
  const page = await context.newPage();
  const order = await placeOrder(base);
  await page.goto(`${base}/checkout.html?order=${encodeURIComponent(order.orderId)}`);
  await element(page).getByRole('link', { name: 'Voltar para a loja' }).waitFor();
  await element(page).scrollIntoViewIfNeeded();
  await shoot(page, 'dead-end-token-mobile', { fullPage: false });
  await context.close();
}

/** A storefront on an origin the BFF does not allow: the element says so, and the snippet's fallback shows below. */
async function notAllowed(browser, base, shoot, widgetDir) {
  const { file, integrity } = JSON.parse(readFileSync(join(widgetDir, 'integrity.json'), 'utf8'));
  const order = await placeOrder(base);
  const html = `<!doctype html><html lang="pt-BR"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Loja em outro endereço</title><style>body{font:16px system-ui,sans-serif;margin:16px}</style>
<script type="module" src="${base}/widget/${file}" integrity="${integrity}" crossorigin="anonymous"></script></head>
<body><h1>Finalizar pedido</h1><pix-checkout endpoint="${base}/api" order-id="${order.orderId}" order-token="${order.orderToken}">
<p>Não conseguiu pagar aqui? <a href="${base}/pay/${order.orderId}">Veja outras formas de pagar</a>.</p></pix-checkout></body></html>`;
  const shop = createServer((_request, response) => response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html));
  await new Promise((resolve) => shop.listen(0, '127.0.0.1', resolve));
  const context = await browser.newContext(PHONE);
  const page = await context.newPage();
  try {
    await page.goto(`http://127.0.0.1:${shop.address().port}/`);
    await element(page).locator('[part="message"]', { hasText: 'Esta página não está autorizada' }).waitFor();
    await shoot(page, 'not-allowed-mobile', { fullPage: false });
  } finally {
    await context.close();
    shop.close();
  }
}

export async function captureShopper(browser, base, shoot, { widgetDir }) {
  await payLinkFlow(browser, base, shoot, { suffix: '-mobile', colorScheme: 'light' });
  await payLinkFlow(browser, base, shoot, { suffix: '-dark-mobile', colorScheme: 'dark' });
  await openFinanceFlow(browser, base, shoot);
  await spanish(browser, base, shoot);
  await missingToken(browser, base, shoot);
  await notAllowed(browser, base, shoot, widgetDir);
}
