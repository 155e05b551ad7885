// Issue 26, Spanish: lang="es" (es-*, any case) as a third language for every string and every error code of the
// contract, the element's own words for each (never the server's), and axe at 0 on its screens in Spanish.
import { expect } from '@open-wc/testing';
import { SHOPPER_ERRORS } from '../../core/contract.js';
import { ERROR_TEXT, type ErrorCode } from '../../widget/error-text.js';
import { errorMessage, toLocale } from '../../widget/i18n.js';
import { loadScreens } from '../../widget/screens-chunk.js';
import { stringsOf } from './strings.js';
import { $, mountCheckout, newOrderId, setBackendState, typeInto, visibleText, waitForFocusedHeading, waitForSelector } from './helpers.js';

const es = stringsOf('es');
const pt = stringsOf('pt-BR');
const en = stringsOf('en');

/** Words that are the same in Spanish and Portuguese (names, CPF, and a few shared words). */
const SAME_IN_ES = new Set([
  'cpfLabel',
  'cpfOptionalLabel',
  'methodPix',
  'methodOpenFinance',
  'continue',
  'copied',
  'receiptOrder',
  'receiptPayerBank',
  'useAnotherCpf',
  'continueWithOpenFinance',
  'howToPay',
  'copy',
  'copiedAnnouncement',
]);

describe('Spanish (lang="es")', () => {
  afterEach(() => sessionStorage.clear());

  it('reads es, es-419, ES and es_AR as Spanish', () => {
    expect(['es', 'es-419', 'ES', 'es_AR', 'es-ES'].map(toLocale)).to.deep.equal(['es', 'es', 'es', 'es', 'es']);
  });

  it('has every key of Portuguese, each in Spanish', () => {
    expect(Object.keys(es).sort()).to.deep.equal(Object.keys(pt).sort());
    const untranslated = Object.keys(pt).filter((key) => {
      const name = key as keyof typeof pt;
      return !SAME_IN_ES.has(key) && (es[name] === pt[name] || es[name] === en[name]);
    });
    expect(untranslated, 'the same as Portuguese or English').to.deep.equal([]);
    // The same `{name}` marks, so every value is filled in.
    for (const key of Object.keys(pt) as (keyof typeof pt)[]) {
      expect(es[key].match(/\{\w+\}/g) ?? [], key).to.deep.equal(pt[key].match(/\{\w+\}/g) ?? []);
    }
  });

  it('has a Spanish text for every error code of core/contract.ts and of the element', async () => {
    await loadScreens();
    const codes = [...Object.keys(SHOPPER_ERRORS), 'offline', 'network_error', 'invalid_response', 'invalid_configuration', 'unexpected'];
    for (const code of codes) {
      expect(Object.hasOwn(ERROR_TEXT, code), code).to.equal(true);
      const status = (SHOPPER_ERRORS as Record<string, number>)[code] ?? 0;
      const text = errorMessage(es, { status, code });
      expect(text, code).to.be.a('string').and.not.empty;
      expect(text, code).to.equal(es[ERROR_TEXT[code as ErrorCode]]);
      expect(text, `${code} in Spanish`).not.to.equal(errorMessage(pt, { status, code }));
    }
    // A code the element does not know reads as the generic Spanish text of its status class.
    expect(errorMessage(es, { status: 503, code: 'something_new' })).to.equal(es.errServer);
    expect(errorMessage(es, { status: 0, code: 'something_new' })).to.equal(es.errNetwork);
  });

  it('walks the chooser, the payer form and the Pix screen in Spanish, with axe at 0', async () => {
    const { el } = await mountCheckout({ endpoint: '/api', 'order-id': newOrderId(), methods: 'pix openfinance', lang: 'es' });
    await waitForSelector(el, '[part="chooser"]');
    expect($(el, '.base')!.getAttribute('lang')).to.equal('es');
    expect(visibleText(el)).to.contain('¿Cómo quieres pagar?');
    await expect(el).to.be.accessible();
    $(el, '[data-method="openfinance"]')!.click();
    await waitForFocusedHeading(el, 'Tus datos');
    await typeInto($(el, '#cpf') as HTMLInputElement, '123');
    $(el, 'button[type="submit"]')!.click();
    await waitForSelector(el, '#cpf-error');
    expect($(el, '#cpf-error')!.textContent.trim()).to.equal('CPF no válido. Revisa los 11 dígitos.');
    await expect(el).to.be.accessible();
    ($(el, '.actions button.secondary') as HTMLButtonElement).click();
    await waitForSelector(el, '[data-method="pix"]');
    $(el, '[data-method="pix"]')!.click();
    await waitForFocusedHeading(el, 'Paga con Pix');
    // Spanish writes the hour without a leading zero: the deadline at 00:19 reads "0:19".
    expect(visibleText(el)).to.match(/Tiempo para pagar: (29 min 5\d s|30 min 00 s) \(hasta las \d{1,2}:\d\d\)/);
    expect($(el, 'svg[part="qr"]')!.getAttribute('aria-label')).to.equal('Código QR del pago Pix');
    await expect(el).to.be.accessible();
  });

  it('shows the receipt and a refusal in Spanish, with axe at 0', async () => {
    const { el, events } = await mountCheckout({
      endpoint: '/api',
      'order-id': newOrderId(),
      lang: 'es',
      'continue-url': 'https://shop.example/',
    });
    await waitForSelector(el, '#pix-code');
    const checkoutId = events[0]!.detail.checkoutId as string;
    await setBackendState(checkoutId, 'Completed', { paidAt: '2025-03-12T17:32:00Z' });
    await waitForFocusedHeading(el, 'Pago confirmado');
    expect(visibleText(el)).to.contain('Recibimos tu pago. ¡Gracias!');
    expect(visibleText(el)).to.contain('Importe');
    await expect(el).to.be.accessible();

    const refused = await mountCheckout({ endpoint: '/api', 'order-id': newOrderId(), lang: 'es' });
    await waitForSelector(refused.el, '#pix-code');
    await setBackendState(refused.events[0]!.detail.checkoutId as string, 'Error');
    await waitForSelector(refused.el, '[data-state="Error"]');
    expect($(refused.el, '#screen-title')!.textContent.trim()).to.equal('El pago no se completó');
    expect(visibleText(refused.el)).to.contain('El banco rechazó este Pix');
    await expect(refused.el).to.be.accessible();
  });

  it("says why it cannot start in Spanish, never the server's words", async () => {
    const { el } = await mountCheckout({ endpoint: '/api', 'order-id': newOrderId(), lang: 'es', 'order-token': false });
    await waitForSelector(el, '[part="message"]');
    expect(visibleText(el)).to.contain(es.orderTokenRequired);
    await expect(el).to.be.accessible();
  });
});
