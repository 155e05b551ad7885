// Issue 26, point 6, wording and brand: "Pix" as the Banco Central writes it in every language, the Pix symbol in the
// method list (our own inline drawing, named "Pix"), a countdown with units and the clock time it ends, and a refusal
// at the bank that says what happened.
import { expect, fixture, waitUntil } from '@open-wc/testing';
import { html } from 'lit';
import type { Method } from '../../core/methods.js';
import type { Checkout } from '../../widget/api.js';
import { type Locale } from '../../widget/i18n.js';
import { stringsOf } from './strings.js';
import { formatDuration, renderCountdown } from '../../widget/views/common.js';
import { kit } from '../../widget/views/index.js';
import chunkScreens from '../../widget/views/screens.js';

const { renderFailure } = chunkScreens(kit);
import { $, liveRegion, mountCheckout, newOrderId, setBackendState, visibleText, waitForSelector } from './helpers.js';

const LOCALES: Locale[] = ['pt-BR', 'en', 'es'];
const noop = () => {};
const ctx = (locale: Locale) => ({ t: stringsOf(locale), locale, merchantName: '', offered: ['pix', 'openfinance'] as Method[] });
const outcome = { continueUrl: undefined, onContinue: noop, onRenew: noop, onChooseOther: noop };
const checkoutOf = (method: Method): Checkout => ({
  id: `chk_${method}`,
  orderId: 'A-1',
  method,
  state: 'Error',
  amount: '10.50',
  currency: 'BRL',
  description: null,
  transactionId: 't1',
  createdAt: '2024-01-01T00:00:00Z',
  updatedAt: '2024-01-01T00:00:00Z',
  expiresAt: '2024-01-01T00:30:00Z',
});
const text = (el: Element) => el.textContent.replace(/\s+/g, ' ').trim();

describe('wording and brand', () => {
  afterEach(() => sessionStorage.clear());

  for (const locale of LOCALES) {
    it(`writes Pix, never PIX, in every ${locale} string`, () => {
      const shouting = Object.entries(stringsOf(locale)).filter(([, value]) => /\bPIX\b/.test(value));
      expect(shouting).to.deep.equal([]);
      expect(stringsOf(locale).methodPix).to.equal('Pix');
    });
  }

  it('shows the Pix symbol, named "Pix", drawn inline, in the method list', async () => {
    const { el } = await mountCheckout({ endpoint: '/api', 'order-id': newOrderId(), methods: 'pix openfinance' });
    const button = await waitForSelector(el, '[data-method="pix"]');
    const symbol = button.querySelector('svg.icon-pix')!;
    expect(symbol.getAttribute('role')).to.equal('img');
    expect(symbol.getAttribute('aria-label')).to.equal('Pix');
    expect(symbol.closest('[aria-hidden="true"]'), 'not hidden from assistive technology').to.equal(null);
    expect(symbol.querySelectorAll('image, use, foreignObject'), 'nothing fetched or referenced').to.have.length(0);
    expect(symbol.querySelectorAll('path').length, 'the three parts of the mark').to.equal(3);
    // The name is said once: the visible word "Pix" beside it is the same name, hidden from assistive technology.
    expect(button.querySelector('.method-name')!.getAttribute('aria-hidden')).to.equal('true');
    expect(text(button)).to.match(/^Pix QR code/);
    expect(visibleText(el)).not.to.match(/\bPIX\b/);
    await expect(el).to.be.accessible();
  });

  it('writes the time left with units: "29 min 41 s", "45 s", "1 h 05 min 09 s"', () => {
    expect([29 * 60_000 + 41_000, 59_001, 45_000, 1_000, 0, -5_000, 3_909_000].map(formatDuration)).to.deep.equal([
      '29 min 41 s',
      '1 min 00 s',
      '45 s',
      '1 s',
      '0 s',
      '0 s',
      '1 h 05 min 09 s',
    ]);
  });

  const clocks = (locale: Locale, ms: number) =>
    [Date.now() + ms, Date.now() + ms + 2000].map((at) => new Intl.DateTimeFormat(locale, { timeStyle: 'short' }).format(at));

  for (const [locale, pattern] of [
    ['pt-BR', (time: string) => `Pague em até 29 min 41 s (até ${time})`],
    ['en', (time: string) => `Pay within 29 min 41 s (by ${time})`],
    ['es', (time: string) => `Tiempo para pagar: 29 min 41 s (hasta las ${time})`],
  ] as const) {
    it(`says "${pattern('hh:mm')}" in ${locale}, the time left in a timer that is not read every second`, async () => {
      const ms = 29 * 60_000 + 41_000;
      const expected = clocks(locale, ms).map((time) => pattern(time).replace(/\s+/g, ' '));
      const el = await fixture<HTMLElement>(html`<div>${renderCountdown(ctx(locale), checkoutOf('pix'), ms)}</div>`);
      expect(expected).to.include(text(el));
      const timer = el.querySelector('[role="timer"]')!;
      expect(text(timer)).to.equal('29 min 41 s');
      // A timer is not live by default; the element speaks only at 10, 5 and 1 minute left (window.test.ts).
      expect(timer.closest('[aria-live]')).to.equal(null);
    });
  }

  it('does not speak the clock while it ticks on the Pix screen', async () => {
    const { el } = await mountCheckout({ endpoint: '/api', 'order-id': newOrderId() });
    await waitForSelector(el, '[part="countdown"] [role="timer"]');
    const before = liveRegion(el).textContent;
    const time = text($(el, '[role="timer"]')!);
    await waitUntil(() => text($(el, '[role="timer"]')!) !== time, 'the clock ticks', { timeout: 2500 });
    expect(liveRegion(el).textContent).to.equal(before);
    expect(text($(el, '[part="countdown"]')!)).to.match(/^Pague em até \d+ min \d\d s \(até \d\d:\d\d\)$/);
  });

  it('says a Pix refused by the bank was refused, not "Houve um problema"', async () => {
    const { el, events } = await mountCheckout({ endpoint: '/api', 'order-id': newOrderId() });
    await waitForSelector(el, '#pix-code');
    await setBackendState(events[0]!.detail.checkoutId as string, 'Error');
    const message = await waitForSelector(el, '[data-state="Error"] [part="message"]');
    expect(text(message)).to.equal(
      'O banco recusou este Pix e ele não foi processado. Nenhum valor foi cobrado: você pode tentar de novo.',
    );
    expect(visibleText(el)).not.to.contain('Houve um problema');
    await expect(el).to.be.accessible();
  });

  for (const [locale, expected] of [
    ['pt-BR', 'O pagamento não foi autorizado no seu banco: ele foi recusado lá. Nenhum valor foi cobrado: você pode tentar de novo.'],
    ['en', 'The payment was not authorized at your bank: it was refused there. You were not charged: you can try again.'],
    ['es', 'El pago no fue autorizado en tu banco: fue rechazado allí. No se cobró nada: puedes intentarlo de nuevo.'],
  ] as const) {
    it(`says an Open Finance payment refused at the bank was not authorized there (${locale})`, async () => {
      const el = await fixture<HTMLElement>(html`<div>${renderFailure(ctx(locale), 'Error', outcome, 'openfinance')}</div>`);
      expect(text(el.querySelector('[part="message"]')!)).to.equal(expected);
    });
  }
});
