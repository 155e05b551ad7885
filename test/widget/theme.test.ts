// The dark theme: it follows prefers-color-scheme unless the page sets theme="light" or theme="dark"; axe (its
// color-contrast rule included) finds nothing in either theme on every kind of screen; the QR stays dark on white.
import { expect, fixture, html } from '@open-wc/testing';
import { emulateMedia } from '@web/test-runner-commands';
import type { PixCheckout } from '../../widget/index.js';
import { $, mountCheckout, newOrderId, orderTokenFor, setBackendState, typeInto, waitForSelector } from './helpers.js';

const DARK_BACKGROUND = 'rgb(30, 34, 38)';
const WHITE = 'rgb(255, 255, 255)';
const BLACK = 'rgb(0, 0, 0)';

const background = (el: PixCheckout, selector = '.base') => getComputedStyle($(el, selector)!).backgroundColor;
const isDark = (el: PixCheckout) => background(el) === DARK_BACKGROUND;

/** Axe, with its color-contrast rule (chai-a11y-axe runs every rule but those a test ignores, and these ignore none). */
async function expectAccessible(el: PixCheckout, what: string) {
  await expect(el, what).to.be.accessible();
  const axe = (window as unknown as { axe: { getRules(): { ruleId: string }[] } }).axe;
  expect(
    axe.getRules().map((rule) => rule.ruleId),
    what,
  ).to.include('color-contrast');
}

/** Walks one checkout through the screens a shopper can see, checking each with axe. */
async function everyScreenAccessible(attributes: Record<string, string>, label: string) {
  const { el, events } = await mountCheckout({
    endpoint: '/api',
    'order-id': newOrderId(),
    methods: 'pix openfinance',
    'collect-payer': true,
    'merchant-name': 'Armazém Cerrado',
    ...attributes,
  });
  await waitForSelector(el, '[data-method="pix"]');
  await expectAccessible(el, `${label}: chooser`);
  ($(el, '[data-method="pix"]') as HTMLButtonElement).click();
  const cpf = (await waitForSelector(el, '#cpf')) as HTMLInputElement;
  await typeInto(cpf, '111');
  ($(el, 'button[type="submit"]') as HTMLButtonElement).click();
  await waitForSelector(el, '.field-error');
  await expectAccessible(el, `${label}: payer form with an error`);
  cpf.value = '';
  cpf.dispatchEvent(new InputEvent('input', { bubbles: true, composed: true }));
  ($(el, 'button[type="submit"]') as HTMLButtonElement).click();
  await waitForSelector(el, 'svg[part="qr"]');
  await expectAccessible(el, `${label}: PIX code`);
  const checkoutId = events.find((event) => event.type === 'pix-checkout-created')!.detail.checkoutId as string;
  await setBackendState(checkoutId, 'Completed', { paidAt: '2025-03-12T17:32:00Z', payerBank: 'Banco Exemplo S.A.' });
  await waitForSelector(el, '[part="receipt"]');
  await expectAccessible(el, `${label}: receipt`);
  return el;
}

