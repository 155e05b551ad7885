/**
 * The element's chunks loaded on demand (widget/chunks.ts), as `npm run build` leaves them and a browser runs them:
 * the entry holds no language but Portuguese, each chunk imports nothing, the entry carries each chunk's integrity
 * hash; in Chromium, an element switched to Spanish fetches the Spanish chunk alone and speaks Spanish, and a chunk
 * altered on the way is refused by the browser's integrity check (its code never runs) and the element stays in
 * Portuguese, still usable. The screens the first QR does not need (the receipt and every other outcome, the payer
 * form, a refused CPF, another method live) are a chunk too, asked for once the QR shows: a payment completed while it
 * cannot be had still says "Pagamento confirmado". The same chunk holds the flow's other paths: the payer form's CPF
 * checks, the error codes' words, a refused or still-prepared create, Open Finance once created, the console's
 * diagnostics of a page set up wrong.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { en } from '../../widget/i18n/en';
import { es } from '../../widget/i18n/es';
import { ptBR } from '../../widget/i18n/pt-br';
import { ptBRScreens } from '../../widget/i18n/pt-br-screens';
import { chooseMethod, driveOutcome, element, expectResult, openCheckoutPage, pixCode, placeOrder, useE2E } from './helpers';

const e2e = useE2E();
const built = (name: string) => readFileSync(fileURLToPath(new URL(`../../dist/widget/${name}`, import.meta.url)));
const manifest = JSON.parse(built('integrity.json').toString()) as {
  file: string;
  chunks: { name: string; file: string; integrity: string }[];
};
const chunk = (name: string) => manifest.chunks.find((c) => c.name === name)!;

/** The demo's checkout page with the element on its QR, then switched to `lang`; returns the chunk files fetched. */
async function switchLanguage(page: Page, lang: string): Promise<string[]> {
  const fetched: string[] = [];
  page.on('request', (request) => {
    const name = /\/widget\/(pix-checkout-[^/]+\.js)$/.exec(request.url())?.[1];
    if (name) fetched.push(name);
  });
  await openCheckoutPage(page, e2e.app, await placeOrder(e2e.app));
  await chooseMethod(page, 'Pix');
  await pixCode(page);
  await element(page).evaluate((el, value) => el.setAttribute('lang', value), lang);
  return fetched;
}

