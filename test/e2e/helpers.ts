/**
 * End-to-end helpers: the real process started the way `npm start` starts it, one system Chromium, a collector of
 * everything the browser reports as an error, and intent-named steps on the demo pages.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Locator, type Page } from 'playwright-core';
import jsQR from 'jsqr';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';

interface ChromiumFinder {
  findChromium(): string | undefined;
  chromiumArgs: string[];
  installHint: string;
}
// The finder is plain JS shared with the npm scripts and has no type declarations: imported by URL, and typed here.
const finder = (await import(new URL('../../scripts/find-chromium.mjs', import.meta.url).href)) as ChromiumFinder;

const root = fileURLToPath(new URL('../..', import.meta.url));

export interface RunningApp {
  url: string;
  /** The process's DATA_DIR (its kept secrets: `npm run admin` reads them there). */
  dataDir: string;
  /** Everything the process printed, for the failure message of a test. */
  output(): string;
  stop(): Promise<void>;
}

/**
 * Spawns `demo/main.ts` as `npm start` does (the bundles were built by `npm run test:e2e`), on a free port, with
 * `env` added to the environment (for example `CHECKOUT_TTL_SECONDS`).
 */
export async function startApp(env: Record<string, string> = {}): Promise<RunningApp> {
  const dataDir = mkdtempSync(join(tmpdir(), 'pix-e2e-'));
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'demo/main.ts'], {
    cwd: root,
    env: { ...process.env, ...env, PORT: '0', DATA_DIR: dataDir },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stderr!.on('data', (chunk) => (output += chunk));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start in 30 s:\n${output}`)), 30_000);
    child.stdout!.on('data', (chunk) => {
      output += chunk;
      const match = /pix-checkout demo listening on (http:\/\/\S+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code} before listening:\n${output}`));
    });
  });
  return {
    url,
    dataDir,
    output: () => output,
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export async function launchChromium(): Promise<Browser> {
  const executablePath = finder.findChromium();
  if (!executablePath) throw new Error(finder.installHint);
  return chromium.launch({ executablePath, args: finder.chromiumArgs, headless: true });
}

/**
 * Collects console errors, uncaught page errors and CSP violations of every page of the contexts it watches.
 * Violations are reported through a binding, because the page's own CSP cannot block what Playwright injects.
 */
export class BrowserProblems {
  readonly problems: string[] = [];

  async watch(context: BrowserContext): Promise<BrowserContext> {
    context.on('console', (message) => {
      if (message.type() !== 'error') return;
      // Every one counts, failed loads included: a fresh checkout page logs nothing (the order lookup's "none" is a 204).
      this.problems.push(`console: ${message.text()} (${message.location().url})`);
    });
    context.on('weberror', (error) => this.problems.push(`pageerror: ${error.error().message}`));
    await context.exposeBinding('reportCspViolation', ({ page }, text: string) => this.problems.push(`csp: ${text} (${page.url()})`));
    await context.addInitScript(() => {
      document.addEventListener('securitypolicyviolation', (event) => {
        const report = (window as unknown as { reportCspViolation(text: string): void }).reportCspViolation;
        report(`${event.violatedDirective} blocked ${event.blockedURI || 'inline'} at ${event.sourceFile}:${event.lineNumber}`);
      });
    });
    return context;
  }

  /** Asserts nothing was collected since the last call, then starts over. */
  expectNone(): void {
    const seen = this.problems.splice(0);
    expect(seen, 'the browser reported errors').toEqual([]);
  }
}

export interface ContextOptions {
  /** 390 × 844 instead of 1280 × 900. */
  mobile?: boolean;
  /** A touch screen (`hasTouch`, `isMobile`): `pointer: coarse`, as on a phone. */
  touch?: boolean;
  /** Lets the page write and read the clipboard. */
  clipboard?: boolean;
}

/** A new context whose problems land in `problems`. */
export async function newWatchedContext(browser: Browser, problems: BrowserProblems, options: ContextOptions = {}) {
  const viewport = options.mobile ? { width: 390, height: 844 } : { width: 1280, height: 900 };
  const touch = options.touch ? { hasTouch: true, isMobile: true } : {};
  const permissions = options.clipboard ? ['clipboard-read', 'clipboard-write'] : [];
  return problems.watch(await browser.newContext({ viewport, locale: 'pt-BR', permissions, ...touch }));
}

/**
 * Registers the hooks of an end-to-end file: one server (with `env` added to its environment) and one Chromium for
 * the file, fresh contexts per test, closed after it, and no browser error allowed in any test.
 */
export function useE2E(options: { env?: Record<string, string> } = {}) {
  let app: RunningApp | undefined;
  let browser: Browser | undefined;
  const contexts: BrowserContext[] = [];
  const problems = new BrowserProblems();

  beforeAll(async () => {
    app = await startApp(options.env);
    browser = await launchChromium();
  });
  afterEach(async () => {
    await Promise.all(contexts.splice(0).map((context) => context.close()));
    problems.expectNone();
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
  });

  return {
    problems,
    get app(): RunningApp {
      if (!app) throw new Error('the server is not running');
      return app;
    },
    /** A new browser context (its own sessionStorage: a separate visitor). */
    async newContext(options: ContextOptions = {}): Promise<BrowserContext> {
      if (!browser) throw new Error('Chromium is not running');
      const context = await newWatchedContext(browser, problems, options);
      contexts.push(context);
      return context;
    },
    /** A page in a new context. */
    async newPage(options: ContextOptions = {}): Promise<Page> {
      return (await this.newContext(options)).newPage();
    },
  };
}

/** An order as the shop placed it: its id, and the order token only the shopper who placed it gets. */
export interface PlacedOrder {
  orderId: string;
  orderToken: string;
}

/** Places an order through the demo API (priced on the server) and returns its id and order token. */
export async function placeOrder(app: RunningApp, items = [{ sku: 'cafe-especial', quantity: 1 }]): Promise<PlacedOrder> {
  const response = await fetch(`${app.url}/demo/api/orders`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ items }),
  });
  expect(response.status).toBe(201);
  const { orderId, orderToken } = (await response.json()) as PlacedOrder;
  return { orderId, orderToken };
}

