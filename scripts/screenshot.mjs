// Screenshots of the demo for the README: the storefront, the checkout page with the PIX QR, and the Completed
// state, written to docs/screenshots/. Usage: node scripts/screenshot.mjs [url]. Without a url it starts the
// server itself (PORT=0, a throwaway DATA_DIR); the element bundle must be built first (npm run build).
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { chromiumArgs, findChromium, installHint } from './find-chromium.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const out = join(root, 'docs/screenshots');

async function startServer(env = {}) {
  if (!existsSync(join(root, 'dist/widget/pix-checkout.js'))) throw new Error('No element bundle: run npm run build first.');
  const dataDir = mkdtempSync(join(tmpdir(), 'pix-screenshot-'));
  const child = spawn(process.execPath, ['--import', 'tsx', 'demo/main.ts'], {
    cwd: root,
    env: { ...process.env, PORT: '0', DATA_DIR: dataDir, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise((resolve, reject) => {
    let seen = '';
    child.stdout.on('data', (chunk) => {
      seen += chunk;
      const match = /listening on (http:\/\/\S+)/.exec(seen);
      if (match) resolve(match[1]);
    });
    child.once('exit', (code) => reject(new Error(`server exited (${code}) before listening`)));
  });
  return {
    url,
    stop() {
      child.kill('SIGTERM');
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

async function shoot(page, name, { fullPage = true, locator } = {}) {
  // Fonts and the element's first render settle before the picture.
  await page.evaluate(() => document.fonts.ready);
  if (locator) await locator.screenshot({ path: join(out, `${name}.png`) });
  else await page.screenshot({ path: join(out, `${name}.png`), fullPage });
  console.log(`docs/screenshots/${name}.png`);
}

async function captureFlow(browser, base, { name, viewport, phone = false }) {
  // The phone is a touch device, as a shopper's is: the element then puts the copy button first.
  const context = await browser.newContext({ viewport, deviceScaleFactor: 1, locale: 'pt-BR', isMobile: phone, hasTouch: phone });
  const page = await context.newPage();
  await page.goto(`${base}/`);
  await page.getByRole('button', { name: 'Adicionar' }).first().click();
  await page.getByRole('button', { name: 'Adicionar' }).first().click();
  await page.getByRole('button', { name: 'Adicionar' }).nth(2).click();
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.waitForTimeout(200);
  // On a phone the cart bar is fixed to the bottom of the screen: a full-page picture would float it mid-page.
  await shoot(page, `storefront${name}`, { fullPage: viewport.width > 600 });

  await page.getByRole('button', { name: 'Finalizar compra' }).click();
  await page.waitForURL(/checkout\.html\?order=/);
  await page.locator('pix-checkout button[data-method="pix"]').click();
  await page.locator('pix-checkout svg').first().waitFor();
  await page.locator('#sb-transaction').filter({ hasNotText: '—' }).waitFor();
  // On the phone, what the shopper sees first (the amount, the countdown and the copy button), not the whole page.
  await shoot(page, `checkout-pix${name}`, { fullPage: !phone });

  await page.getByRole('button', { name: 'Complete' }).first().click();
  await page.getByRole('heading', { name: 'Pagamento confirmado' }).waitFor();
  await page.locator('#sb-log li').first().waitFor();
  await shoot(page, `checkout-completed${name}`);
  await context.close();
}

/** At least 24 characters, as the configuration requires; the back-office pictures sign in with it. */
const BACKOFFICE_TOKEN = 'screenshot-backoffice-admin-token-0123';

/** Payments for the back-office pictures: two orders paid, the second one twice (its new code, then its expired code, late). */
async function seedPayments(base, ttlMs) {
  const call = async (method, path, body) => {
    const response = await fetch(`${base}${path}`, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
    return response.json();
  };
  const order = (items) => call('POST', '/demo/api/orders', { items });
  const pix = (o) => call('POST', '/api/checkouts', { orderId: o.orderId, orderToken: o.orderToken, method: 'pix' });
  const complete = (checkout) => call('POST', `/demo/api/sandbox/pix/complete/${checkout.transactionId}`, {});
  const settled = async (id) => {
    for (let i = 0; i < 50 && (await call('GET', `/api/checkouts/${id}`)).state !== 'Completed'; i++)
      await new Promise((r) => setTimeout(r, 100));
  };
  const once = await order([{ sku: 'cafe-especial', quantity: 2 }]);
  const paid = await pix(once);
  await complete(paid);
  await settled(paid.id);
  const twice = await order([
    { sku: 'caneca', quantity: 1 },
    { sku: 'pao-de-queijo', quantity: 2 },
  ]);
  const first = await pix(twice);
  await new Promise((r) => setTimeout(r, ttlMs + 500));
  await call('GET', `/api/checkouts/${first.id}`);
  const renewed = await pix(twice);
  await complete(renewed);
  await settled(renewed.id);
  await call('POST', `/demo/api/orders/${twice.orderId}/pay-expired`, {});
  await settled(first.id);
  return { once, twice };
}

/** The back-office: the payments received (desktop and as cards at 390 px), a duplicate's refund confirmation, a cash-out confirmation. */
async function captureBackoffice(browser, base) {
  const { twice } = await seedPayments(base, 3_000);
  for (const phone of [false, true]) {
    const viewport = phone ? { width: 390, height: 844 } : { width: 1280, height: 900 };
    const context = await browser.newContext({ viewport, deviceScaleFactor: 1, locale: 'pt-BR' });
    const page = await context.newPage();
    await page.goto(`${base}/backoffice.html`);
    await page.getByLabel('Token de administrador').fill(BACKOFFICE_TOKEN);
    await page.getByRole('button', { name: 'Entrar' }).click();
    const payments = page.getByRole('region', { name: 'Pagamentos recebidos' });
    await payments.locator('tbody tr').filter({ hasText: 'Duplicado' }).waitFor();
    await page.getByText('Atualização ao vivo').waitFor();
    await page.waitForTimeout(300);
    if (phone) {
      await shoot(page, 'backoffice-mobile', { fullPage: false, locator: page.locator('bo-payments') });
      const form = page.locator('bo-cashout-form');
      await form.getByLabel('Tipo de chave').selectOption('EMAIL');
      await form.getByLabel('Chave PIX').fill('fornecedor@exemplo.com.br');
      await form.getByLabel('Nome do destinatário').fill('Maria da Silva');
      await form.getByLabel('CPF do destinatário').fill('529.982.247-25');
      await form.getByLabel('Valor (R$)').fill('150,00');
      await form.getByRole('button', { name: 'Revisar transferência' }).click();
      await form.getByTestId('cashout-confirmation').waitFor();
      await shoot(page, 'backoffice-cashout-mobile', { locator: form });
    } else {
      await shoot(page, 'backoffice', { fullPage: false });
      await payments
        .locator(`tr[data-order="${twice.orderId}"]`)
        .filter({ hasText: 'Duplicado' })
        .getByRole('button', { name: /^Detalhes/ })
        .click();
      const detail = page.locator('bo-checkout-detail');
      await detail.getByTestId('timeline').waitFor();
      await detail.getByRole('button', { name: 'Reembolsar pagamento duplicado' }).click();
      await detail.getByTestId('refund-confirmation').waitFor();
      await shoot(page, 'backoffice-refund', { locator: detail });
    }
    await context.close();
  }
}

const executablePath = findChromium();
if (!executablePath) {
  console.error(installHint);
  process.exit(1);
}
mkdirSync(out, { recursive: true });
const server = process.argv[2] ? undefined : await startServer();
const base = (process.argv[2] ?? server.url).replace(/\/+$/, '');
const browser = await chromium.launch({ executablePath, args: chromiumArgs, headless: true });
try {
  await captureFlow(browser, base, { name: '', viewport: { width: 1280, height: 860 } });
  await captureFlow(browser, base, { name: '-mobile', viewport: { width: 390, height: 844 }, phone: true });
  // The back-office on a server of its own: a short payment window makes a late, duplicate payment to show.
  if (!process.argv[2]) {
    const backoffice = await startServer({ ADMIN_TOKEN: BACKOFFICE_TOKEN, CHECKOUT_TTL_SECONDS: '3', CHECKOUT_RATE_PER_MINUTE: '0' });
    try {
      await captureBackoffice(browser, backoffice.url);
    } finally {
      backoffice.stop();
    }
  }
} finally {
  await browser.close();
  server?.stop();
}
