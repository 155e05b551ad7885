/**
 * A storefront on another origin, whose page is the README's snippet and nothing else, pays a PIX end to end, and an
 * OpenFinance payment through the emulator's bank page, which sends the shopper back to the storefront's receipt: the
 * module comes from the BFF with CORS and passes its Subresource Integrity check, and the element calls the BFF's API
 * across origins. The BFF runs as `npm start` runs it, with ALLOWED_ORIGINS naming the storefront; the storefront is
 * a plain HTTP server on `localhost` and another port (the BFF is on 127.0.0.1). Without the right hash the module
 * does not run and the snippet's fallback content shows (with the README's stylesheet rule); on an origin the BFF does
 * not allow, the module runs and says the page may not take payments, and the console says why.
 */
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  BrowserProblems,
  element,
  expectResult,
  launchChromium,
  newWatchedContext,
  pixCode,
  placeOrder,
  readOrder,
  startApp,
  type PlacedOrder,
  type RunningApp,
} from './helpers';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** The first `language` block of the README from `heading` on. */
function readmeBlock(heading: string, language: 'html' | 'css'): string {
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const at = readme.indexOf(heading);
  if (at < 0) throw new Error(`README: no "${heading}"`);
  const section = readme.slice(at);
  const block = new RegExp(`\`\`\`${language}\\n([\\s\\S]*?)\`\`\``).exec(section)?.[1];
  if (!block) throw new Error(`README: no ${language} block under "${heading}"`);
  return block;
}

/** The first `html` block of the README's "Embedding the element" section: what a merchant pastes. */
const readmeSnippet = () => readmeBlock('## Embedding the element', 'html');
/** The README's stylesheet rule for the fallback content, as the storefront's stylesheet. */
const readmeFallbackCss = () => readmeBlock('### Fallback content', 'css');

/** The snippet with this build's file and hash, this BFF's address and a real order, as the merchant's server fills it. */
function fillSnippet(snippet: string, values: { bff: string; file: string; integrity: string; order: PlacedOrder }): string {
  const replacements: [string, string][] = [
    ['https://pay.example', values.bff],
    ['pix-checkout.<hash>.js', values.file],
    ['sha384-<digest>', values.integrity],
    ['"A-1001"', JSON.stringify(values.order.orderId)],
    ['"1767225600.gQ3k…"', JSON.stringify(values.order.orderToken)],
  ];
  return replacements.reduce((text, [placeholder, value]) => {
    expect(text, `the README snippet has ${placeholder}`).toContain(placeholder);
    return text.replaceAll(placeholder, value);
  }, snippet);
}