describe('<pix-checkout> themes', () => {
  afterEach(async () => {
    sessionStorage.clear();
    await emulateMedia({ colorScheme: 'light' });
  });

  it('is light by default on a light system, and adds no attribute to the page', async () => {
    await emulateMedia({ colorScheme: 'light' });
    const { el } = await mountCheckout({ endpoint: '/api', 'order-id': newOrderId() });
    await waitForSelector(el, 'svg[part="qr"]');
    expect(background(el)).to.equal(WHITE);
    expect(el.hasAttribute('theme')).to.equal(false);
  });

  it('follows a dark system, keeping the QR dark on a white quiet zone', async () => {
    await emulateMedia({ colorScheme: 'dark' });
    const { el } = await mountCheckout({ endpoint: '/api', 'order-id': newOrderId() });
    await waitForSelector(el, 'svg[part="qr"]');
    expect(background(el)).to.equal(DARK_BACKGROUND);
    expect(getComputedStyle(el).colorScheme).to.equal('dark');
    expect(getComputedStyle($(el, '.qr-modules')!).fill).to.equal(BLACK);
    expect(getComputedStyle($(el, '.qr-background')!).fill).to.equal(WHITE);
    // The white frame around the symbol: the 2-module margin inside the SVG does not stand alone against dark.
    const qr = getComputedStyle($(el, 'svg[part="qr"]')!);
    expect(qr.backgroundColor).to.equal(WHITE);
    expect(parseFloat(qr.paddingTop)).to.be.above(4);
    await expectAccessible(el, 'dark PIX screen');
  });

  it('stays light with theme="light" on a dark system', async () => {
    await emulateMedia({ colorScheme: 'dark' });
    const { el } = await mountCheckout({ endpoint: '/api', 'order-id': newOrderId(), theme: 'light' });
    await waitForSelector(el, 'svg[part="qr"]');
    expect(background(el)).to.equal(WHITE);
    expect(parseFloat(getComputedStyle($(el, 'svg[part="qr"]')!).paddingTop)).to.equal(0);
  });

  it('is dark with theme="dark" on a light system, and reflects the property', async () => {
    await emulateMedia({ colorScheme: 'light' });
    const { el } = await mountCheckout({ endpoint: '/api', 'order-id': newOrderId(), theme: 'dark' });
    await waitForSelector(el, 'svg[part="qr"]');
    expect(isDark(el)).to.equal(true);
    el.theme = 'light';
    await el.updateComplete;
    expect(el.getAttribute('theme')).to.equal('light');
    expect(background(el)).to.equal(WHITE);
    el.theme = 'dark';
    await el.updateComplete;
    expect(el.getAttribute('theme')).to.equal('dark');
    expect(isDark(el)).to.equal(true);
  });

  it('lets the page set its own colours in the dark theme too', async () => {
    const { el } = await mountCheckout({ endpoint: '/api', 'order-id': newOrderId(), theme: 'dark' });
    el.style.setProperty('--pix-color-background', '#000000');
    await waitForSelector(el, 'svg[part="qr"]');
    expect(background(el)).to.equal(BLACK);
  });

  for (const [label, attributes, scheme] of [
    ['light', {}, 'light'],
    ['dark system', {}, 'dark'],
    ['theme="dark"', { theme: 'dark' }, 'light'],
  ] as const) {
    it(`passes axe, colour contrast included, on every screen: ${label}`, async () => {
      await emulateMedia({ colorScheme: scheme });
      const el = await everyScreenAccessible(attributes, label);
      expect(isDark(el)).to.equal(label !== 'light');
    });
  }

  it("shows the page's fallback content readably in the dark theme (its default link colours turn dark-scheme too)", async () => {
    const orderId = newOrderId('down');
    const el = document.createElement('pix-checkout');
    for (const [name, value] of Object.entries({
      endpoint: '/api',
      'order-id': orderId,
      'order-token': orderTokenFor(orderId),
      theme: 'dark',
    })) {
      el.setAttribute(name, value);
    }
    const child = document.createElement('p');
    child.innerHTML = 'O pagamento não carregou? <a href="/pedidos/1/pagamento">Veja outras formas de pagar</a>.';
    el.append(child);
    (await fixture<HTMLDivElement>(html`<div></div>`)).append(el);
    await waitForSelector(el, '[data-state="start-failed"]');
    expect(child.getClientRects().length).to.be.above(0);
    expect(isDark(el)).to.equal(true);
    await expectAccessible(el, 'dark: could not start, with fallback content');
  });

  for (const theme of ['light', 'dark']) {
    it(`passes axe on the failure screens: ${theme}`, async () => {
      const { el, events } = await mountCheckout({ endpoint: '/api', 'order-id': newOrderId(), theme });
      await waitForSelector(el, '#pix-code');
      await setBackendState(events[0]!.detail.checkoutId, 'Error');
      await waitForSelector(el, '[part="result"][data-state="Error"]');
      expect(isDark(el)).to.equal(theme === 'dark');
      await expectAccessible(el, `${theme}: Error`);
    });
  }
});
