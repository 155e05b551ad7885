import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import type { PixCheckout } from '../../widget/index.js';
import {
  $,
  backendLog,
  createOnBackend,
  eventNames,
  liveRegion,
  mountCheckout,
  newOrderId,
  orderTokenFor,
  setBackendState,
  visibleText,
  waitForSelector,
  waitForText,
} from './helpers.js';

/** What the element stores for a tab so a reload or the return from the bank resumes the same checkout. */
function rememberForThisTab(endpoint: string, orderId: string, checkoutId: string): void {
  sessionStorage.setItem(`pix-checkout:${endpoint}|${orderId}`, checkoutId);
}

const retryButton = (el: PixCheckout) => $(el, '[part="result"] button') as HTMLButtonElement;

describe('<pix-checkout> starting and resuming', () => {
  afterEach(() => sessionStorage.clear());

  describe('could not start', () => {
    it('words the failure itself, with a way back to the shop, and fires pix-checkout-error with the server message', async () => {
      const orderId = newOrderId('missing');
      const { el, events } = await mountCheckout({ endpoint: '/api', 'order-id': orderId, 'continue-url': '/shop' });
      await waitForText(el, 'Não foi possível iniciar o pagamento');
      await waitForText(el, 'Este pedido não está disponível para pagamento');
      expect(visibleText(el)).not.to.contain('não encontrado');
      expect(eventNames(events)).to.deep.equal(['pix-checkout-error']);
      expect(events[0]!.detail).to.deep.equal({
        orderId,
        status: 404,
        code: 'order_not_found',
        message: `Pedido ${orderId} não encontrado`,
      });
      expect(liveRegion(el).textContent).to.contain('Não foi possível iniciar o pagamento');
      // No retry can make an unknown order payable (test/widget/dead-ends.test.ts).
      expect($(el, '[part="result"] a[part~="back-button"]')!.textContent.trim()).to.equal('Voltar para a loja');
      await expect(el).to.be.accessible();
    });

    it('retries the same request with the retry button', async () => {
      const orderId = newOrderId('flaky');
      const { el, events } = await mountCheckout({ endpoint: '/api', 'order-id': orderId });
      await waitForText(el, 'O serviço de pagamentos está fora do ar agora');
      retryButton(el).click();
      await waitForSelector(el, 'svg[part="qr"]');
      expect(eventNames(events).slice(0, 2)).to.deep.equal(['pix-checkout-error', 'pix-checkout-created']);
      expect((await backendLog(orderId)).posts).to.equal(2);
    });

    it('words a code it does not know by its status class, never with the server text', async () => {
      const { el } = await mountCheckout({ endpoint: '/api', 'order-id': newOrderId('paid'), lang: 'en' });
      await waitForText(el, 'We could not start the payment');
      expect(visibleText(el)).to.contain('This payment could not be processed');
      expect(visibleText(el)).not.to.contain('Este pedido já foi pago');
    });

    it('says the payment service cannot be reached, without blaming the connection alone, when nothing answers', async () => {
      const { el, events } = await mountCheckout({ endpoint: 'http://127.0.0.1:9/api', 'order-id': newOrderId() });
      await waitForText(el, 'Não conseguimos falar com o serviço de pagamento');
      expect(events[0]!.detail).to.include({ status: 0, code: 'network_error' });
      await expect(el).to.be.accessible();
    });

    it('reports a missing order-id instead of throwing', async () => {
      const el = await fixture<PixCheckout>(html`<pix-checkout endpoint="/api"></pix-checkout>`);
      await waitForText(el, 'configuração incompleta');
      await expect(el).to.be.accessible();
    });

    it('shows an accessible loading screen while the checkout is being created', async () => {
      const { el } = await mountCheckout({ endpoint: '/api', 'order-id': newOrderId('slow') });
      await waitForText(el, 'Preparando o pagamento');
      expect($(el, '[part="spinner"]')!.getAttribute('aria-hidden')).to.equal('true');
      await expect(el).to.be.accessible();
      await waitForSelector(el, 'svg[part="qr"]');
    });
  });

  describe('the first request', () => {
    it('leaves during the first update, before the first render, when there is nothing to look up', async () => {
      const realFetch = window.fetch;
      const seen: { method: string; rendered: boolean }[] = [];
      const el = document.createElement('pix-checkout');
      window.fetch = (input, init) => {
        seen.push({ method: init?.method ?? 'GET', rendered: el.hasUpdated || (el.shadowRoot?.childElementCount ?? 0) > 0 });
        return realFetch(input, init);
      };
      try {
        const orderId = newOrderId('order');
        el.setAttribute('endpoint', '/api');
        el.setAttribute('order-id', orderId);
        el.setAttribute('order-token', orderTokenFor(orderId));
        const container = await fixture<HTMLDivElement>(html`<div></div>`);
        container.append(el);
        await el.updateComplete;
        expect(seen[0]).to.deep.equal({ method: 'POST', rendered: false });
        await waitForSelector(el, 'svg[part="qr"]');
      } finally {
        window.fetch = realFetch;
      }
    });
  });

  describe('the create and lookup requests', () => {
    /** The method and headers of the first request an element for `endpoint` sends (answered with a network error). */
    async function firstRequest(endpoint: string, attributes: Record<string, string> = {}) {
      const realFetch = window.fetch;
      const seen: { url: string; method: string; headers: Record<string, string>; body: unknown }[] = [];
      window.fetch = (input, init) => {
        seen.push({
          url: input instanceof Request ? input.url : input.toString(),
          method: init?.method ?? 'GET',
          headers: { ...(init?.headers as Record<string, string>) },
          body: init?.body,
        });
        return Promise.reject(new TypeError('Failed to fetch'));
      };
      try {
        const orderId = newOrderId('order');
        await mountCheckout({ endpoint, 'order-id': orderId, 'order-token': orderTokenFor(orderId), ...attributes });
        return { ...seen[0]!, orderId };
      } finally {
        window.fetch = realFetch;
      }
    }

    it('is a CORS "simple" request to a BFF on another origin, so the browser sends no preflight', async () => {
      const other = new URL(window.location.href);
      other.hostname = other.hostname === 'localhost' ? '127.0.0.1' : 'localhost';
      const request = await firstRequest(`${other.origin}/api`);
      expect(request.url).to.equal(`${other.origin}/api/checkouts`);
      expect(request.method).to.equal('POST');
      // Only CORS-safelisted headers, and a safelisted content type: text/plain.
      expect(Object.keys(request.headers).sort()).to.deep.equal(['accept', 'content-type']);
      expect(request.headers['content-type']).to.equal('text/plain;charset=UTF-8');
      expect(request.headers.accept).to.equal('application/json');
      expect(JSON.parse(request.body as string)).to.include({ method: 'pix' });
    });

    it("is JSON to a BFF on the page's own origin, where no preflight happens anyway", async () => {
      const request = await firstRequest('/api');
      expect(request.headers['content-type']).to.equal('application/json');
    });

    it('looks the order up with a "simple" request too, the token in the body', async () => {
      const other = new URL(window.location.href);
      other.hostname = other.hostname === 'localhost' ? '127.0.0.1' : 'localhost';
      // Two methods: the chooser first asks whether the order already has a checkout to resume.
      const request = await firstRequest(`${other.origin}/api`, { methods: 'pix openfinance' });
      expect(request.url).to.equal(`${other.origin}/api/orders/${request.orderId}/checkout`);
      expect(request.method).to.equal('POST');
      expect(Object.keys(request.headers).sort()).to.deep.equal(['accept', 'content-type']);
      expect(request.headers['content-type']).to.equal('text/plain;charset=UTF-8');
      expect(JSON.parse(request.body as string)).to.deep.equal({ orderToken: orderTokenFor(request.orderId) });
    });
  });

  describe('resuming', () => {
    it('resumes a remembered PIX checkout after a reload, without creating another', async () => {
      const orderId = newOrderId();
      const { id } = await createOnBackend(orderId);
      rememberForThisTab('/api', orderId, id);
      const { el, events } = await mountCheckout({ endpoint: '/api', 'order-id': orderId });
      await waitForSelector(el, 'svg[part="qr"]');
      expect(eventNames(events)).to.deep.equal(['pix-checkout-status']);
      expect(events[0]!.detail.checkoutId).to.equal(id);
      const log = await backendLog(orderId);
      expect(log.posts).to.equal(1);
      // The tab's own live checkout is the order's only live one: no order lookup needed.
      expect(log.requests.slice(1).map((r) => r.path)).to.deep.equal([`/api/checkouts/${id}`, `/api/checkouts/${id}/events`]);
    });

    it('resumes the OpenFinance checkout when the payer comes back from the bank, without going there again', async () => {
      const orderId = newOrderId();
      const { id } = await createOnBackend(orderId, 'openfinance');
      rememberForThisTab('/api', orderId, id);
      const { el, events } = await mountCheckout({ endpoint: '/api', 'order-id': orderId, methods: 'openfinance' });
      await waitForText(el, 'Continue no seu banco');
      await setBackendState(id, 'Completed');
      await waitForText(el, 'Pagamento confirmado');
      expect(eventNames(events)).to.deep.equal(['pix-checkout-status', 'pix-checkout-status', 'pix-checkout-completed']);
      await expect(el).to.be.accessible();
    });

    it('shows the outcome of a remembered checkout that already ended', async () => {
      const orderId = newOrderId();
      const { id } = await createOnBackend(orderId);
      await setBackendState(id, 'Error');
      rememberForThisTab('/api', orderId, id);
      const { el, events } = await mountCheckout({ endpoint: '/api', 'order-id': orderId });
      await waitForText(el, 'O pagamento não foi concluído');
      expect(eventNames(events)).to.deep.equal(['pix-checkout-status', 'pix-checkout-failed']);
    });

    it('starts afresh when the remembered checkout is unknown to the server', async () => {
      const orderId = newOrderId();
      rememberForThisTab('/api', orderId, 'chk_gone');
      const { el, events } = await mountCheckout({ endpoint: '/api', 'order-id': orderId });
      await waitForSelector(el, 'svg[part="qr"]');
      expect(eventNames(events)[0]).to.equal('pix-checkout-created');
      expect(sessionStorage.getItem(`pix-checkout:/api|${orderId}`)).to.equal(events[0]!.detail.checkoutId);
    });

    it('starts over for the new order when order-id changes', async () => {
      const { el, events } = await mountCheckout({ endpoint: '/api', 'order-id': newOrderId() });
      await waitForSelector(el, 'svg[part="qr"]');
      const next = newOrderId();
      el.setAttribute('order-token', orderTokenFor(next));
      el.setAttribute('order-id', next);
      await waitUntil(() => events.filter((event) => event.type === 'pix-checkout-created').length === 2);
      expect(events.filter((event) => event.type === 'pix-checkout-created')[1]!.detail.orderId).to.equal(next);
    });

    it('closes its event stream when removed from the page', async () => {
      const { el, events } = await mountCheckout({ endpoint: '/api', 'order-id': newOrderId() });
      await waitForSelector(el, 'svg[part="qr"]');
      el.remove();
      await setBackendState(events[0]!.detail.checkoutId, 'Completed');
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(events.some((event) => event.type === 'pix-checkout-completed')).to.equal(false);
    });
  });
});
