// Point 3, copy-first phones: amount, countdown and a large copy button above the fold at 390 px with touch, the code
// shortened with an expand control, "Copiado" with an icon that resets and is followed by the next step, and focus on
// the heading of every new screen, brought into view. Keyboard-only use too.
import { expect, waitUntil } from '@open-wc/testing';
import { sendKeys, setViewport } from '@web/test-runner-commands';
import type { PixCheckout } from '../../widget/index.js';
import {
  $,
  asTouchDevice,
  focused,
  mountCheckout,
  newOrderId,
  screenHeading,
  setBackendState,
  sleep,
  waitForFocusedHeading,
  waitForSelector,
  waitForText,
} from './helpers.js';

const copyButton = (el: PixCheckout) => $(el, '[part~="copy-button"]') as HTMLButtonElement;
const codeToggle = (el: PixCheckout) => $(el, '.code-toggle') as HTMLButtonElement;
const code = (el: PixCheckout) => $(el, '#pix-code')!;
const rect = (el: PixCheckout, selector: string) => $(el, selector)!.getBoundingClientRect();

/** A page where the element sits below the fold, with the chooser on screen. */
async function chooserBelowTheFold(attributes: Record<string, string | boolean> = {}) {
  const mounted = await mountCheckout({ endpoint: '/api', 'order-id': newOrderId(), methods: 'pix openfinance', ...attributes });
  const spacer = document.createElement('div');
  spacer.style.height = '1500px';
  mounted.el.before(spacer);
  await waitForSelector(mounted.el, '[data-method="pix"]');
  return { ...mounted, spacer };
}

