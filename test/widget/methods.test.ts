// Every method of core's METHODS and every outcome has its own screen: chooser button, payer form, pending view,
// receipt, failure and expiry screens.
import { expect, fixture } from '@open-wc/testing';
import { html } from 'lit';
import { METHODS, PAYER_CPF, type Method } from '../../core/methods.js';
import { CHECKOUT_STATES, isFinal, isLive, type FinalCheckoutState } from '../../core/states.js';
import type { Checkout } from '../../widget/api.js';
import { checkPayer } from '../../widget/cpf-input.js';
import { stateTitle } from '../../widget/i18n.js';
import { stringsOf } from './strings.js';
import { kit, renderChooser, renderPix, type PixUi } from '../../widget/views/index.js';
import chunkScreens from '../../widget/views/screens.js';

// The screens of the lazy chunk, built as the element builds them once the chunk comes.
const { renderExpired, renderFailure, renderOpenFinancePending, renderPayerForm, renderReceipt } = chunkScreens(kit);

const t = stringsOf('en');
const noop = () => {};
const ctx = (offered: readonly Method[] = METHODS) => ({ t, locale: 'en' as const, merchantName: '', offered });
const outcome = { continueUrl: undefined, onContinue: noop, onRenew: noop, onChooseOther: noop };

/** Each method's pending screen: PIX's in the entry, Open Finance's in the chunk (a Record, so a new method fails to compile here). */
const PENDING: Record<Method, (c: Checkout, remainingMs: number, pix: PixUi) => unknown> = {
  pix: (checkout, remainingMs, pix) => renderPix(ctx(), checkout, remainingMs, pix),
  openfinance: (checkout, remainingMs) => renderOpenFinancePending(ctx(), checkout, remainingMs),
};

/** What only this method's pending screen shows (a Record, so a new method fails to compile here too). */
const PENDING_MARK: Record<Method, string> = { pix: '#pix-code', openfinance: '.openfinance a[href]' };

const checkoutOf = (method: Method): Checkout => ({
  id: `chk_${method}`,
  orderId: 'A-1',
  method,
  state: 'Registered',
  amount: '10.50',
  currency: 'BRL',
  description: null,
  transactionId: 't1',
  qrCode: '00020126580014br.gov.bcb.pix',
  checkoutUrl: 'https://bank.example/authorize',
  createdAt: '2024-01-01T00:00:00Z',
  updatedAt: '2024-01-01T00:00:00Z',
  expiresAt: '2024-01-01T00:30:00Z',
});

/** A screen of a settled state, rendered alone. */
function renderSettled(state: FinalCheckoutState) {
  return state === 'Completed' ? renderReceipt(ctx(), checkoutOf('pix'), outcome) : renderFailure(ctx(), state, outcome, 'pix');
}

describe('per-method views', () => {
  it('offers every method of METHODS in the chooser, in order, each with its own name, hint and mark', async () => {
    const chosen: Method[] = [];
    const el = await fixture<HTMLElement>(html`<div>${renderChooser(ctx(), (method: Method) => chosen.push(method))}</div>`);
    const buttons = [...el.querySelectorAll<HTMLButtonElement>('[part="method-button"]')];
    expect(buttons.map((button) => button.dataset.method)).to.deep.equal([...METHODS]);
    const names = buttons.map((button) => button.querySelector('.method-name')!.textContent.trim());
    expect(new Set(names).size).to.equal(METHODS.length);
    expect(names.every(Boolean)).to.equal(true);
    const marks = buttons.map((button) => button.querySelector('.method-mark svg')!.getAttribute('class'));
    expect(new Set(marks).size).to.equal(METHODS.length);
    for (const button of buttons) button.click();
    expect(chosen).to.deep.equal([...METHODS]);
  });

  it('shows only the offered methods in the chooser', async () => {
    const el = await fixture<HTMLElement>(html`<div>${renderChooser(ctx(['openfinance']), noop)}</div>`);
    expect([...el.querySelectorAll<HTMLElement>('[data-method]')].map((b) => b.dataset.method)).to.deep.equal(['openfinance']);
  });

  for (const method of METHODS) {
    const required = PAYER_CPF[method] === 'required';

    it(`asks for the CPF of a ${method} payer as ${PAYER_CPF[method]}`, async () => {
      const view = { method, cpf: '', name: '', canGoBack: false, onCpfInput: noop, onNameInput: noop, onSubmit: noop, onBack: noop };
      const el = await fixture<HTMLElement>(html`<div>${renderPayerForm(t, view)}</div>`);
      const cpf = el.querySelector<HTMLInputElement>('#cpf')!;
      expect(cpf.required).to.equal(required);
      expect(el.querySelector('label[for="cpf"]')!.textContent).to.equal(required ? t.cpfLabel : t.cpfOptionalLabel);
      expect(el.querySelector('#screen-title')!.textContent).to.not.be.empty;
      expect(checkPayer(required, '', '').problem).to.equal(required ? 'cpfRequired' : undefined);
    });

    it(`shows the pending screen of a ${method} checkout, with its countdown`, async () => {
      const pix = { touch: false, copyResult: 'idle' as const, copiedOnce: false, codeExpanded: false, onCopy: noop, onToggleCode: noop };
      const el = await fixture<HTMLElement>(html`<div>${PENDING[method](checkoutOf(method), 29 * 60_000 + 41_000, pix)}</div>`);
      expect(el.querySelector(PENDING_MARK[method]), PENDING_MARK[method]).to.exist;
      for (const other of METHODS.filter((m) => m !== method)) expect(el.querySelector(PENDING_MARK[other])).to.equal(null);
      expect(el.textContent).to.contain(t.awaitingPayment);
      expect(el.querySelector('[part="countdown"]')!.textContent.replace(/\s+/g, ' ').trim()).to.match(
        /^Pay within 29 min 41 s \(by \d{1,2}:\d\d\s[AP]M\)$/,
      );
    });

    it(`offers a new ${method} checkout on the Expired screen`, async () => {
      const el = await fixture<HTMLElement>(html`<div>${renderExpired(ctx(), checkoutOf(method), outcome)}</div>`);
      const buttons = [...el.querySelectorAll('button')].map((button) => button.textContent.trim());
      expect(buttons).to.deep.equal([method === 'pix' ? t.renewPix : t.renewOpenFinance, t.chooseOther]);
    });
  }

  it('has a title, text and picture of its own for every settled state and Expired, and waits in the live ones', async () => {
    const titles = new Set<string>();
    const pictures = new Set<string>();
    for (const state of CHECKOUT_STATES.filter(isFinal)) {
      const el = await fixture<HTMLElement>(html`<div>${renderSettled(state)}</div>`);
      expect(el.querySelector('[part~="result"]')!.getAttribute('data-state')).to.equal(state);
      expect(el.querySelector('h2')!.textContent).to.equal(stateTitle(t, state));
      titles.add(stateTitle(t, state));
      pictures.add(el.querySelector('.icon svg')!.getAttribute('class')!);
    }
    const expired = await fixture<HTMLElement>(html`<div>${renderExpired(ctx(), checkoutOf('pix'), outcome)}</div>`);
    titles.add(expired.querySelector('h2')!.textContent);
    pictures.add(expired.querySelector('.icon svg')!.getAttribute('class')!);
    expect(titles.size).to.equal(5);
    expect(pictures.size).to.equal(5);
    for (const state of CHECKOUT_STATES.filter(isLive)) expect(stateTitle(t, state)).to.equal(t.awaitingPayment);
  });
});
