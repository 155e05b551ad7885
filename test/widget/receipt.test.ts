// Point 4, trust and closure: the chooser's PIX mark, Open Finance label and the merchant's name before paying, the
// numbered "how to pay" beside the QR on wide screens, and a receipt with a way on (continue-url, the continue slot,
// the cancelable pix-checkout-continue event).
import { expect, waitUntil } from '@open-wc/testing';
import type { PixCheckout } from '../../widget/index.js';
import { $, mountCheckout, newOrderId, setBackendState, visibleText, waitForSelector, waitForText, type BackendFields } from './helpers.js';

const PAID_AT = '2025-03-12T17:32:00Z';
const rect = (el: PixCheckout, selector: string) => $(el, selector)!.getBoundingClientRect();

/** A completed PIX checkout on screen, with the receipt fields given. */
async function receipt(attributes: Record<string, string | boolean> = {}, fields: BackendFields = {}, children: Node[] = []) {
  const mounted = await mountCheckout({ endpoint: '/api', 'order-id': newOrderId(), 'merchant-name': 'Armazém Cerrado', ...attributes });
  mounted.el.append(...children);
  await waitForSelector(mounted.el, '#pix-code');
  const checkoutId = mounted.events[0]!.detail.checkoutId as string;
  await setBackendState(checkoutId, 'Completed', { paidAt: PAID_AT, ...fields });
  await waitForSelector(mounted.el, '[part="receipt"]');
  return { ...mounted, checkoutId };
}

/** The receipt as label → value. */
function receiptRows(el: PixCheckout): Record<string, string> {
  const rows = [...el.shadowRoot!.querySelectorAll('.receipt-row')];
  return Object.fromEntries(rows.map((row) => [row.querySelector('dt')!.textContent.trim(), row.querySelector('dd')!.textContent.trim()]));
}

