import { expect, waitUntil } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import type { PixCheckout } from '../../widget/index.js';
import {
  $,
  backendLog,
  createRequests,
  eventNames,
  mountCheckout,
  newOrderId,
  orderTokenFor,
  typeInto,
  visibleText,
  waitForSelector,
  waitForText,
} from './helpers.js';

const VALID_CPF = '52998224725';

const cpfInput = (el: PixCheckout) => $(el, '#cpf') as HTMLInputElement;
const nameInput = (el: PixCheckout) => $(el, '#name') as HTMLInputElement;
const submit = (el: PixCheckout) => ($(el, 'button[type="submit"]') as HTMLButtonElement).click();
const methodButton = (el: PixCheckout, method: string) => $(el, `[part="method-button"][data-method="${method}"]`) as HTMLButtonElement;

describe('<pix-checkout> method chooser and payer form', () => {
  afterEach(() => sessionStorage.clear());

  it('offers both methods as a labelled group of buttons with methods="pix openfinance"', async () => {
    const { el } = await mountCheckout({ endpoint: '/api', 'order-id': newOrderId(), methods: 'pix openfinance' });
    const chooser = await waitForSelector(el, 'fieldset[part="chooser"]');
    expect(chooser.querySelector('legend')!.textContent).to.equal('Como você quer pagar?');
    expect([...chooser.querySelectorAll('button')].map((b) => b.dataset.method)).to.deep.equal(['pix', 'openfinance']);
    await expect(el).to.be.accessible();
    methodButton(el, 'pix').focus();
    expect(el.shadowRoot!.activeElement).to.equal(methodButton(el, 'pix'));
  });

  it('can be used from the keyboard alone, with a visible focus ring', async () => {
    const orderId = newOrderId();
    const { el } = await mountCheckout({ endpoint: '/api', 'order-id': orderId, methods: 'pix openfinance' });
    await waitForSelector(el, 'fieldset[part="chooser"]');
    await sendKeys({ press: 'Tab' });
    await sendKeys({ press: 'Tab' });
    const focused = el.shadowRoot!.activeElement as HTMLElement;
    expect(focused).to.equal(methodButton(el, 'openfinance'));
    expect(focused.matches(':focus-visible')).to.equal(true);
    expect(getComputedStyle(focused).outlineStyle).to.equal('solid');
    await sendKeys({ press: 'Enter' });
    await waitForSelector(el, '#cpf');
    cpfInput(el).focus();
    await sendKeys({ type: VALID_CPF });
    expect(cpfInput(el).value).to.equal('529.982.247-25');
    await sendKeys({ press: 'Enter' });
    await waitForText(el, 'Continue no seu banco');
    expect((await createRequests(orderId))[0].payer).to.deep.equal({ cpf: VALID_CPF });
  });

  it('creates a PIX checkout straight away when PIX is chosen', async () => {
    const orderId = newOrderId();
    const { el } = await mountCheckout({ endpoint: '/api', 'order-id': orderId, methods: 'pix openfinance' });
    await waitForSelector(el, 'fieldset[part="chooser"]');
    expect((await backendLog(orderId)).posts).to.equal(0);
    methodButton(el, 'pix').click();
    await waitForSelector(el, 'svg[part="qr"]');
    expect((await createRequests(orderId))[0].method).to.equal('pix');
  });

  it('goes back from the payer form to the chooser', async () => {
    const { el } = await mountCheckout({ endpoint: '/api', 'order-id': newOrderId(), methods: 'pix openfinance' });
    (await waitForSelector(el, '[data-method="openfinance"]')).click();
    await waitForSelector(el, 'form');
    ($(el, '[part~="secondary-button"]') as HTMLButtonElement).click();
    await waitForSelector(el, 'fieldset[part="chooser"]');
  });

  describe('identified PIX (collect-payer)', () => {
    it('lets the payer leave the form blank for an anonymous PIX', async () => {
      const orderId = newOrderId();
      const { el } = await mountCheckout({ endpoint: '/api', 'order-id': orderId, 'collect-payer': true });
      await waitForSelector(el, 'form');
      expect(visibleText(el)).to.contain('CPF (opcional)');
      await expect(el).to.be.accessible();
      submit(el);
      await waitForSelector(el, 'svg[part="qr"]');
      expect(await createRequests(orderId)).to.deep.equal([{ orderId, orderToken: orderTokenFor(orderId), method: 'pix' }]);
    });

    it('masks the CPF as typed and sends digits only, with the name', async () => {
      const orderId = newOrderId();
      const { el } = await mountCheckout({ endpoint: '/api', 'order-id': orderId, 'collect-payer': true });
      await waitForSelector(el, 'form');
      await typeInto(cpfInput(el), '5299822');
      expect(cpfInput(el).value).to.equal('529.982.2');
      await typeInto(cpfInput(el), '4725');
      expect(cpfInput(el).value).to.equal('529.982.247-25');
      await typeInto(nameInput(el), ' Maria Silva ');
      submit(el);
      await waitForSelector(el, 'svg[part="qr"]');
      expect((await createRequests(orderId))[0]).to.deep.equal({
        orderId,
        orderToken: orderTokenFor(orderId),
        method: 'pix',
        payer: { cpf: VALID_CPF, name: 'Maria Silva' },
      });
    });

    it('refuses a CPF with wrong check digits inline, before anything is sent', async () => {
      const orderId = newOrderId();
      const { el } = await mountCheckout({ endpoint: '/api', 'order-id': orderId, 'collect-payer': true });
      await waitForSelector(el, 'form');
      await typeInto(cpfInput(el), '52998224724');
      await el.updateComplete;
      const error = $(el, '#cpf-error')!;
      expect(error.textContent).to.equal('CPF inválido. Confira os 11 dígitos.');
      expect(cpfInput(el).getAttribute('aria-invalid')).to.equal('true');
      expect(cpfInput(el).getAttribute('aria-describedby')).to.equal('cpf-error');
      await expect(el).to.be.accessible();
      submit(el);
      await el.updateComplete;
      await waitUntil(() => el.shadowRoot!.activeElement === cpfInput(el));
      expect((await backendLog(orderId)).posts).to.equal(0);
    });

    it('asks for the CPF when only a name is given', async () => {
      const { el } = await mountCheckout({ endpoint: '/api', 'order-id': newOrderId(), 'collect-payer': true });
      await waitForSelector(el, 'form');
      await typeInto(nameInput(el), 'Maria');
      submit(el);
      await waitForText(el, 'Informe também o CPF');
    });
  });

  describe('OpenFinance', () => {
    it('requires the CPF before anything is sent', async () => {
      const orderId = newOrderId();
      const { el } = await mountCheckout({ endpoint: '/api', 'order-id': orderId, methods: 'openfinance', lang: 'en' });
      await waitForSelector(el, 'form');
      expect(cpfInput(el).required).to.equal(true);
      submit(el);
      await waitForText(el, 'Enter your CPF to continue.');
      expect(cpfInput(el).getAttribute('aria-invalid')).to.equal('true');
      await expect(el).to.be.accessible();
      expect((await backendLog(orderId)).posts).to.equal(0);
    });

    it('creates the checkout with the CPF and this page as return URL, then goes to the bank', async () => {
      const orderId = newOrderId();
      const { el, events } = await mountCheckout({ endpoint: '/api', 'order-id': orderId, methods: 'openfinance' });
      await waitForSelector(el, 'form');
      await typeInto(cpfInput(el), VALID_CPF);
      submit(el);
      await waitUntil(() => events.some((event) => event.type === 'pix-checkout-redirect'));
      const redirect = events.find((event) => event.type === 'pix-checkout-redirect')!;
      expect(redirect.cancelable).to.equal(true);
      expect(redirect.detail.url).to.match(/^\/__fake\/bank\/chk_/);
      expect(eventNames(events).slice(0, 2)).to.deep.equal(['pix-checkout-created', 'pix-checkout-status']);
      expect((await createRequests(orderId))[0]).to.deep.equal({
        orderId,
        orderToken: orderTokenFor(orderId),
        method: 'openfinance',
        payer: { cpf: VALID_CPF },
        returnUrl: window.location.href,
      });
      await waitForText(el, 'Continue no seu banco');
      expect($(el, 'a[part="button"]')!.getAttribute('href')).to.equal(redirect.detail.url);
      await expect(el).to.be.accessible();
    });

    it('sends the payer to the return-url attribute when given', async () => {
      const orderId = newOrderId();
      const returnUrl = 'https://shop.example/obrigado';
      const { el } = await mountCheckout({ endpoint: '/api', 'order-id': orderId, methods: 'openfinance', 'return-url': returnUrl });
      await waitForSelector(el, 'form');
      await typeInto(cpfInput(el), VALID_CPF);
      submit(el);
      await waitForText(el, 'Continue no seu banco');
      expect((await createRequests(orderId))[0].returnUrl).to.equal(returnUrl);
    });
  });
});