/** A storefront: every path answers a page whose body is `body()` (set per test), and `/shop.css` the README's rule. */
async function startStorefront(body: () => string) {
  const server: Server = createServer((req, res) => {
    if (req.url === '/shop.css') {
      res.writeHead(200, { 'content-type': 'text/css; charset=utf-8' });
      res.end(readmeFallbackCss());
      return;
    }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(
      '<!doctype html>\n<html lang="pt-BR">\n<head><meta charset="utf-8"><title>Outra loja</title>' +
        `<link rel="stylesheet" href="/shop.css"></head>\n<body>\n${body()}</body>\n</html>\n`,
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

let storefrontBody = () => '';
let storefront: Awaited<ReturnType<typeof startStorefront>>;
let bff: RunningApp;
let browser: Browser;
let manifest: { file: string; integrity: string };
const problems = new BrowserProblems();
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  manifest = JSON.parse(readFileSync(join(root, 'dist/widget/integrity.json'), 'utf8'));
  storefront = await startStorefront(() => storefrontBody());
  bff = await startApp({ ALLOWED_ORIGINS: `http://localhost:${storefront.port}` });
  browser = await launchChromium();
});
afterEach(async () => {
  await Promise.all(contexts.splice(0).map((context) => context.close()));
  problems.expectNone();
});
afterAll(async () => {
  await browser?.close();
  await bff?.stop();
  await storefront?.close();
});

async function newPage(): Promise<Page> {
  const context = await newWatchedContext(browser, problems);
  contexts.push(context);
  return context.newPage();
}

const defined = (p: Page) => p.evaluate(() => customElements.get('pix-checkout') !== undefined);
/** The snippet's fallback paragraph (the element's light-DOM child). */
const fallback = (p: Page) => p.locator('pix-checkout > .pix-fallback');

describe('a storefront on another origin, with only the README snippet', () => {
  it('loads the element from the BFF (CORS, SRI) and pays a PIX end to end', async () => {
    const order = await placeOrder(bff);
    storefrontBody = () => fillSnippet(readmeSnippet(), { bff: bff.url, ...manifest, order });
    const shop = await newPage();
    // Every request the page sends, CORS preflights included (DevTools lists them; page.on('request') does not).
    const sent: string[] = [];
    const devtools = await shop.context().newCDPSession(shop);
    await devtools.send('Network.enable');
    devtools.on('Network.requestWillBeSent', (event) => sent.push(`${event.request.method} ${new URL(event.request.url).pathname}`));
    const completed = new Promise<unknown>((resolve) => void shop.exposeFunction('reportCompleted', resolve));
    const module = shop.waitForResponse((response) => response.url().endsWith(`/widget/${manifest.file}`));
    await shop.goto(`http://localhost:${storefront.port}/checkout`);
    await shop.evaluate(() =>
      document.addEventListener('pix-checkout-completed', (event) =>
        (window as unknown as { reportCompleted(detail: unknown): void }).reportCompleted((event as CustomEvent).detail),
      ),
    );

    const response = await module;
    expect(response.status()).toBe(200);
    const headers = await response.allHeaders();
    expect(headers['access-control-allow-origin']).toBe('*');
    expect(headers['cache-control']).toContain('immutable');
    expect(headers['content-encoding']).toMatch(/^(br|gzip)$/);
    expect(await shop.locator('script[type=module]').getAttribute('integrity')).toBe(manifest.integrity);

    const code = await pixCode(shop);
    expect(code).toMatch(/^000201/);
    // The snippet's fallback content is the element's child: hidden while the element works.
    expect(await fallback(shop).count()).toBe(1);
    expect(await fallback(shop).isVisible()).toBe(false);
    // The create is a CORS "simple" request: the QR came after one round trip to the BFF, with no preflight.
    expect(sent).toContain('POST /api/checkouts');
    expect(sent.filter((request) => request.startsWith('OPTIONS '))).toEqual([]);
    const [checkout] = (await readOrder(bff, order.orderId)).checkouts;
    expect(checkout).toMatchObject({ method: 'pix', state: 'Registered' });
    const completedAtProvider = await fetch(`${bff.url}/demo/api/sandbox/pix/complete/${encodeURIComponent(checkout!.transactionId)}`, {
      method: 'POST',
    });
    expect(completedAtProvider.status).toBe(200);

    await expectResult(shop, 'Pagamento confirmado');
    expect(await completed).toMatchObject({ orderId: order.orderId, checkoutId: checkout!.id, state: 'Completed' });
    expect((await readOrder(bff, order.orderId)).checkouts).toEqual([expect.objectContaining({ state: 'Completed' })]);
    expect(bff.output()).toMatch(new RegExp(`webhook ${checkout!.transactionId} Completed: applied`));
  });

  it('looks the order up across origins without a preflight when the page offers a choice of methods', async () => {
    const order = await placeOrder(bff);
    storefrontBody = () =>
      fillSnippet(readmeSnippet(), { bff: bff.url, ...manifest, order }).replace(
        '<pix-checkout ',
        '<pix-checkout methods="pix openfinance" ',
      );
    const shop = await newPage();
    const sent: string[] = [];
    const devtools = await shop.context().newCDPSession(shop);
    await devtools.send('Network.enable');
    devtools.on('Network.requestWillBeSent', (event) => sent.push(`${event.request.method} ${new URL(event.request.url).pathname}`));
    await shop.goto(`http://localhost:${storefront.port}/checkout`);
    // The order has no checkout yet: the lookup answers 204 and the chooser shows.
    await element(shop).locator('[part="chooser"]').waitFor();
    expect(sent).toContain(`POST /api/orders/${encodeURIComponent(order.orderId)}/checkout`);
    expect(sent.filter((request) => request.startsWith('OPTIONS '))).toEqual([]);
  });

  it('does not run a module whose bytes do not match the integrity hash, and shows the fallback content instead', async () => {
    const order = await placeOrder(bff);
    const wrong = `sha384-${Buffer.alloc(48, 7).toString('base64')}`;
    storefrontBody = () => fillSnippet(readmeSnippet(), { bff: bff.url, file: manifest.file, integrity: wrong, order });
    const shop = await newPage();
    await shop.goto(`http://localhost:${storefront.port}/checkout`);
    await expect.poll(() => problems.problems.join('\n')).toMatch(/integrity/i);
    expect(await defined(shop)).toBe(false);
    expect(await element(shop).evaluate((el) => el.shadowRoot)).toBeNull();
    // The README's rule keeps it out of sight for the first seconds of a load, then the shopper has a way on.
    await fallback(shop).waitFor({ state: 'visible', timeout: 10_000 });
    await expect(shop.getByRole('link', { name: 'Veja outras formas de pagar' }).isVisible()).resolves.toBe(true);
    problems.problems.splice(0);
  });

  it('runs the module on an origin the BFF does not allow, and says the page may not take payments, and the console why', async () => {
    const order = await placeOrder(bff);
    storefrontBody = () => fillSnippet(readmeSnippet(), { bff: bff.url, ...manifest, order });
    const shop = await newPage();
    const refused = new Promise<unknown>((resolve) => void shop.exposeFunction('reportError', resolve));
    await shop.addInitScript(() =>
      document.addEventListener('pix-checkout-error', (event) =>
        (window as unknown as { reportError(detail: unknown): void }).reportError((event as CustomEvent).detail),
      ),
    );
    // The same storefront under another name is another origin, and not in ALLOWED_ORIGINS.
    const origin = `http://127.0.0.1:${storefront.port}`;
    await shop.goto(`${origin}/checkout`);
    await expectResult(shop, 'Não foi possível iniciar o pagamento');
    expect(await element(shop).locator('[part="message"]').textContent()).toBe(
      'Esta página não está autorizada a receber pagamentos. Avise a loja.',
    );
    expect(await refused).toMatchObject({ orderId: order.orderId, status: 403, code: 'origin_not_allowed' });
    // The snippet's fallback shows below the message: the shopper still has a way on.
    await expect(fallback(shop).isVisible()).resolves.toBe(true);
    // The page's console names the origin and the setting; nothing was made for the order.
    await expect
      .poll(() => problems.problems.join('\n'))
      .toContain(`does not take payments from pages on ${origin}: add ${origin} to the BFF's ALLOWED_ORIGINS setting`);
    expect((await readOrder(bff, order.orderId)).checkouts).toEqual([]);
    problems.problems.splice(0);
  });

  it('pays by OpenFinance at the bank page and comes back to the storefront on the receipt', async () => {
    const order = await placeOrder(bff, [{ sku: 'caneca', quantity: 1 }]);
    storefrontBody = () =>
      fillSnippet(readmeSnippet(), { bff: bff.url, ...manifest, order }).replace('<pix-checkout ', '<pix-checkout methods="openfinance" ');
    const shop = await newPage();
    const storefrontPage = `http://localhost:${storefront.port}/checkout`;
    await shop.goto(storefrontPage);
    await element(shop).getByLabel('CPF', { exact: true }).pressSequentially('529.982.247-25');
    await element(shop).getByRole('button', { name: 'Continuar no meu banco' }).click();
    await shop.waitForURL(new RegExp(`^${bff.url}/sandbox/.*/checkout/init/`));
    const [created] = (await readOrder(bff, order.orderId)).checkouts;
    expect(created).toMatchObject({ method: 'openfinance', state: 'Registered' });

    await shop.getByRole('button', { name: 'Aprovar pagamento' }).click();
    await shop.waitForURL(storefrontPage);
    await expectResult(shop, 'Pagamento confirmado');
    expect((await readOrder(bff, order.orderId)).checkouts).toEqual([expect.objectContaining({ id: created!.id, state: 'Completed' })]);
  });
});
