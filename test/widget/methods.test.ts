// Every method of core's METHODS and every final state has its own screen: chooser button, payer form, pending view.
import { expect, fixture } from '@open-wc/testing';
import { html } from 'lit';
import { METHODS, PAYER_CPF, type Method } from '../../core/methods.js';
import { CHECKOUT_STATES, FINAL_CHECKOUT_STATES, isFinal } from '../../core/states.js';
import type { Checkout } from '../../widget/api.js';
import { checkPayer } from '../../widget/cpf-input.js';
import { stringsFor } from '../../widget/i18n.js';
import { renderChooser, renderFinal, renderPayerForm, renderPending, stateTitle } from '../../widget/views.js';

const t = stringsFor('en');
const noop = () => {};

/** What only this method's pending screen shows (a Record, so a new method fails to compile here too). */
const PENDING_MARK: Record<Method, string> = { pix: 'textarea#code', openfinance: '.openfinance a[href]' };

const checkoutOf = (method: Method): Checkout => ({
  id: `chk_${method}`,
  orderId: 'A-1',
  method,
  state: 'Registered',
  amount: '10.50',
  currency: 'BRL',
  transactionId: 't1',
  qrCode: '00020126580014br.gov.bcb.pix',
  checkoutUrl: 'https://bank.example/authorize',
  createdAt: '2024-01-01T00:00:00Z',
  updatedAt: '2024-01-01T00:00:00Z',
});

describe('per-method views', () => {
  it('offers every method of METHODS in the chooser, in order, each with its own name and hint', async () => {
    const chosen: Method[] = [];
    const el = await fixture<HTMLElement>(html`<div>${renderChooser(t, METHODS, (method) => chosen.push(method))}</div>`);
    const buttons = [...el.querySelectorAll<HTMLButtonElement>('[part="method-button"]')];
    expect(buttons.map((button) => button.dataset.method)).to.deep.equal([...METHODS]);
    const names = buttons.map((button) => button.querySelector('.method-name')!.textContent.trim());
    expect(new Set(names).size).to.equal(METHODS.length);
    expect(names.every(Boolean)).to.equal(true);
    for (const button of buttons) button.click();
    expect(chosen).to.deep.equal([...METHODS]);
  });

  it('shows only the offered methods in the chooser', async () => {
    const el = await fixture<HTMLElement>(html`<div>${renderChooser(t, ['openfinance'], noop)}</div>`);
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
      expect(el.querySelector('#payer-title')!.textContent).to.not.be.empty;
      expect(checkPayer(method, '', '').problem).to.equal(required ? 'cpfRequired' : undefined);
    });

    it(`shows the pending screen of a ${method} checkout`, async () => {
      const pix = { touch: false, copyResult: 'idle' as const, onCopy: noop };
      const el = await fixture<HTMLElement>(html`<div>${renderPending(t, checkoutOf(method), pix)}</div>`);
      expect(el.querySelector(PENDING_MARK[method]), PENDING_MARK[method]).to.exist;
      for (const other of METHODS.filter((m) => m !== method)) expect(el.querySelector(PENDING_MARK[other])).to.equal(null);
      expect(el.textContent).to.contain(t.awaitingPayment);
    });
  }

  it('has a title and text of its own for every final state, and waits in the others', async () => {
    const titles = new Set<string>();
    for (const state of FINAL_CHECKOUT_STATES) {
      const el = await fixture<HTMLElement>(html`<div>${renderFinal(t, state, noop)}</div>`);
      expect(el.querySelector('[part="result"]')!.getAttribute('data-state')).to.equal(state);
      expect(el.querySelector('h2')!.textContent).to.equal(stateTitle(t, state));
      titles.add(stateTitle(t, state));
    }
    expect(titles.size).to.equal(FINAL_CHECKOUT_STATES.length);
    for (const state of CHECKOUT_STATES.filter((s) => !isFinal(s))) expect(stateTitle(t, state)).to.equal(t.awaitingPayment);
  });
});
