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

async function startServer() {
  if (!existsSync(join(root, 'dist/widget/pix-checkout.js'))) throw new Error('No element bundle: run npm run build first.');
  const dataDir = mkdtempSync(join(tmpdir(), 'pix-screenshot-'));
  const child = spawn(process.execPath, ['--import', 'tsx', 'demo/main.ts'], {
    cwd: root,
    env: { ...process.env, PORT: '0', DATA_DIR: dataDir },
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

async function shoot(page, name, { fullPage = true } = {}) {
  // Fonts and the element's first render settle before the picture.
  await page.evaluate(() => document.fonts.ready);
  await page.screenshot({ path: join(out, `${name}.png`), fullPage });
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
} finally {
  await browser.close();
  server?.stop();
}
