// Screenshots of the demo for the README: the storefront, the checkout page with the Pix QR, and the Completed
// state; the shopper's other screens on a phone (./screenshot-shopper.mjs: the payment link, dark, OpenFinance,
// Spanish, the ways back to the shop); and without a url, the merchant console at /admin (console-*.png), signed in as the demo's users; all written
// to docs/screenshots/. Usage: node scripts/screenshot.mjs [url]. Without a url it starts the server itself (PORT=0,
// a throwaway DATA_DIR); the element, console and demo bundles must be built first (npm run build).
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { chromiumArgs, findChromium, installHint } from './find-chromium.mjs';
import { captureShopper } from './screenshot-shopper.mjs';

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
    dataDir,
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
  // The sandbox panel comes after the first QR (with its stylesheet): wait until it shows its transaction.
  await page.locator('#sandbox-panel').waitFor({ state: 'visible' });
  await page.locator('#sb-transaction').filter({ hasNotText: '—' }).waitFor();
  // On the phone, what the shopper sees first (the amount, the countdown and the copy button), not the whole page.
  await shoot(page, `checkout-pix${name}`, { fullPage: !phone });

  await page.getByRole('button', { name: 'Complete' }).first().click();
  await page.getByRole('heading', { name: 'Pagamento confirmado' }).waitFor();
  await page.locator('#sb-log li').first().waitFor();
  await shoot(page, `checkout-completed${name}`);
  await context.close();
}

/**
 * The console's server: a 3-second payment window makes a late, duplicate payment to show, and refunds above R$ 100,00
 * wait for an owner's approval, so the duplicate's refund (R$ 109,90) is the pending approval of the pictures.
 */
const CONSOLE_ENV = { CHECKOUT_TTL_SECONDS: '3', CHECKOUT_RATE_PER_MINUTE: '0', APPROVAL_ABOVE: '100.00' };

/**
 * The demo's console users and their passwords, from the file its first start writes (DATA_DIR/demo-users.txt,
 * demo/demo-users.ts; read as its `parseDemoUsers` does): `role e-mail password # who`, by e-mail.
 */
function demoUsers(dataDir) {
  const text = readFileSync(join(dataDir, 'demo-users.txt'), 'utf8');
  const users = new Map();
  for (const line of text.split('\n')) {
    const match = /^(\w+)\s+(\S+@\S+)\s+(\S+)/.exec(line);
    if (match) users.set(match[2], { role: match[1], email: match[2], password: match[3] });
  }
  return users;
}

/** Calls the demo's own API (orders, the sandbox, the BFF) as a script would; throws on anything but a 2xx. */
async function call(base, method, path, body, headers = {}) {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
  return response;
}
const callJson = async (...args) => (await call(...args)).json();

/**
 * Payments for the console's pictures: two orders paid, the second one twice (its new code, then its expired code,
 * late). Answers the orders and the id of the duplicate payment.
 */