describe('<pix-checkout> on phones', () => {
  afterEach(async () => {
    sessionStorage.clear();
    window.scrollTo(0, 0);
    await setViewport({ width: 800, height: 600 });
  });

  it('puts amount, countdown and a large copy button above the fold at 390 px with touch', async () => {
    await setViewport({ width: 390, height: 844 });
    await asTouchDevice(async () => {
      const { el, spacer } = await chooserBelowTheFold();
      const pix = $(el, '[data-method="pix"]')!;
      pix.focus();
      pix.click();
      await waitForFocusedHeading(el, 'Pague com Pix');
      // As high as the page lets it go: the heading starts the screen, whatever was above it scrolled away.
      expect(screenHeading(el).getBoundingClientRect().top, 'the heading near the top').to.be.within(0, window.innerHeight / 4);
      expect(window.scrollY, 'scrolled past the 1500 px above').to.be.above(1400);
      for (const selector of ['[part="amount"]', '[part="countdown"]', '[part~="copy-button"]']) {
        expect(rect(el, selector).bottom, selector).to.be.within(0, window.innerHeight);
      }
      expect(rect(el, '[part~="copy-button"]').height).to.be.at.least(48);
      expect(rect(el, '[part~="copy-button"]').top).to.be.below(rect(el, 'svg[part="qr"]').top);
      expect(document.documentElement.scrollWidth).to.be.at.most(window.innerWidth);
      await expect(el).to.be.accessible();
      spacer.remove();
    });
  });

  it('shows the code shortened, 00020101…E439, with an expand control', async () => {
    const { el } = await mountCheckout({ endpoint: '/api', 'order-id': newOrderId() });
    await waitForSelector(el, '#pix-code');
    const full = code(el).textContent;
    expect(code(el).innerText).to.equal(`${full.slice(0, 8)}${full.slice(-4)}`);
    expect(getComputedStyle($(el, '.code-end')!, '::before').content).to.equal('"…"');
    expect(rect(el, '#pix-code').height, 'one line').to.be.below(30);
    expect(codeToggle(el).getAttribute('aria-expanded')).to.equal('false');
    expect(codeToggle(el).getAttribute('aria-controls')).to.equal('pix-code');
    codeToggle(el).click();
    await el.updateComplete;
    expect(codeToggle(el).getAttribute('aria-expanded')).to.equal('true');
    expect(code(el).innerText.replace(/\s/g, '')).to.equal(full.replace(/\s/g, ''));
    expect(codeToggle(el).textContent.trim()).to.equal('Ocultar código');
    await expect(el).to.be.accessible();
    codeToggle(el).click();
    await el.updateComplete;
    expect(codeToggle(el).getAttribute('aria-expanded')).to.equal('false');
  });

  it('says "Copiado" with an icon, then the next step, and offers to copy again after about 3 s', async () => {
    const { el } = await mountCheckout({ endpoint: '/api', 'order-id': newOrderId() });
    await waitForSelector(el, '#pix-code');
    Object.defineProperty(navigator, 'clipboard', { value: { writeText: () => Promise.resolve() }, configurable: true });
    try {
      expect(copyButton(el).querySelector('svg.icon-copy')).to.exist;
      copyButton(el).click();
      await waitUntil(() => copyButton(el).textContent.trim() === 'Copiado');
      expect(copyButton(el).querySelector('svg.icon-check')).to.exist;
      expect($(el, '.next-step')!.textContent).to.equal('Agora abra o app do seu banco e cole em Pix Copia e Cola.');
      await expect(el).to.be.accessible();
      await sleep(2500);
      expect(copyButton(el).textContent.trim()).to.equal('Copiado');
      await waitUntil(() => copyButton(el).textContent.trim() === 'Copiar código Pix', 'reset after ~3 s', { timeout: 1500 });
      expect($(el, '.next-step'), 'the next step stays').to.exist;
    } finally {
      delete (navigator as { clipboard?: Clipboard }).clipboard;
    }
  });

  it('moves focus to the heading of every new screen, and leaves the first one alone', async () => {
    const { el, events, spacer } = await chooserBelowTheFold();
    expect(focused(el), 'page load keeps the page focus').to.equal(null);
    const pix = $(el, '[data-method="pix"]')!;
    pix.focus();
    pix.click();
    await waitForFocusedHeading(el, 'Pague com Pix');
    expect(screenHeading(el).getBoundingClientRect().top).to.be.within(0, window.innerHeight);
    await setBackendState(events[0]!.detail.checkoutId, 'Completed');
    await waitForFocusedHeading(el, 'Pagamento confirmado');
    spacer.remove();
  });

  it("does not take focus from the shop's own form when the payment completes", async () => {
    const { el, events } = await mountCheckout({ endpoint: '/api', 'order-id': newOrderId(), methods: 'pix openfinance' });
    await waitForSelector(el, '[data-method="pix"]');
    $(el, '[data-method="pix"]')!.click();
    await waitForSelector(el, '#pix-code');
    const shopInput = document.createElement('input');
    shopInput.setAttribute('aria-label', 'Cupom');
    el.after(shopInput);
    shopInput.focus();
    await setBackendState(events[0]!.detail.checkoutId, 'Completed');
    await waitForText(el, 'Pagamento confirmado');
    expect(document.activeElement).to.equal(shopInput);
    shopInput.remove();
  });

  it('works from the keyboard alone: choose PIX, reach the copy button, copy', async () => {
    const { el } = await mountCheckout({ endpoint: '/api', 'order-id': newOrderId(), methods: 'pix openfinance' });
    await waitForSelector(el, '[data-method="pix"]');
    Object.defineProperty(navigator, 'clipboard', { value: { writeText: () => Promise.resolve() }, configurable: true });
    try {
      await sendKeys({ press: 'Tab' });
      expect(focused(el)).to.equal($(el, '[data-method="pix"]'));
      await sendKeys({ press: 'Enter' });
      await waitForFocusedHeading(el, 'Pague com Pix');
      await sendKeys({ press: 'Tab' });
      expect(focused(el)).to.equal(copyButton(el));
      await sendKeys({ press: 'Enter' });
      await waitUntil(() => copyButton(el).textContent.trim() === 'Copiado');
      await sendKeys({ press: 'Tab' });
      expect(focused(el)).to.equal(codeToggle(el));
      await sendKeys({ press: 'Enter' });
      await waitUntil(() => codeToggle(el).getAttribute('aria-expanded') === 'true');
    } finally {
      delete (navigator as { clipboard?: Clipboard }).clipboard;
    }
  });
});
