// A receipt to keep: "Salvar comprovante" opens the print dialog (print, or save as PDF), and on paper the receipt
// prints alone, black on white, with no buttons, in either theme.
import { expect } from '@open-wc/testing';
import { emulateMedia } from '@web/test-runner-commands';
import type { PixCheckout } from '../../widget/index.js';
import { $, mountCheckout, newOrderId, setBackendState, waitForSelector } from './helpers.js';

const BLACK = 'rgb(0, 0, 0)';
const WHITE = 'rgb(255, 255, 255)';

/** A completed PIX checkout on screen, with a continue link and the bank's voucher. */
async function receipt(attributes: Record<string, string> = {}) {
  const mounted = await mountCheckout({
    endpoint: '/api',
    'order-id': newOrderId(),
    'merchant-name': 'Armazém Cerrado',
    'continue-url': '/shop/thanks',
    ...attributes,
  });
  await waitForSelector(mounted.el, '#pix-code');
  await setBackendState(mounted.events[0]!.detail.checkoutId, 'Completed', {
    paidAt: '2025-03-12T17:32:00Z',
    payerBank: 'Banco Exemplo S.A.',
    receiptVoucher: 'https://bank.example/comprovantes/E123',
  });
  await waitForSelector(mounted.el, '[part="receipt"]');
  return mounted;
}

const saveButton = (el: PixCheckout) => $(el, '[part~="save-button"]') as HTMLButtonElement;
const shown = (node: Element | null) => Boolean(node) && getComputedStyle(node!).display !== 'none' && node!.getClientRects().length > 0;

describe('<pix-checkout> a receipt to keep', () => {
  const originalPrint = window.print;
  afterEach(async () => {
    window.print = originalPrint;
    sessionStorage.clear();
    await emulateMedia({ media: 'screen', colorScheme: 'light' });
  });

  for (const [lang, label] of [
    ['pt-BR', 'Salvar comprovante'],
    ['en', 'Save receipt'],
  ]) {
    it(`offers "${label}" on the receipt (${lang}), which opens the print dialog`, async () => {
      const { el } = await receipt({ lang: lang! });
      let printed = 0;
      window.print = () => {
        printed += 1;
      };
      const button = saveButton(el);
      expect(button.textContent.trim()).to.equal(label);
      expect(button.type).to.equal('button');
      expect(shown(button)).to.equal(true);
      button.click();
      expect(printed).to.equal(1);
      await expect(el).to.be.accessible();
    });
  }

  it('offers it on the receipt only', async () => {
    const { el, events } = await mountCheckout({ endpoint: '/api', 'order-id': newOrderId() });
    await waitForSelector(el, '#pix-code');
    expect(saveButton(el)).to.equal(null);
    await setBackendState(events[0]!.detail.checkoutId, 'Error');
    await waitForSelector(el, '[part="result"][data-state="Error"]');
    expect(saveButton(el)).to.equal(null);
  });

  it("prints the element alone with the README's page rule", async () => {
    const { el } = await receipt();
    const shop = document.createElement('header');
    shop.textContent = 'Armazém Cerrado: ofertas da semana';
    el.parentElement!.before(shop);
    const style = document.createElement('style');
    // README, "Theming", "A receipt to keep".
    style.textContent = `@media print {
      body * { visibility: hidden; }
      pix-checkout, pix-checkout * { visibility: visible; }
      pix-checkout { position: absolute; inset: 0 auto auto 0; }
    }`;
    document.head.append(style);
    try {
      await emulateMedia({ media: 'print' });
      expect(getComputedStyle(shop).visibility).to.equal('hidden');
      expect(getComputedStyle($(el, '[part="receipt"]')!).visibility).to.equal('visible');
      expect(el.getBoundingClientRect().top).to.equal(0);
    } finally {
      style.remove();
      shop.remove();
    }
  });

  for (const theme of ['light', 'dark']) {
    it(`prints the receipt alone, black on white, with no buttons (theme="${theme}")`, async () => {
      const { el } = await receipt({ theme });
      // The page's own part rules do not bring the buttons back on paper.
      const style = document.createElement('style');
      style.textContent = 'pix-checkout::part(button) { display: block; color: red; }';
      document.head.append(style);
      try {
        expect(shown($(el, '[part~="continue-button"]')), 'on screen').to.equal(true);
        await emulateMedia({ media: 'print' });
        for (const selector of ['[part~="save-button"]', '[part~="continue-button"]', '.result .icon', '.actions']) {
          expect(shown($(el, selector)), selector).to.equal(false);
        }
        for (const selector of ['#screen-title', '[part="message"]', '[part="receipt"]']) {
          expect(shown($(el, selector)), selector).to.equal(true);
          expect(getComputedStyle($(el, selector)!).color, selector).to.equal(BLACK);
        }
        for (const selector of ['.base', '[part="receipt"] dd', '[part="receipt"] dt']) {
          expect(getComputedStyle($(el, selector)!).color, selector).to.equal(BLACK);
        }
        expect(getComputedStyle($(el, '.base')!).backgroundColor).to.equal(WHITE);
        expect(getComputedStyle($(el, '.base')!).borderTopWidth).to.equal('0px');
        // The bank's voucher link prints its address, since paper cannot be clicked.
        expect(getComputedStyle($(el, '.receipt a')!, '::after').content).to.contain('https://bank.example/comprovantes/E123');
      } finally {
        style.remove();
      }
    });
  }
});
