import { expect } from '@open-wc/testing';
import {
  backendLog,
  createRequests,
  liveRegion,
  mountCheckout,
  newOrderId,
  orderTokenFor,
  typeInto,
  visibleText,
  waitForSelector,
  waitForText,
} from './helpers.js';

describe('<pix-checkout> order token', () => {
  afterEach(() => sessionStorage.clear());

  it('sends the order-token attribute with the checkout it creates', async () => {
    const orderId = newOrderId();
    const { el } = await mountCheckout({ endpoint: '/api', 'order-id': orderId, 'order-token': orderTokenFor(orderId) });
    await waitForSelector(el, 'svg[part="qr"]');
    expect(await createRequests(orderId)).to.deep.equal([{ orderId, orderToken: orderTokenFor(orderId), method: 'pix' }]);
  });

  it('sends the token with an OpenFinance checkout too, and keeps it out of the return address and the tab storage', async () => {
    const orderId = newOrderId();
    const { el, events } = await mountCheckout({ endpoint: '/api', 'order-id': orderId, methods: 'openfinance' });
    await waitForSelector(el, 'form');
    await typeInto(el.shadowRoot!.querySelector<HTMLInputElement>('#cpf')!, '52998224725');
    el.shadowRoot!.querySelector('form')!.requestSubmit();
    await waitForText(el, 'Continue no seu banco');
    const [body] = await createRequests(orderId);
    expect(body.orderToken).to.equal(orderTokenFor(orderId));
    expect(body.returnUrl).to.not.contain(orderTokenFor(orderId));
    expect(Object.values({ ...sessionStorage })).to.not.include(orderTokenFor(orderId));
    expect(events.some((event) => JSON.stringify(event.detail).includes(orderTokenFor(orderId)))).to.equal(false);
  });

  const cases: [string, string | false, number, string, string, string][] = [
    [
      'no token',
      false,
      401,
      'order_token_required',
      'Não conseguimos confirmar que este pedido é seu',
      'We could not confirm this order is yours',
    ],
    [
      'a token of another order',
      orderTokenFor('order-other'),
      403,
      'order_token_invalid',
      'não vale para este pedido',
      'not valid for this order',
    ],
    ['an expired token', 'expired:', 403, 'order_token_expired', 'Este link de pagamento expirou', 'This payment link has expired'],
  ];
  for (const [name, token, status, code, portuguese, english] of cases) {
    it(`explains ${name} in Portuguese and fires pix-checkout-error with ${code}`, async () => {
      const orderId = newOrderId();
      const attribute = token === 'expired:' ? `expired:${orderId}` : token;
      const { el, events } = await mountCheckout({ endpoint: '/api', 'order-id': orderId, 'order-token': attribute });
      await waitForText(el, 'Não foi possível iniciar o pagamento');
      expect(visibleText(el)).to.contain(portuguese);
      expect(liveRegion(el).textContent).to.contain(portuguese);
      expect(events.map((event) => event.type)).to.deep.equal(['pix-checkout-error']);
      expect(events[0]!.detail).to.include({ orderId, status, code });
      await expect(el).to.be.accessible();
    });

    it(`explains ${name} in English`, async () => {
      const orderId = newOrderId();
      const attribute = token === 'expired:' ? `expired:${orderId}` : token;
      const { el } = await mountCheckout({ endpoint: '/api', 'order-id': orderId, 'order-token': attribute, lang: 'en' });
      await waitForText(el, 'We could not start the payment');
      expect(visibleText(el)).to.contain(english);
    });
  }

  it('sends the token in the body of a POST to look up the order checkout, and never in the address', async () => {
    const orderId = newOrderId();
    const { el } = await mountCheckout({ endpoint: '/api', 'order-id': orderId, methods: 'pix openfinance' });
    await waitForSelector(el, '[part="chooser"]');
    const [lookup] = (await backendLog(orderId)).requests;
    expect(lookup).to.deep.include({ method: 'POST', path: `/api/orders/${orderId}/checkout`, token: orderTokenFor(orderId) });
  });

  it('resumes a remembered checkout without needing the token again', async () => {
    const orderId = newOrderId();
    const first = await mountCheckout({ endpoint: '/api', 'order-id': orderId });
    await waitForSelector(first.el, 'svg[part="qr"]');
    first.el.remove();
    // The payer comes back from the bank to a page that no longer has the token: the tab still knows the checkout.
    const { el, events } = await mountCheckout({ endpoint: '/api', 'order-id': orderId, 'order-token': false });
    await waitForSelector(el, 'svg[part="qr"]');
    expect(events[0]!.detail.checkoutId).to.equal(first.events[0]!.detail.checkoutId);
    expect((await backendLog(orderId)).posts).to.equal(1);
  });
});
