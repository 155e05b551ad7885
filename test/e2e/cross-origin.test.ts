/**
 * A storefront on another origin, whose page is the README's snippet and nothing else, pays a PIX end to end: the
 * module comes from the BFF with CORS and passes its Subresource Integrity check, and the element calls the BFF's API
 * across origins. The BFF runs as `npm start` runs it, with ALLOWED_ORIGINS naming the storefront; the storefront is
 * a plain HTTP server on `localhost` and another port (the BFF is on 127.0.0.1). Without the right hash, or from an
 * origin the BFF does not allow, the module does not run.
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

/** The first `html` block of the README's "Embedding the element" section: what a merchant pastes. */
function readmeSnippet(): string {
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('## Embedding the element'));
  const snippet = /```html\n([\s\S]*?)```/.exec(section)?.[1];
  if (!snippet) throw new Error('README: no html snippet under "Embedding the element"');
  return snippet;
}

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

/** A storefront: every path answers a page whose body is `body()` (set per test). */
async function startStorefront(body: () => string) {
  const server: Server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(
      `<!doctype html>\n<html lang="pt-BR">\n<head><meta charset="utf-8"><title>Outra loja</title></head>\n<body>\n${body()}</body>\n</html>\n`,
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
    expect(headers['access-control-allow-origin']).toBe(`http://localhost:${storefront.port}`);
    expect(headers['cache-control']).toContain('immutable');
    expect(headers['content-encoding']).toMatch(/^(br|gzip)$/);
    expect(await shop.locator('script[type=module]').getAttribute('integrity')).toBe(manifest.integrity);

    const code = await pixCode(shop);
    expect(code).toMatch(/^000201/);
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

  it('does not run a module whose bytes do not match the integrity hash', async () => {
    const order = await placeOrder(bff);
    const wrong = `sha384-${Buffer.alloc(48, 7).toString('base64')}`;
    storefrontBody = () => fillSnippet(readmeSnippet(), { bff: bff.url, file: manifest.file, integrity: wrong, order });
    const shop = await newPage();
    await shop.goto(`http://localhost:${storefront.port}/checkout`);
    await expect.poll(() => problems.problems.join('\n')).toMatch(/integrity/i);
    expect(await defined(shop)).toBe(false);
    expect(await element(shop).evaluate((el) => el.shadowRoot)).toBeNull();
    problems.problems.splice(0);
  });

  it('does not run the module on an origin the BFF does not allow', async () => {
    const order = await placeOrder(bff);
    storefrontBody = () => fillSnippet(readmeSnippet(), { bff: bff.url, ...manifest, order });
    const shop = await newPage();
    // The same storefront under another name is another origin, and not in ALLOWED_ORIGINS.
    await shop.goto(`http://127.0.0.1:${storefront.port}/checkout`);
    await expect.poll(() => problems.problems.join('\n')).toMatch(/CORS|Access-Control-Allow-Origin/);
    expect(await defined(shop)).toBe(false);
    problems.problems.splice(0);
  });
});