async function seedPayments(base, ttlMs) {
  const order = (items) => callJson(base, 'POST', '/demo/api/orders', { items });
  const pix = (o) => callJson(base, 'POST', '/api/checkouts', { orderId: o.orderId, orderToken: o.orderToken, method: 'pix' });
  const complete = (checkout) => callJson(base, 'POST', `/demo/api/sandbox/pix/complete/${checkout.transactionId}`, {});
  const settled = async (id) => {
    for (let i = 0; i < 50 && (await callJson(base, 'GET', `/api/checkouts/${id}`)).state !== 'Completed'; i++)
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
  await callJson(base, 'GET', `/api/checkouts/${first.id}`);
  const renewed = await pix(twice);
  await complete(renewed);
  await settled(renewed.id);
  await callJson(base, 'POST', `/demo/api/orders/${twice.orderId}/pay-expired`, {});
  await settled(first.id);
  return { once, twice, duplicateId: first.id };
}

/** Signs `user` in through the console's API, as its page does; answers the `cookie` header of the session. */
async function signInCookie(base, user) {
  const response = await call(base, 'POST', '/api/admin/session', { email: user.email, password: user.password }, { origin: base });
  const cookie = /pix_admin=[^;]*/.exec(response.headers.get('set-cookie') ?? '');
  if (!cookie) throw new Error('sign-in: no session cookie');
  return cookie[0];
}

/** Follows a link of the console's navigation and answers the section's region, once it has loaded. */
async function openSection(page, link, region) {
  await page.getByRole('navigation', { name: 'Seções do console' }).getByRole('link', { name: link, exact: true }).click();
  const section = page.getByRole('region', { name: region, exact: true });
  await section.waitFor();
  await section.getByText('Carregando…').waitFor({ state: 'detached' });
  return section;
}

/**
 * The merchant console at /admin, signed in as the demo's second owner (the one who approves what the first asks
 * for), at desktop size and on a 390 px phone: the sign-in, the payments received, a payment's refund form with a
 * partial amount at its confirmation, the approvals with the duplicate's refund pending (asked for by the first
 * owner), the audit trail and the webhook endpoints (the demo's own receiver and one the first owner added).
 */
async function captureConsole(browser, base, dataDir) {
  const users = demoUsers(dataDir);
  const maker = users.get('dona@armazem.demo');
  const checker = users.get('socia@armazem.demo');
  if (!maker || !checker) throw new Error(`${dataDir}/demo-users.txt lacks the demo's owners`);
  const { once, twice, duplicateId } = await seedPayments(base, 3_000);
  // The first owner refunds the duplicate payment in full: above the threshold, it waits for the other owner.
  const cookie = await signInCookie(base, maker);
  const refund = await callJson(
    base,
    'POST',
    `/api/admin/checkouts/${duplicateId}/refunds`,
    {},
    { cookie, origin: base, 'idempotency-key': 'screenshot-duplicate-refund' },
  );
  if (refund.state !== 'PendingApproval') throw new Error(`the duplicate's refund is ${refund.state}, not waiting for approval`);
  // An endpoint of the shop's ERP for the cash-outs (none happens here, so nothing is sent to an address that is not there).
  await call(
    base,
    'POST',
    '/api/admin/webhook-endpoints',
    { url: 'https://erp.armazem.demo/webhooks/pix', types: ['cashout.completed', 'cashout.failed'] },
    { cookie, origin: base },
  );

  for (const phone of [false, true]) {
    const suffix = phone ? '-mobile' : '';
    const viewport = phone ? { width: 390, height: 844 } : { width: 1280, height: 900 };
    const context = await browser.newContext({ viewport, deviceScaleFactor: 1, locale: 'pt-BR', isMobile: phone, hasTouch: phone });
    const page = await context.newPage();
    await page.goto(`${base}/admin`);
    await page.locator('bo-sign-in').getByLabel('E-mail', { exact: true }).fill(checker.email);
    await page.locator('bo-sign-in').getByLabel('Senha', { exact: true }).fill(checker.password);
    await shoot(page, `console-sign-in${suffix}`, { fullPage: false });
    await page.getByRole('button', { name: 'Entrar' }).click();
    await page.getByRole('navigation', { name: 'Seções do console' }).waitFor();

    const payments = page.getByRole('region', { name: 'Pagamentos recebidos' });
    await payments.locator(`tr[data-order="${twice.orderId}"]`).filter({ hasText: 'Duplicado' }).waitFor();
    await page.getByText('Atualização ao vivo').waitFor();
    await page.waitForTimeout(300);
    // On the phone the list is a stack of cards, longer than the screen: the list itself.
    if (phone) await shoot(page, 'console-payments-mobile', { locator: page.locator('bo-payments') });
    else await shoot(page, 'console-payments', { fullPage: false });

    await payments
      .locator(`tr[data-order="${once.orderId}"]`)
      .getByRole('button', { name: /^Detalhes/ })
      .click();
    const detail = page.getByRole('region', { name: `Pagamento do pedido ${once.orderId}` });
    const refundForm = detail.getByRole('region', { name: 'Reembolso', exact: true });
    await refundForm.getByTestId('refund-summary').waitFor();
    await refundForm.getByLabel('Valor do reembolso (R$)').fill('25,00');
    await refundForm.getByLabel('Valor do reembolso (R$)').press('Enter');
    await refundForm.getByTestId('refund-confirmation').waitFor();
    await shoot(page, `console-refund${suffix}`, { locator: detail });

    const approvals = await openSection(page, 'Aprovações', 'Aprovações');
    await approvals.getByTestId('approvals-pending').locator('tr', { hasText: maker.email }).waitFor();
    await shoot(page, `console-approvals${suffix}`, { locator: approvals });

    const audit = await openSection(page, 'Auditoria', 'Trilha de auditoria');
    await audit.getByTestId('audit-table').locator('tbody tr').first().waitFor();
    // On the phone each entry is a card: the trail's first screen, not all of it.
    if (phone) {
      await audit.evaluate((section) => section.scrollIntoView());
      await shoot(page, 'console-audit-mobile', { fullPage: false });
    } else await shoot(page, 'console-audit', { locator: audit });

    const hooks = await openSection(page, 'Webhooks', 'Endpoints de webhook');
    await hooks.getByTestId('endpoints-table').locator('tr', { hasText: 'erp.armazem.demo' }).waitFor();
    await shoot(page, `console-webhooks${suffix}`, { locator: hooks });
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
  await captureShopper(browser, base, shoot, { widgetDir: join(root, 'dist/widget') });
  // The console on a server of its own (CONSOLE_ENV), signed in as the demo's users of its DATA_DIR.
  if (!process.argv[2]) {
    const consoleServer = await startServer(CONSOLE_ENV);
    try {
      await captureConsole(browser, consoleServer.url, consoleServer.dataDir);
    } finally {
      consoleServer.stop();
    }
  }
} finally {
  await browser.close();
  server?.stop();
}
