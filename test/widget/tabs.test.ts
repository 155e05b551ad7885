// Point 5, any tab, any device: before offering the methods the element asks the BFF for the order's checkout (with
// the order token), so a second tab or another device resumes it; choosing another method while one is live says so
// and offers the live one instead of quietly showing it.
import { expect, waitUntil } from '@open-wc/testing';
import type { PixCheckout } from '../../widget/index.js';
import {
  $,
  backendLog,
  createOnBackend,
  eventNames,
  mountCheckout,
  newOrderId,
  setBackendState,
  typeInto,
  visibleText,
  waitForFocusedHeading,
  waitForSelector,
  waitForText,
} from './helpers.js';

const buttonNamed = (el: PixCheckout, name: string) =>
  [...el.shadowRoot!.querySelectorAll<HTMLButtonElement>('button')].find((button) => button.textContent.trim() === name);

describe('<pix-checkout> in any tab', () => {
  afterEach(() => sessionStorage.clear());

  it("resumes the order's live checkout made in another tab, without the chooser and without creating one", async () => {
    const orderId = newOrderId();
    const { id } = await createOnBackend(orderId);
    const { el, events } = await mountCheckout({ endpoint: '/api', 'order-id': orderId, methods: 'pix openfinance' });
    await waitForSelector(el, '#pix-code');
    expect($(el, '[part="chooser"]')).to.equal(null);
    expect(eventNames(events)).to.deep.equal(['pix-checkout-status']);
    expect(events[0]!.detail.checkoutId).to.equal(id);
    const log = await backendLog(orderId);
    expect([log.posts, log.lookups]).to.deep.equal([1, 1]);
    expect(sessionStorage.getItem(`pix-checkout:/api|${orderId}`)).to.equal(id);
  });

  it('shows the receipt when another device already paid the order', async () => {
    const orderId = newOrderId();
    const { id } = await createOnBackend(orderId);
    await setBackendState(id, 'Completed');
    const { el, events } = await mountCheckout({ endpoint: '/api', 'order-id': orderId, methods: 'pix openfinance' });
    await waitForText(el, 'Pagamento confirmado');
    expect(eventNames(events)).to.deep.equal(['pix-checkout-status', 'pix-checkout-completed']);
  });

  it('offers the methods when the order has no checkout yet', async () => {
    const orderId = newOrderId();
    const { el } = await mountCheckout({ endpoint: '/api', 'order-id': orderId, methods: 'pix openfinance' });
    await waitForSelector(el, '[part="chooser"]');
    const log = await backendLog(orderId);
    expect([log.lookups, log.posts]).to.deep.equal([1, 0]);
    await expect(el).to.be.accessible();
  });

  it('says it could not start when the lookup fails, and looks again on retry', async () => {
    const orderId = newOrderId('lookupfail');
    const { el } = await mountCheckout({ endpoint: '/api', 'order-id': orderId, methods: 'pix openfinance' });
    await waitForText(el, 'O serviço de pagamento está sobrecarregado');
    buttonNamed(el, 'Tentar novamente')!.click();
    await waitUntil(async () => (await backendLog(orderId)).lookups === 2, 'a second lookup');
  });

  it('resumes what this tab made even when the token was refused', async () => {
    const orderId = newOrderId();
    const { id } = await createOnBackend(orderId);
    sessionStorage.setItem(`pix-checkout:/api|${orderId}`, id);
    const { el, events } = await mountCheckout({ endpoint: '/api', 'order-id': orderId, 'order-token': `expired:${orderId}` });
    await waitForSelector(el, '#pix-code');
    expect(events[0]!.detail.checkoutId).to.equal(id);
  });

  it('says so plainly when another method is already live, and offers that one', async () => {
    const orderId = newOrderId();
    const { el, events } = await mountCheckout({ endpoint: '/api', 'order-id': orderId, methods: 'pix openfinance' });
    await waitForSelector(el, '[part="chooser"]');
    // Meanwhile another tab creates a PIX checkout for the same order.
    const { id } = await createOnBackend(orderId, 'pix');
    $(el, '[data-method="openfinance"]')!.click();
    await waitForSelector(el, '#cpf');
    await typeInto($(el, '#cpf') as HTMLInputElement, '52998224725');
    const submit = $(el, 'button[type="submit"]') as HTMLButtonElement;
    submit.focus();
    submit.click();
    await waitForFocusedHeading(el, 'Já existe um pagamento em andamento');
    expect(visibleText(el)).to.contain('Este pedido já tem um código Pix ativo');
    expect(eventNames(events)).not.to.include('pix-checkout-redirect');
    await expect(el).to.be.accessible();
    buttonNamed(el, 'Continuar com Pix')!.click();
    await waitForFocusedHeading(el, 'Pague com Pix');
    expect(events.find((event) => event.type === 'pix-checkout-created')!.detail.checkoutId).to.equal(id);
  });

  it('offers the live Open Finance payment to a tab that chose PIX', async () => {
    const orderId = newOrderId();
    const { el } = await mountCheckout({ endpoint: '/api', 'order-id': orderId, methods: 'pix openfinance', lang: 'en' });
    await waitForSelector(el, '[part="chooser"]');
    await createOnBackend(orderId, 'openfinance');
    $(el, '[data-method="pix"]')!.click();
    await waitForText(el, 'This order already has an Open Finance payment under way');
    buttonNamed(el, 'Continue with Open Finance')!.click();
    await waitForText(el, 'Continue at your bank');
    expect($(el, 'a[part="button"]')!.getAttribute('href')).to.match(/^\/__fake\/bank\//);
  });

  it('leaves the conflict screen for the outcome when the live checkout ends', async () => {
    const orderId = newOrderId();
    const { el } = await mountCheckout({ endpoint: '/api', 'order-id': orderId, methods: 'pix openfinance' });
    await waitForSelector(el, '[part="chooser"]');
    const { id } = await createOnBackend(orderId, 'openfinance');
    $(el, '[data-method="pix"]')!.click();
    await waitForText(el, 'Já existe um pagamento em andamento');
    await setBackendState(id, 'Completed');
    await waitForText(el, 'Pagamento confirmado');
  });

  it('with one method and no payer form, asks for the checkout directly: the answer is the live one another tab made', async () => {
    const orderId = newOrderId();
    const { id } = await createOnBackend(orderId);
    const { el, events } = await mountCheckout({ endpoint: '/api', 'order-id': orderId, methods: 'pix' });
    await waitForSelector(el, '#pix-code');
    expect(events[0]!.detail.checkoutId).to.equal(id);
    const log = await backendLog(orderId);
    // One POST for the other tab, one for this element (answered with that same checkout), and no lookup.
    expect([log.posts, log.lookups]).to.deep.equal([2, 0]);
  });

  it('with one method that needs the payer form, still looks the order up first', async () => {
    const orderId = newOrderId();
    const { id } = await createOnBackend(orderId, 'openfinance');
    const { el } = await mountCheckout({ endpoint: '/api', 'order-id': orderId, methods: 'openfinance' });
    await waitUntil(async () => (await backendLog(orderId)).lookups === 1, 'the lookup');
    await setBackendState(id, 'Completed');
    await waitForText(el, 'Pagamento confirmado');
    expect((await backendLog(orderId)).posts).to.equal(1);
  });

  it('looks the order up with its token only: without one it says so, and offers no method', async () => {
    const orderId = newOrderId();
    const { el } = await mountCheckout({ endpoint: '/api', 'order-id': orderId, 'order-token': false, methods: 'pix openfinance' });
    await waitForText(el, 'Não conseguimos confirmar que este pedido é seu');
    expect($(el, '[part="chooser"]')).to.equal(null);
    expect((await backendLog(orderId)).lookups).to.equal(0);
  });
});
