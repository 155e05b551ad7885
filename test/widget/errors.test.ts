// Point 2, every message in the shopper's language: each BFF error code has the element's own words in pt-BR and en
// (a server message is never shown), unknown codes get a generic one by status class, an unreachable service and a
// refused origin are told apart, and a refused CPF has a way out.
import { expect, waitUntil } from '@open-wc/testing';
import { SHOPPER_ERRORS } from '../../core/contract.js';
import { ERROR_TEXT } from '../../widget/error-text.js';
import { errorMessage } from '../../widget/i18n.js';
import { loadScreens } from '../../widget/screens-chunk.js';
import { stringsOf } from './strings.js';
import type { PixCheckout } from '../../widget/index.js';
import {
  $,
  backendLog,
  createRequests,
  focused,
  mountCheckout,
  newOrderId,
  typeInto,
  visibleText,
  waitForFocusedHeading,
  waitForSelector,
  waitForText,
} from './helpers.js';

/** Every code a shopper can get from the BFF, with the status it is answered with: the contract's list. */
const BFF_CODES = Object.entries(SHOPPER_ERRORS) as [code: string, status: number][];
/**
 * Codes whose screen is not "could not start" at once: the payer form or the refused-CPF screen, and a payment still
 * being prepared (asked again first; see its own test).
 */
const PAYER_CODES = ['payer_required', 'payer_cpf_invalid', 'payer_refused', 'checkout_pending'];

const VALID_CPF = '52998224725';
const REFUSED_CPF = '90000000175';
const RESTRICTED_CPF = '90000000337';
const buttonNamed = (el: PixCheckout, name: string) =>
  [...el.shadowRoot!.querySelectorAll<HTMLButtonElement>('button')].find((button) => button.textContent.trim() === name);
const cpfInput = (el: PixCheckout) => $(el, '#cpf') as HTMLInputElement;

/** Puts the payer form of `method` on screen, types the CPF and submits it. */
async function submitCpf(method: 'pix' | 'openfinance', cpf: string, attributes: Record<string, string | boolean> = {}) {
  const extra: Record<string, string | boolean> = method === 'pix' ? { 'collect-payer': true } : { methods: 'openfinance' };
  const mounted = await mountCheckout({ endpoint: '/api', 'order-id': newOrderId(), ...extra, ...attributes });
  await waitUntil(() => $(mounted.el, '#cpf') ?? $(mounted.el, '[part="chooser"]'), 'the form or the chooser');
  $(mounted.el, `[data-method="${method}"]`)?.click();
  await waitForSelector(mounted.el, '#cpf');
  await typeInto(cpfInput(mounted.el), cpf);
  ($(mounted.el, 'button[type="submit"]') as HTMLButtonElement).click();
  return mounted;
}