export interface OrderView {
  checkouts: { id: string; state: string; method: string; transactionId: string }[];
}

export async function readOrder(app: RunningApp, orderId: string): Promise<OrderView> {
  return (await (await fetch(`${app.url}/demo/api/orders/${orderId}`)).json()) as OrderView;
}

/**
 * Opens the checkout page of an order the way the shop links to it: the order token in the fragment. Given only an
 * order id (or a token of `undefined`), the page is what anyone who knows the id can open.
 */
export async function openCheckoutPage(
  page: Page,
  app: RunningApp,
  order: { orderId: string; orderToken?: string | undefined },
): Promise<void> {
  const fragment = order.orderToken ? `#order-token=${encodeURIComponent(order.orderToken)}` : '';
  await page.goto(`${app.url}/checkout.html?order=${encodeURIComponent(order.orderId)}${fragment}`);
}

export const element = (page: Page): Locator => page.locator('pix-checkout');

/** Picks a method on the element's chooser. */
export async function chooseMethod(page: Page, method: 'Pix' | 'Open Finance'): Promise<void> {
  await element(page)
    .getByRole('button', { name: new RegExp(`^${method}`) })
    .click();
}

/** The PIX copy-and-paste code, once the element shows it (with its QR); shown shortened, its text is the whole code. */
export async function pixCode(page: Page): Promise<string> {
  await expect.poll(() => element(page).getByRole('img', { name: 'QR code do pagamento Pix' }).count()).toBe(1);
  const code = element(page).locator('[part="code"]');
  await code.waitFor();
  return (await code.textContent())!;
}

/**
 * What a phone camera reads from the element's QR: a screenshot of it, turned into pixels on a blank page of the
 * same browser (the shop's CSP stays untouched), decoded by jsQR.
 */
export async function scanQr(page: Page): Promise<string | undefined> {
  const png = await element(page).locator('[part="qr"]').screenshot();
  const blank = await page.context().newPage();
  try {
    const { width, height, pixels } = await blank.evaluate(async (base64) => {
      const image = new Image();
      image.src = `data:image/png;base64,${base64}`;
      await image.decode();
      const canvas = document.createElement('canvas');
      canvas.width = image.naturalWidth;
      canvas.height = image.naturalHeight;
      const context = canvas.getContext('2d')!;
      context.drawImage(image, 0, 0);
      const data = context.getImageData(0, 0, canvas.width, canvas.height).data;
      return { width: canvas.width, height: canvas.height, pixels: Array.from(data) };
    }, png.toString('base64'));
    return jsQR(Uint8ClampedArray.from(pixels), width, height)?.data;
  } finally {
    await blank.close();
  }
}

const axeSource = (() => {
  try {
    return readFileSync(join(root, 'node_modules/axe-core/axe.min.js'), 'utf8');
  } catch {
    return undefined;
  }
})();

/**
 * The axe-core violations inside `<pix-checkout>` (its shadow tree included), as "rule: target" lines. axe is
 * evaluated through the DevTools protocol, which the page's CSP does not govern, so the strict policy stays on.
 * Undefined when axe-core is not installed.
 */
export async function axeViolations(page: Page): Promise<string[] | undefined> {
  if (!axeSource) return undefined;
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axeSource);
  return page.evaluate(async () => {
    const axe = (
      window as unknown as { axe: { run(context: string): Promise<{ violations: { id: string; nodes: { target: unknown }[] }[] }> } }
    ).axe;
    const { violations } = await axe.run('pix-checkout');
    return violations.flatMap((v) => v.nodes.map((node) => `${v.id}: ${JSON.stringify(node.target)}`));
  });
}

/** The sandbox panel's transaction id, once it shows one. */
export async function panelTransactionId(page: Page): Promise<string> {
  const field = page.locator('#sb-transaction');
  await expect.poll(() => field.textContent()).toMatch(/^\w{8,}$/);
  return (await field.textContent())!;
}

export async function panelCheckoutId(page: Page): Promise<string> {
  const field = page.locator('#sb-checkout');
  await expect.poll(() => field.textContent()).toMatch(/^co_/);
  return (await field.textContent())!;
}

/** Clicks an outcome button of the sandbox panel, for example ('Resultado do PIX', 'Complete'). */
export async function driveOutcome(page: Page, section: 'Resultado do PIX' | 'Resultado do Open Finance', operation: string) {
  const button = page.getByRole('region', { name: section }).getByRole('button', { name: operation, exact: true });
  await expect.poll(() => button.isEnabled()).toBe(true);
  await button.click();
}

/** Waits until the element shows the result screen titled `title`. */
export async function expectResult(page: Page, title: string): Promise<void> {
  await element(page).getByRole('heading', { name: title }).waitFor({ timeout: 15_000 });
}