describe('<pix-checkout> trust and closure', () => {
  afterEach(() => sessionStorage.clear());

  it('shows the PIX mark, a clear Open Finance label and the merchant before paying', async () => {
    const { el } = await mountCheckout({
      endpoint: '/api',
      'order-id': newOrderId(),
      methods: 'pix openfinance',
      'merchant-name': 'Armazém Cerrado',
    });
    await waitForSelector(el, '[part="chooser"]');
    expect($(el, '[data-method="pix"] svg.icon-pix')).to.exist;
    expect($(el, '[data-method="openfinance"] svg.icon-bank')).to.exist;
    expect($(el, '[data-method="openfinance"] .method-name')!.textContent).to.equal('Open Finance');
    expect($(el, '[part="merchant"]')!.textContent).to.equal('Pagamento para Armazém Cerrado');
    await expect(el).to.be.accessible();
  });

  it('puts the numbered steps beside the QR on a wide screen, and names the payee', async () => {
    const { el } = await mountCheckout({ endpoint: '/api', 'order-id': newOrderId(), 'merchant-name': 'Armazém Cerrado', lang: 'en' });
    await waitForSelector(el, 'svg[part="qr"]');
    const steps = [...el.shadowRoot!.querySelectorAll('[part="steps"] li')].map((li) => li.textContent.trim());
    expect(steps).to.deep.equal([
      'Open your bank app and choose to pay with Pix.',
      'Scan the QR code, or paste the code under Pix copy and paste.',
      'Check the amount and confirm. The confirmation shows up here.',
    ]);
    const qr = rect(el, 'svg[part="qr"]');
    const how = rect(el, '.how');
    expect(how.left, 'right of the QR').to.be.at.least(qr.right);
    expect(how.top).to.be.below(qr.bottom);
    expect($(el, '[part="merchant"]')!.textContent).to.equal('Paying Armazém Cerrado');
    await expect(el).to.be.accessible();
  });

  it('ends on a receipt: amount, date and time of payment, order, transaction, payer bank and voucher', async () => {
    const voucher = 'https://bank.example/comprovantes/E123';
    const { el } = await receipt({}, { payerBank: 'Banco Exemplo S.A.', receiptVoucher: voucher });
    const when = new Intl.DateTimeFormat('pt-BR', { dateStyle: 'short', timeStyle: 'short' }).format(new Date(PAID_AT));
    const rows = receiptRows(el);
    expect(rows).to.deep.include({ Valor: 'R$\u00a01.234,50', Data: when, Pedido: el.orderId, 'Banco pagador': 'Banco Exemplo S.A.' });
    expect(rows['ID da transação']).to.match(/^tx_\d+$/);
    const link = $(el, '.receipt a') as HTMLAnchorElement;
    expect([link.textContent, link.href, link.rel]).to.deep.equal(['Ver comprovante', voucher, 'noopener']);
    expect(visibleText(el)).to.contain('Armazém Cerrado recebeu o seu pagamento. Obrigado!');
    expect($(el, '[part~="continue-button"]'), 'no continue link without continue-url').to.equal(null);
    await expect(el).to.be.accessible();
  });

  it('shows a voucher that is not an address as text', async () => {
    const { el } = await receipt({ lang: 'en' }, { receiptVoucher: 'E18236120202503121732s0123456789' });
    expect(receiptRows(el)['Bank receipt']).to.equal('E18236120202503121732s0123456789');
    expect($(el, '.receipt a')).to.equal(null);
  });

  it('continues to continue-url, firing pix-checkout-continue first', async () => {
    const { el, events } = await receipt({ 'continue-url': '/shop/thanks' });
    const link = $(el, '[part~="continue-button"]') as HTMLAnchorElement;
    expect(link.textContent.trim()).to.equal('Continuar');
    let prevented: boolean | undefined;
    // Seen after the element's own handler; then stopped here, so the test page stays.
    const stopNavigation = (event: Event) => {
      prevented = event.defaultPrevented;
      event.preventDefault();
    };
    document.addEventListener('click', stopNavigation);
    try {
      link.click();
    } finally {
      document.removeEventListener('click', stopNavigation);
    }
    expect(prevented, 'the element lets the link navigate').to.equal(false);
    const continued = events.find((event) => event.type === 'pix-checkout-continue')!;
    expect(continued.cancelable).to.equal(true);
    expect(continued.detail).to.deep.include({ orderId: el.orderId, state: 'Completed', url: '/shop/thanks' });
  });

  it('lets the host cancel the navigation of continue-url', async () => {
    const { el } = await receipt({ 'continue-url': '/shop/thanks' });
    el.addEventListener('pix-checkout-continue', (event) => event.preventDefault());
    const click = new MouseEvent('click', { bubbles: true, composed: true, cancelable: true });
    ($(el, '[part~="continue-button"]') as HTMLAnchorElement).dispatchEvent(click);
    expect(click.defaultPrevented).to.equal(true);
  });

  it('shows the continue slot instead of the default link', async () => {
    const own = document.createElement('a');
    own.slot = 'continue';
    own.href = '/orders/1';
    own.textContent = 'Ver meu pedido';
    const { el } = await receipt({ 'continue-url': '/shop/thanks' }, {}, [own]);
    const slot = $(el, 'slot[name="continue"]') as HTMLSlotElement;
    await waitUntil(() => slot.assignedElements().length === 1);
    expect(slot.assignedElements()[0]).to.equal(own);
    expect(own.getBoundingClientRect().height).to.be.above(0);
    expect($(el, '[part~="continue-button"]')!.getBoundingClientRect().height, 'the fallback link is not shown').to.equal(0);
    await expect(el).to.be.accessible();
  });

  it('ignores a continue-url that is not a web address', async () => {
    const { el } = await receipt({ 'continue-url': 'javascript:alert(1)' });
    expect($(el, '[part~="continue-button"]')).to.equal(null);
  });

  for (const [state, title, action] of [
    ['Error', 'O pagamento não foi concluído', 'Tentar novamente'],
    ['Cancelled', 'Pagamento cancelado', 'Pagar novamente'],
    ['Reversed', 'Pagamento estornado', 'Pagar novamente'],
  ] as const) {
    it(`gives ${state} its own picture, words and action`, async () => {
      const { el, events } = await mountCheckout({ endpoint: '/api', 'order-id': newOrderId() });
      await waitForSelector(el, '#pix-code');
      await setBackendState(events[0]!.detail.checkoutId, state);
      await waitForText(el, title);
      expect($(el, '[part="result"] .icon svg')!.getAttribute('class')).to.contain(
        `icon-${{ Error: 'cross', Cancelled: 'ban', Reversed: 'undo' }[state]}`,
      );
      expect($(el, '[part="result"] button')!.textContent.trim()).to.equal(action);
      await expect(el).to.be.accessible();
    });
  }
});