describe('the build', () => {
  it('keeps English and Spanish out of the entry, in chunks that import nothing', () => {
    const entry = built('pix-checkout.js').toString();
    expect(manifest.chunks.map((c) => c.name).sort()).toEqual(['en', 'es', 'screens']);
    expect(entry).not.toContain(es.chooseMethod);
    expect(entry).not.toContain(en.chooseMethod);
    expect(built(chunk('es').file).toString()).toContain(es.chooseMethod);
    // A static import (`import … from"./x.js"`, `import"./x.js"`) or a dynamic one (`import("./x.js")`).
    const imports = /\bfrom\s*["'`]\.{0,2}\/|\bimport\s*["'`(]/;
    for (const { file } of manifest.chunks) expect(built(file).toString()).not.toMatch(imports);
    expect(entry).toMatch(imports);
  });

  it('keeps the screens the first QR does not need out of the entry, in their chunk', () => {
    const entry = built('pix-checkout.js').toString();
    const inChunk = built(chunk('screens').file).toString();
    // A mark of each moved screen's template (the classes alone are in the entry's styles too).
    const screens = {
      receipt: 'part="receipt"',
      'save receipt': 'window.print',
      'payer form': 'autocomplete="name"',
      'refused CPF': 'data-state="refused"',
      'another method live': 'data-state="conflict"',
      expired: 'data-state="Expired"',
      'failed payment': 'class="result failure" data-state=${',
    };
    for (const [screen, mark] of Object.entries(screens)) {
      expect(entry.includes(mark), `${screen} in the entry`).toBe(false);
      expect(inChunk.includes(mark), `${screen} in the chunk`).toBe(true);
    }
  });

  it('keeps the paths the first QR does not take out of the entry, in the chunk', () => {
    const entry = built('pix-checkout.js').toString();
    const screens = built(chunk('screens').file).toString();
    // A mark of each moved module's code (issue 27, goal 6: the entry is what a page needs until the QR is drawn).
    const modules = {
      'the CPF check (cpf-input.ts, core/cpf.ts)': String.raw`(\d)\1{10}$/`,
      "the error codes' words (error-text.ts)": 'payer_cpf_invalid',
      'a payment still being prepared, asked again (session-steps.ts)': 'checkout_pending',
      "the console's setup diagnostics (diagnostics.ts)": 'ALLOWED_ORIGINS',
      'the missing token warning (diagnostics.ts)': 'this tab already made can be resumed',
      "Open Finance's pending screen (openfinance.ts)": 'class="pending openfinance"',
      'the redirect to the bank (openfinance.ts)': 'pix-checkout-redirect',
      "the receipt's continue link (screens-view.ts)": 'pix-checkout-continue',
      'the outcome icons (outcome-icons.ts)': 'M12 7v5l3.5 2',
    };
    for (const [module, mark] of Object.entries(modules)) {
      expect(entry.includes(mark), `${module} in the entry`).toBe(false);
      expect(screens.includes(mark), `${module} in the chunk`).toBe(true);
    }
  });

  it('keeps the Portuguese strings of those screens in their chunk', () => {
    const entry = built('pix-checkout.js').toString();
    const screens = built(chunk('screens').file).toString();
    // Some words are the entry's too ("Tentar novamente"): those stay.
    const own = Object.values(ptBRScreens).filter((text) => !Object.values(ptBR).includes(text));
    expect(own.length).toBeGreaterThan(20);
    // As a string literal, whatever its quotes: "CPF" alone is in the entry's longer strings too.
    const literal = (code: string, text: string) => ['"', "'", '`'].some((q) => code.includes(q + text + q));
    for (const text of own) {
      expect(literal(entry, text), text).toBe(false);
      expect(literal(screens, text), text).toBe(true);
    }
  });

  it('writes into the entry each chunk with the SRI hash of its bytes', () => {
    const entry = built('pix-checkout.js').toString();
    for (const { name, file, integrity } of manifest.chunks) {
      expect(integrity).toBe(`sha384-${createHash('sha384').update(built(file)).digest('base64')}`);
      expect(entry).toContain(`${name} ${file} ${integrity}`);
    }
  });
});

describe('in the browser', () => {
  it('loads the Spanish chunk alone when the element turns Spanish, and speaks Spanish', { timeout: 60_000 }, async () => {
    const page = await e2e.newPage();
    const fetched = await switchLanguage(page, 'es');
    await expect.poll(() => element(page).getByRole('img', { name: es.qrLabel }).count(), { timeout: 10_000 }).toBe(1);
    // The screens' chunk is asked for as the QR shows, whatever the language.
    expect(fetched.filter((file) => file !== chunk('screens').file)).toEqual([chunk('es').file]);
  });

  it('refuses a chunk altered on the way: its code never runs, and the element stays in Portuguese', { timeout: 60_000 }, async () => {
    const page = await e2e.newPage();
    await page.route(`**/widget/${chunk('es').file}`, async (route) => {
      const response = await route.fetch();
      const body = `window.tamperedChunkRan = true;\n${await response.text()}`;
      await route.fulfill({ response, body });
    });
    await switchLanguage(page, 'es');
    // Two reports come, in either order: Chromium's own refusal and the element's console error. Wait for the latter.
    await expect.poll(() => e2e.problems.problems.some((p) => /<pix-checkout>:.*integrity/i.test(p)), { timeout: 10_000 }).toBe(true);
    await expect
      .poll(() => e2e.problems.problems.some((p) => !/<pix-checkout>:/.test(p) && /integrity/i.test(p)), { timeout: 10_000 })
      .toBe(true);
    const problems = e2e.problems.problems.splice(0);
    expect(
      problems.every((p) => /integrity/i.test(p)),
      problems.join('\n'),
    ).toBe(true);
    expect(await page.evaluate(() => (window as unknown as { tamperedChunkRan?: boolean }).tamperedChunkRan)).toBeUndefined();
    await expect.poll(() => element(page).getByRole('img', { name: 'QR code do pagamento Pix' }).count()).toBe(1);
  });

  it('says "Pagamento confirmado" when the chunk of the screens cannot be had', { timeout: 60_000 }, async () => {
    const page = await e2e.newPage();
    await page.route(`**/widget/${chunk('screens').file}`, (route) => route.abort());
    await openCheckoutPage(page, e2e.app, await placeOrder(e2e.app));
    await chooseMethod(page, 'Pix');
    await pixCode(page);
    await driveOutcome(page, 'Resultado do PIX', 'Complete');
    await expectResult(page, 'Pagamento confirmado');
    const problems = e2e.problems.problems.splice(0);
    expect(problems.length).toBeGreaterThan(0);
    expect(await element(page).locator('[part="receipt"]').count()).toBe(0);
  });
});
