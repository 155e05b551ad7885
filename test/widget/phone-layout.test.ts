// Issue 26, point 5, the phone layout at 390 px: the primary action comes first and spans the screen ("Continuar no
// meu banco" above "Voltar"), and "Continuar" on the receipt and on the conflict screen is as wide as the screen.
import { expect } from '@open-wc/testing';
import { setViewport } from '@web/test-runner-commands';
import { $, createOnBackend, mountCheckout, newOrderId, setBackendState, typeInto, waitForSelector } from './helpers.js';

const box = (el: HTMLElement) => el.getBoundingClientRect();

/** The inner width of a screen: its section's content box, where a full-width button spans. */
function contentWidth(section: HTMLElement): number {
  const style = getComputedStyle(section);
  return section.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
}

function expectFullWidth(button: HTMLElement, section: HTMLElement, what: string) {
  expect(box(button).width, `${what}: as wide as its screen`).to.be.closeTo(contentWidth(section), 1);
}

describe('<pix-checkout> at 390 px', () => {
  beforeEach(() => setViewport({ width: 390, height: 844 }));
  afterEach(async () => {
    sessionStorage.clear();
    await setViewport({ width: 800, height: 600 });
  });

  it('puts "Continuar no meu banco" above "Voltar", both full width', async () => {
    const { el } = await mountCheckout({ endpoint: '/api', 'order-id': newOrderId(), methods: 'pix openfinance' });
    (await waitForSelector(el, '[data-method="openfinance"]')).click();
    await waitForSelector(el, '#cpf');
    const submit = $(el, 'button[type="submit"]')!;
    const back = [...el.shadowRoot!.querySelectorAll<HTMLButtonElement>('.actions button')].find((b) => b.textContent.trim() === 'Voltar')!;
    expect(submit.textContent.trim()).to.equal('Continuar no meu banco');
    expect(box(submit).bottom, 'the primary action first').to.be.at.most(box(back).top);
    const form = $(el, 'form')!;
    expectFullWidth(submit, form, 'Continuar no meu banco');
    expectFullWidth(back, form, 'Voltar');
    expect(document.documentElement.scrollWidth).to.be.at.most(window.innerWidth);
    await expect(el).to.be.accessible();
  });

  it('keeps the primary action on the right of "Voltar" on a wide screen', async () => {
    await setViewport({ width: 800, height: 600 });
    const { el } = await mountCheckout({ endpoint: '/api', 'order-id': newOrderId(), methods: 'pix openfinance' });
    (await waitForSelector(el, '[data-method="openfinance"]')).click();
    await waitForSelector(el, '#cpf');
    const submit = $(el, 'button[type="submit"]')!;
    const back = $(el, '.actions button.secondary')!;
    expect(box(back).right).to.be.at.most(box(submit).left);
    expect(Math.abs(box(back).top - box(submit).top), 'on one line').to.be.below(2);
  });

  it('makes "Continuar" on the receipt full width', async () => {
    const { el, events } = await mountCheckout({
      endpoint: '/api',
      'order-id': newOrderId(),
      'continue-url': 'https://shop.example/thanks',
    });
    await waitForSelector(el, '#pix-code');
    await setBackendState(events[0]!.detail.checkoutId as string, 'Completed', { paidAt: '2025-03-12T17:32:00Z' });
    await waitForSelector(el, '[part="receipt"]');
    const link = $(el, '[part~="continue-button"]')!;
    expect(link.textContent.trim()).to.equal('Continuar');
    expectFullWidth(link, $(el, '[data-state="Completed"]')!, 'Continuar');
    await expect(el).to.be.accessible();
  });

  it('makes "Continuar com Pix" on the conflict screen full width', async () => {
    const orderId = newOrderId();
    const { el } = await mountCheckout({ endpoint: '/api', 'order-id': orderId, methods: 'pix openfinance' });
    await waitForSelector(el, '[part="chooser"]');
    await createOnBackend(orderId, 'pix');
    $(el, '[data-method="openfinance"]')!.click();
    await waitForSelector(el, '#cpf, [data-state="conflict"]');
    if ($(el, '#cpf')) {
      await typeInto($(el, '#cpf') as HTMLInputElement, '52998224725');
      $(el, 'button[type="submit"]')!.click();
    }
    const section = await waitForSelector(el, '[data-state="conflict"]');
    const button = section.querySelector<HTMLButtonElement>('.actions button')!;
    expect(button.textContent.trim()).to.equal('Continuar com Pix');
    expectFullWidth(button, section, 'Continuar com Pix');
    await expect(el).to.be.accessible();
  });
});
