// Point 4, no dead ends. The element checks before it asks: a missing or refused order token and an unknown order are
// told at start, before the methods, the payer form or any checkout; a failure no retry can fix leads back to the shop
// (`continue-url`, else the previous page) in words that say what happened, not only with "Tentar novamente".
import { expect } from '@open-wc/testing';
import type { PixCheckout } from '../../widget/index.js';
import { stringsOf } from './strings.js';
import {
  $,
  backendLog,
  createOnBackend,
  eventNames,
  mountCheckout,
  newOrderId,
  orderTokenFor,
  waitForSelector,
  waitForText,
} from './helpers.js';

const pt = stringsOf('pt-BR');
const en = stringsOf('en');
const SHOP = 'https://shop.example/pedidos/1001';

const backLink = (el: PixCheckout) => $(el, 'a[part~="back-button"]') as HTMLAnchorElement | null;
const buttons = (el: PixCheckout) => [...el.shadowRoot!.querySelectorAll('[part="result"] button')].map((b) => b.textContent.trim());

/** Runs `body` with a tab history of `length` entries and `history.back` recorded instead of followed. */
async function withHistory(length: number, body: (backs: () => number) => Promise<void>): Promise<void> {
  let backs = 0;
  Object.defineProperty(history, 'length', { value: length, configurable: true });
  Object.defineProperty(history, 'back', { value: () => backs++, configurable: true });
  try {
    await body(() => backs);
  } finally {
    delete (history as { length?: number }).length;
    delete (history as { back?: unknown }).back;
  }
}

describe('<pix-checkout> with no dead ends', () => {
  afterEach(() => sessionStorage.clear());

  describe('checks before it asks', () => {
    it('says a missing order token at once, before the methods, and sends nothing', async () => {
      const orderId = newOrderId();
      const { el, events } = await mountCheckout({
        endpoint: '/api',
        'order-id': orderId,
        'order-token': false,
        methods: 'pix openfinance',
        'continue-url': SHOP,
      });
      await waitForText(el, pt.startFailedTitle);
      expect($(el, '[part="chooser"]')).to.equal(null);
      // The words of the code come with the lazy chunk, right after the heading.
      await waitForText(el, pt.orderTokenRequired);
      expect(events.map((event) => event.detail as { code: string }).map((detail) => detail.code)).to.deep.equal(['order_token_required']);
      const log = await backendLog(orderId);
      expect([log.posts, log.lookups]).to.deep.equal([0, 0]);
      expect(backLink(el)?.href).to.equal(SHOP);
      await expect(el).to.be.accessible();
    });

    it('sends no create for a page with one method and no order token', async () => {
      const orderId = newOrderId();
      const { el } = await mountCheckout({ endpoint: '/api', 'order-id': orderId, 'order-token': false, methods: 'pix' });
      await waitForText(el, pt.orderTokenRequired);
      const log = await backendLog(orderId);
      expect([log.posts, log.lookups]).to.deep.equal([0, 0]);
    });

    it('says an unknown order at once, before the methods, and creates nothing', async () => {
      const orderId = newOrderId('missing');
      const { el, events } = await mountCheckout({ endpoint: '/api', 'order-id': orderId, methods: 'pix openfinance' });
      await waitForText(el, pt.errOrderNotFound);
      expect($(el, '[part="chooser"]')).to.equal(null);
      expect(eventNames(events)).to.deep.equal(['pix-checkout-error']);
      expect(events[0]!.detail).to.include({ status: 404, code: 'order_not_found' });
      expect((await backendLog(orderId)).posts).to.equal(0);
    });

    it('says a refused token before the payer form asks for a CPF', async () => {
      const orderId = newOrderId();
      const { el, events } = await mountCheckout({
        endpoint: '/api',
        'order-id': orderId,
        'order-token': orderTokenFor('another-order'),
        methods: 'openfinance',
      });
      await waitForText(el, pt.orderTokenInvalid);
      expect($(el, 'input#cpf')).to.equal(null);
      expect(events[0]!.detail).to.include({ status: 403, code: 'order_token_invalid' });
    });

    it('shows the live PIX another tab made instead of the Open Finance payer form', async () => {
      const orderId = newOrderId();
      const { id } = await createOnBackend(orderId, 'pix');
      const { el, events } = await mountCheckout({ endpoint: '/api', 'order-id': orderId, methods: 'openfinance' });
      await waitForSelector(el, '#pix-code');
      expect($(el, 'input#cpf')).to.equal(null);
      expect(events[0]!.detail.checkoutId).to.equal(id);
      expect((await backendLog(orderId)).posts).to.equal(1);
    });
  });

  describe('leads back to the shop when no retry can fix it', () => {
    it('links to continue-url, says what happened, and offers no retry', async () => {
      const { el } = await mountCheckout({ endpoint: '/api', 'order-id': newOrderId('missing'), 'continue-url': SHOP });
      await waitForText(el, pt.errOrderNotFound);
      expect(backLink(el)?.textContent.trim()).to.equal(pt.backToShop);
      expect(backLink(el)?.href).to.equal(SHOP);
      expect(buttons(el)).not.to.include(pt.retry);
      await expect(el).to.be.accessible();
    });

    it('goes back in the tab history when there is no continue-url', async () => {
      await withHistory(3, async (backs) => {
        const { el } = await mountCheckout({ endpoint: '/api', 'order-id': newOrderId(), 'order-token': 'nonsense', lang: 'en' });
        await waitForText(el, en.orderTokenInvalid);
        expect(backLink(el)).to.equal(null);
        const back = $(el, 'button[part~="back-button"]') as HTMLButtonElement;
        expect(back.textContent.trim()).to.equal(en.backToShop);
        expect(buttons(el)).not.to.include(en.retry);
        back.click();
        expect(backs()).to.equal(1);
      });
    });

    it('leads back from a page the BFF does not allow', async () => {
      const other = location.hostname === 'localhost' ? '127.0.0.1' : 'localhost';
      const endpoint = `${location.protocol}//${other}:${location.port}/api`;
      const { el } = await mountCheckout({ endpoint, 'order-id': newOrderId(), 'continue-url': SHOP });
      await waitForText(el, pt.errOrigin);
      expect(backLink(el)?.href).to.equal(SHOP);
    });

    it('keeps the retry when the tab has nowhere to go back to', async () => {
      await withHistory(1, async () => {
        const { el } = await mountCheckout({ endpoint: '/api', 'order-id': newOrderId('missing') });
        await waitForText(el, pt.errOrderNotFound);
        expect($(el, '[part~="back-button"]')).to.equal(null);
        expect(buttons(el)).to.deep.equal([pt.retry]);
      });
    });

    it('offers the retry, and no way back, for a failure a retry can fix', async () => {
      const { el } = await mountCheckout({ endpoint: '/api', 'order-id': newOrderId('down'), 'continue-url': SHOP });
      await waitForText(el, pt.errProviderUnavailable);
      expect($(el, '[part~="back-button"]')).to.equal(null);
      expect(buttons(el)).to.deep.equal([pt.retry]);
    });
  });
});
