// A page set up wrong is told so: its console names the missing attribute or the refused origin and the setting that
// lets it in, while the shopper reads the element's words. And the page's fallback content (the element's children)
// stays hidden while the element works, and shows again when the checkout cannot start.
import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import type { PixCheckout } from '../../widget/index.js';
import { $, mountCheckout, newOrderId, orderTokenFor, waitForSelector, waitForText } from './helpers.js';

/** Records console.warn and console.error calls while `body` runs (and still prints them). */
async function watchConsole<T>(body: (seen: { warn: string[]; error: string[] }) => Promise<T>): Promise<T> {
  const seen = { warn: [] as string[], error: [] as string[] };
  const { warn, error } = console;
  console.warn = (...args: unknown[]) => seen.warn.push(args.map(String).join(' '));
  console.error = (...args: unknown[]) => seen.error.push(args.map(String).join(' '));
  try {
    return await body(seen);
  } finally {
    Object.assign(console, { warn, error });
  }
}

/** A `<pix-checkout>` with a fallback paragraph and link as its child, as the README shows it. */
async function mountWithFallback(attributes: Record<string, string>): Promise<{ el: PixCheckout; child: HTMLElement }> {
  const container = await fixture<HTMLDivElement>(html`<div></div>`);
  const el = document.createElement('pix-checkout');
  for (const [name, value] of Object.entries(attributes)) el.setAttribute(name, value);
  const child = document.createElement('p');
  child.className = 'pix-fallback';
  child.innerHTML = 'O pagamento não carregou? <a href="/pedidos/1/pagamento">Veja outras formas de pagar</a>.';
  el.append(child);
  container.append(el);
  await el.updateComplete;
  return { el, child };
}

/** Whether the child has a box on screen (it has none when the shadow tree does not slot it). */
const shown = (child: HTMLElement) => child.getClientRects().length > 0;

const otherOrigin = () => `${location.protocol}//${location.hostname === 'localhost' ? '127.0.0.1' : 'localhost'}:${location.port}`;

describe('<pix-checkout> on a page set up wrong', () => {
  afterEach(() => sessionStorage.clear());

  it('warns in the console, once per order, when order-token is missing, naming the attribute', async () => {
    await watchConsole(async (seen) => {
      const orderId = newOrderId();
      const { el } = await mountCheckout({ endpoint: '/api', 'order-id': orderId, 'order-token': false });
      await waitForText(el, 'Não foi possível iniciar o pagamento');
      // Its words come with the lazy chunk, which the failure asks for.
      await waitUntil(() => seen.warn.length > 0, 'the warning');
      expect(seen.warn).to.have.length(1);
      expect(seen.warn[0]).to.contain('order-token attribute is missing').and.contain(orderId);
      // Starting again is the same page: no second warning (no retry here: a missing token leads back to the shop).
      const parent = el.parentElement!;
      el.remove();
      parent.append(el);
      await waitForText(el, 'Não foi possível iniciar o pagamento');
      expect(seen.warn).to.have.length(1);
    });
  });

  it('warns about nothing when the token is there', async () => {
    await watchConsole(async (seen) => {
      const orderId = newOrderId();
      const { el } = await mountCheckout({ endpoint: '/api', 'order-id': orderId, 'order-token': orderTokenFor(orderId) });
      await waitForSelector(el, '#pix-code');
      expect(seen.warn).to.deep.equal([]);
      expect(seen.error).to.deep.equal([]);
    });
  });

  it('tells the console which origin to add to which setting when the BFF refuses this page', async () => {
    await watchConsole(async (seen) => {
      const endpoint = `${otherOrigin()}/api`;
      const { el } = await mountCheckout({ endpoint, 'order-id': newOrderId() });
      await waitForText(el, 'Esta página não está autorizada a receber pagamentos');
      expect(seen.error.join('\n')).to.contain(
        `${endpoint} does not take payments from pages on ${location.origin}: add ${location.origin} to the BFF's ALLOWED_ORIGINS setting`,
      );
    });
  });

  it('tells the console which attributes are missing', async () => {
    await watchConsole(async (seen) => {
      await fixture<PixCheckout>(html`<pix-checkout endpoint="/api"></pix-checkout>`);
      await waitUntil(() => seen.error.length > 0, 'the console error');
      expect(seen.error.join('\n')).to.contain('the endpoint and order-id attributes are required');
    });
  });

  it('says nothing to the console about setup when the service is only unreachable or refuses the order', async () => {
    await watchConsole(async (seen) => {
      const { el } = await mountCheckout({ endpoint: '/api', 'order-id': newOrderId('missing') });
      await waitForText(el, 'Não foi possível iniciar o pagamento');
      expect(seen.error).to.deep.equal([]);
    });
  });
});

describe('<pix-checkout> fallback content', () => {
  afterEach(() => sessionStorage.clear());

  it('hides the page’s fallback children while it works', async () => {
    const orderId = newOrderId();
    const { el, child } = await mountWithFallback({ endpoint: '/api', 'order-id': orderId, 'order-token': orderTokenFor(orderId) });
    await waitForSelector(el, '#pix-code');
    expect(shown(child)).to.equal(false);
  });

  for (const [why, attributes] of [
    ['the BFF cannot be reached', { endpoint: 'http://127.0.0.1:9/api' }],
    ['the BFF refuses this page', { endpoint: `${otherOrigin()}/api` }],
    ['the BFF cannot start the order', { endpoint: '/api', scenario: 'down' }],
  ] as const) {
    it(`shows them again, below its message, when ${why}`, async () => {
      const orderId = newOrderId('scenario' in attributes ? attributes.scenario : 'order');
      const { el, child } = await mountWithFallback({
        endpoint: attributes.endpoint,
        'order-id': orderId,
        'order-token': orderTokenFor(orderId),
      });
      await waitForText(el, 'Não foi possível iniciar o pagamento');
      expect(shown(child)).to.equal(true);
      expect(child.assignedSlot?.closest('[data-state="start-failed"]')).to.exist;
      await expect(el).to.be.accessible();
    });
  }

  it('shows them again when the page left out a required attribute', async () => {
    const { el, child } = await watchConsole(() => mountWithFallback({ endpoint: '/api' }));
    await waitForText(el, 'configuração incompleta');
    expect(shown(child)).to.equal(true);
  });

  it('hides them again once a retry gets the checkout going', async () => {
    const orderId = newOrderId('flaky');
    const { el, child } = await mountWithFallback({ endpoint: '/api', 'order-id': orderId, 'order-token': orderTokenFor(orderId) });
    await waitForText(el, 'Não foi possível iniciar o pagamento');
    expect(shown(child)).to.equal(true);
    ($(el, '[part="result"] button') as HTMLButtonElement).click();
    await waitForSelector(el, '#pix-code');
    expect(shown(child)).to.equal(false);
  });
});