describe('<pix-checkout> error messages', () => {
  // The words of each code come with the lazy chunk, as they do once an element shows a failure.
  before(() => loadScreens());
  afterEach(() => sessionStorage.clear());

  it('has its own words for every code of the BFF, in both languages', () => {
    for (const [code] of BFF_CODES) expect(Object.hasOwn(ERROR_TEXT, code), code).to.equal(true);
    for (const locale of ['pt-BR', 'en'] as const) {
      const t = stringsOf(locale);
      for (const [code, status] of BFF_CODES) expect(errorMessage(t, { status, code }), code).to.be.a('string').and.not.empty;
    }
  });

  it('gives an unknown code a generic message by status class, never the server text', () => {
    const t = stringsOf('pt-BR');
    expect(errorMessage(t, { status: 409, code: 'order_already_paid' })).to.equal(t.errClient);
    expect(errorMessage(t, { status: 502, code: 'http_error' })).to.equal(t.errServer);
    expect(errorMessage(t, { status: 0, code: 'whatever' })).to.equal(t.errNetwork);
    expect(errorMessage(t, { status: 400, code: '__proto__' })).to.equal(t.errClient);
    expect(errorMessage(t, { status: 400, code: 'toString' })).to.equal(t.errClient);
  });

  for (const [code, status] of BFF_CODES.filter(([code]) => !PAYER_CODES.includes(code))) {
    it(`shows ${code} (${status}) in its own words, in Portuguese and English`, async () => {
      for (const lang of ['pt-BR', 'en']) {
        const orderId = newOrderId(`err-${status}-${code}`);
        const { el, events } = await mountCheckout({ endpoint: '/api', 'order-id': orderId, lang });
        const t = stringsOf(lang === 'en' ? 'en' : 'pt-BR');
        await waitForText(el, t.startFailedTitle);
        expect(visibleText(el)).to.contain(errorMessage(t, { status, code }));
        expect(visibleText(el)).not.to.contain('SERVER TEXT');
        expect(events.at(-1)!.detail).to.deep.include({ status, code, message: `SERVER TEXT ${code}` });
        el.remove();
      }
    });
  }

  it('tells the shopper a payment still being prepared is being confirmed, asks again by itself, then shows the code', async () => {
    const orderId = newOrderId('preparing');
    const { el } = await mountCheckout({ endpoint: '/api', 'order-id': orderId });
    const t = stringsOf('pt-BR');
    await waitForText(el, t.confirming);
    await waitForSelector(el, '#pix-code', 'the code once the BFF has the checkout');
    expect((await backendLog(orderId)).posts).to.equal(3);
    expect(visibleText(el)).not.to.contain(t.startFailedTitle);
  });

  it('gives up asking after a few answers that the payment is still being prepared, with a way to try again', async () => {
    const orderId = newOrderId('err-503-checkout_pending');
    const { el } = await mountCheckout({ endpoint: '/api', 'order-id': orderId });
    const t = stringsOf('pt-BR');
    await waitForText(el, t.startFailedTitle, 15_000);
    expect(visibleText(el)).to.contain(t.errCheckoutPending);
    expect((await backendLog(orderId)).posts).to.be.greaterThan(1);
  });

  it('is accessible on the could-not-start screen', async () => {
    const { el } = await mountCheckout({ endpoint: '/api', 'order-id': newOrderId('err-503-server_busy') });
    await waitForText(el, 'O serviço de pagamento está sobrecarregado');
    await expect(el).to.be.accessible();
  });

  it('says the page is not allowed, not that the network is down, when the BFF refuses this origin', async () => {
    // The same fake BFF under the other name of this host: another origin, which it refuses as the real BFF does.
    const other = location.hostname === 'localhost' ? '127.0.0.1' : 'localhost';
    const endpoint = `${location.protocol}//${other}:${location.port}/api`;
    for (const [lang, text] of [
      ['pt-BR', 'Esta página não está autorizada a receber pagamentos'],
      ['en', 'This page is not allowed to take payments'],
    ]) {
      const { el, events } = await mountCheckout({ endpoint, 'order-id': newOrderId(), lang: lang! });
      await waitForText(el, text!);
      expect(visibleText(el)).not.to.contain(stringsOf('pt-BR').errNetwork);
      expect(events[0]!.detail).to.include({ status: 403, code: 'origin_not_allowed' });
      el.remove();
    }
  });

  it('says the service could not be reached, not that the page is not allowed, when a server answers without CORS', async () => {
    // A server that answers but is not the BFF (a wrong endpoint, a proxy's error page): nothing says this page is refused.
    const other = location.hostname === 'localhost' ? '127.0.0.1' : 'localhost';
    const endpoint = `${location.protocol}//${other}:${location.port}/not-the-bff`;
    const { el, events } = await mountCheckout({ endpoint, 'order-id': newOrderId() });
    await waitForText(el, 'Não conseguimos falar com o serviço de pagamento');
    expect(events[0]!.detail).to.include({ status: 0, code: 'network_error' });
  });

  it('says the shopper is offline when the browser knows it', async () => {
    Object.defineProperty(navigator, 'onLine', { value: false, configurable: true });
    try {
      const { el, events } = await mountCheckout({ endpoint: 'http://127.0.0.1:9/api', 'order-id': newOrderId(), lang: 'en' });
      await waitForText(el, 'You are offline');
      expect(events[0]!.detail).to.include({ status: 0, code: 'offline' });
    } finally {
      delete (navigator as { onLine?: boolean }).onLine;
    }
  });

  it('sends the payer back to the form when the BFF says the CPF is required', async () => {
    const { el } = await mountCheckout({ endpoint: '/api', 'order-id': newOrderId('nopayer'), 'collect-payer': true });
    await waitForSelector(el, 'form');
    await typeInto(cpfInput(el), VALID_CPF);
    ($(el, 'button[type="submit"]') as HTMLButtonElement).click();
    await waitForText(el, 'Informe o CPF para continuar.');
    expect($(el, 'form')).to.exist;
  });

  describe('a refused CPF', () => {
    it('explains the refusal and offers another CPF or PIX, with pix-checkout-error', async () => {
      const { el, events } = await submitCpf('openfinance', REFUSED_CPF, { methods: 'pix openfinance' });
      await waitForText(el, 'Não foi possível usar este CPF');
      expect(visibleText(el)).to.contain('Este CPF não pode ser usado neste pagamento');
      expect(buttonNamed(el, 'Usar outro CPF')).to.exist;
      expect(buttonNamed(el, 'Pagar com Pix')).to.exist;
      expect(events.find((event) => event.type === 'pix-checkout-error')!.detail).to.include({ code: 'payer_refused', status: 422 });
      await expect(el).to.be.accessible();
    });

    it('goes back to the form with the CPF field empty and focused on "Usar outro CPF", then pays with another', async () => {
      const { el } = await submitCpf('openfinance', RESTRICTED_CPF);
      await waitForText(el, 'O CPF informado não foi aceito');
      expect(buttonNamed(el, 'Pagar com Pix'), 'PIX is not offered here').to.equal(undefined);
      buttonNamed(el, 'Usar outro CPF')!.focus();
      buttonNamed(el, 'Usar outro CPF')!.click();
      await waitUntil(() => focused(el) === cpfInput(el), 'focus on the CPF field');
      expect(cpfInput(el).value).to.equal('');
      await typeInto(cpfInput(el), VALID_CPF);
      ($(el, 'button[type="submit"]') as HTMLButtonElement).click();
      await waitForText(el, 'Continue no seu banco');
      expect((await createRequests(el.orderId)).map((body) => body.payer.cpf)).to.deep.equal([RESTRICTED_CPF, VALID_CPF]);
    });

    it('never sends a refused CPF again: the form flags it as soon as it is typed', async () => {
      const { el } = await submitCpf('openfinance', REFUSED_CPF);
      await waitForText(el, 'Não foi possível usar este CPF');
      buttonNamed(el, 'Usar outro CPF')!.click();
      await waitForSelector(el, '#cpf');
      await typeInto(cpfInput(el), REFUSED_CPF);
      await waitForText(el, 'Este CPF já foi recusado neste pagamento');
      ($(el, 'button[type="submit"]') as HTMLButtonElement).click();
      await el.updateComplete;
      expect((await backendLog(el.orderId)).posts).to.equal(1);
    });

    it('pays with PIX instead when PIX is offered', async () => {
      const { el } = await submitCpf('openfinance', REFUSED_CPF, { methods: 'pix openfinance' });
      await waitForText(el, 'Não foi possível usar este CPF');
      buttonNamed(el, 'Pagar com Pix')!.focus();
      buttonNamed(el, 'Pagar com Pix')!.click();
      await waitForSelector(el, '#pix-code');
      await waitForFocusedHeading(el, 'Pague com Pix');
      expect((await createRequests(el.orderId)).map((body) => body.method)).to.deep.equal(['openfinance', 'pix']);
    });

    it('offers an anonymous PIX when an identified PIX was refused', async () => {
      const { el } = await submitCpf('pix', REFUSED_CPF);
      await waitForText(el, 'Não foi possível usar este CPF');
      buttonNamed(el, 'Pagar com Pix sem CPF')!.click();
      await waitForSelector(el, '#pix-code');
      const [, second] = await createRequests(el.orderId);
      expect(second.payer).to.equal(undefined);
    });
  });
});
