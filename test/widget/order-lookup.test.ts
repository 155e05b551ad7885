// The order lookup a page sends before the element's script arrives (the payment link page does, server/pay-page/pay.js):
// the element reads that answer as its own, once, and sends no lookup of its own for it.
import { expect, fixture, html } from '@open-wc/testing';
import type { PixCheckout } from '../../widget/index.js';
import { $, backendLog, createOnBackend, newOrderId, orderTokenFor, waitForSelector, waitForText } from './helpers.js';
import { stringsOf } from './strings.js';

const pt = stringsOf('pt-BR');

/** What the payment link page sends: `POST /api/orders/<id>/checkout` with the token in the JSON body. */
const pageLookup = (orderId: string, orderToken: string) =>
  fetch(`/api/orders/${encodeURIComponent(orderId)}/checkout`, {
    method: 'POST',
    headers: { accept: 'application/json', 'content-type': 'application/json' },
    body: JSON.stringify({ orderToken }),
  });

/** An element for `orderId` offering both methods, given the page's lookup before it connects. */
async function mountWithLookup(orderId: string, orderToken = orderTokenFor(orderId)): Promise<PixCheckout> {
  const el = document.createElement('pix-checkout');
  for (const [name, value] of Object.entries({
    endpoint: '/api',
    'order-id': orderId,
    'order-token': orderToken,
    methods: 'pix openfinance',
  }))
    el.setAttribute(name, value);
  el.orderLookup = pageLookup(orderId, orderToken);
  const container = await fixture<HTMLDivElement>(html`<div></div>`);
  container.append(el);
  await el.updateComplete;
  return el;
}

describe('<pix-checkout> given the page’s order lookup', () => {
  afterEach(() => sessionStorage.clear());

  it('resumes the live checkout that lookup found, and sends no lookup of its own', async () => {
    const orderId = newOrderId();
    await createOnBackend(orderId, 'pix');
    const el = await mountWithLookup(orderId);
    await waitForSelector(el, '#pix-code');
    expect((await backendLog(orderId)).lookups).to.equal(1);
    expect(el.orderLookup).to.equal(undefined);
  });

  it('offers the methods when that lookup found none, without asking again', async () => {
    const orderId = newOrderId();
    const el = await mountWithLookup(orderId);
    await waitForSelector(el, '[part="chooser"]');
    const log = await backendLog(orderId);
    expect([log.lookups, log.posts]).to.deep.equal([1, 0]);
  });

  it('says a token that lookup was refused for, as it says its own', async () => {
    const orderId = newOrderId();
    const el = await mountWithLookup(orderId, `${orderTokenFor(orderId)}x`);
    await waitForText(el, pt.startFailedTitle);
    expect($(el, '[part="chooser"]')).to.equal(null);
    expect((await backendLog(orderId)).lookups).to.equal(1);
  });
});
