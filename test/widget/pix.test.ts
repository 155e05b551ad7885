import { expect, fixture, html, oneEvent, waitUntil } from '@open-wc/testing';
import type { PixCheckout } from '../../widget/index.js';
import {
  $,
  asTouchDevice,
  createRequests,
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

/** A PIX checkout on screen, waiting for payment, with its recorded events and checkout id. */
async function awaitingPixCheckout(attributes: Record<string, string | boolean> = {}) {
  const mounted = await mountCheckout({ endpoint: '/api', 'order-id': newOrderId(), ...attributes });
  await waitForSelector(mounted.el, '#pix-code');
  return { ...mounted, checkoutId: mounted.events[0]!.detail.checkoutId as string };
}

const codeField = (el: PixCheckout) => $(el, '#pix-code')!;
const copyButton = (el: PixCheckout) => $(el, '[part~="copy-button"]') as HTMLButtonElement;

/** The PIX screen's blocks in document order: copy button and code, "how to pay" steps, QR. */
const blockOrder = (el: PixCheckout) =>
  [...el.shadowRoot!.querySelectorAll('.pix .copy, .pix .how, .pix .scan')].map((block) => block.className);

/** Replaces `navigator.clipboard` (or removes it) for one test. */
function stubClipboard(clipboard: Partial<Clipboard> | undefined): () => void {
  Object.defineProperty(navigator, 'clipboard', { value: clipboard, configurable: true });
  return () => delete (navigator as { clipboard?: Clipboard }).clipboard;
}

/** Replaces `document.execCommand` for one test; records the commands. */
function stubExecCommand(result: boolean | Error): { commands: string[]; restore: () => void } {
  const commands: string[] = [];
  document.execCommand = (command: string) => {
    commands.push(command);
    if (result instanceof Error) throw result;
    return result;
  };
  return { commands, restore: () => delete (document as { execCommand?: unknown }).execCommand };
}

/** The text selected inside the element (Chromium's ShadowRoot.getSelection). */
const shadowSelection = (el: PixCheckout) => (el.shadowRoot as ShadowRoot & { getSelection(): Selection }).getSelection().toString();

describe('<pix-checkout> PIX', () => {
  afterEach(() => sessionStorage.clear());

  it('creates a PIX checkout on connect and shows the amount, QR and copy-and-paste code', async () => {
    const orderId = newOrderId();
    const el = await fixture<PixCheckout>(
      html`<pix-checkout endpoint="/api" order-id=${orderId} order-token=${orderTokenFor(orderId)}></pix-checkout>`,
    );
    const { detail } = await oneEvent(el, 'pix-checkout-created');
    expect(detail).to.include({ orderId, state: 'Registered', amount: '1234.50' });
    const qr = await waitForSelector(el, 'svg[part="qr"]');
    expect(qr.getAttribute('role')).to.equal('img');
    expect(qr.getAttribute('aria-label')).to.equal('QR code do pagamento Pix');
    expect(qr.querySelector('path')!.getAttribute('d')).to.match(/^M\d+ \d+h\d+v1h-\d+z/);
    expect(codeField(el).textContent).to.match(/^000201/);
    expect($(el, '[part="amount"]')!.textContent).to.contain('R$\u00a01.234,50');
    expect($(el, '[part="description"]')!.textContent).to.equal(`Pedido ${orderId}`);
    expect(visibleText(el)).to.contain('Aguardando o pagamento');
    expect(liveRegion(el).getAttribute('aria-live')).to.equal('polite');
    expect(await createRequests(orderId)).to.deep.equal([{ orderId, orderToken: orderTokenFor(orderId), method: 'pix' }]);
    await expect(el).to.be.accessible();
  });

  it('draws the QR locally: no image and no request to qrCodeLocation', async () => {
    const { el } = await awaitingPixCheckout();
    expect(el.shadowRoot!.querySelector('img')).to.equal(null);
    const fetched = performance.getEntriesByType('resource').map((entry) => entry.name);
    expect(fetched.some((url) => url.includes('qr.example.com'))).to.equal(false);
  });

  it('speaks English with lang="en" and formats the amount the English way', async () => {
    const { el } = await awaitingPixCheckout({ lang: 'en' });
    expect($(el, '[part="amount"]')!.textContent).to.contain('R$1,234.50');
    expect(visibleText(el)).to.contain('Waiting for your payment');
    expect(copyButton(el).textContent.trim()).to.equal('Copy Pix code');
    expect($(el, '.base')!.getAttribute('lang')).to.equal('en');
    await expect(el).to.be.accessible();
  });

  it('announces the completed state once, in events and in the live region', async () => {
    const { el, events, checkoutId } = await awaitingPixCheckout();
    await setBackendState(checkoutId, 'Completed');
    await waitForText(el, 'Pagamento confirmado');
    expect(eventNames(events)).to.deep.equal([
      'pix-checkout-created',
      'pix-checkout-status',
      'pix-checkout-status',
      'pix-checkout-completed',
    ]);
    expect(events[3]!.detail).to.deep.equal({ checkoutId, orderId: el.orderId, state: 'Completed', amount: '1234.50' });
    expect(events[3]!.bubbles && events[3]!.composed).to.equal(true);
    expect(liveRegion(el).textContent.trim()).to.equal('Pagamento confirmado');
    expect($(el, '[part="result"]')!.dataset.state).to.equal('Completed');
    // Nothing left to do but keep the receipt: its one button saves it.
    const buttons = [...el.shadowRoot!.querySelectorAll('button')].map((b) => b.getAttribute('part'));
    expect(buttons).to.deep.equal(['button secondary-button save-button']);
    await expect(el).to.be.accessible();
  });

  for (const [state, title] of [
    ['Error', 'O pagamento não foi concluído'],
    ['Cancelled', 'Pagamento cancelado'],
    ['Reversed', 'Pagamento estornado'],
  ] as const) {
    it(`shows the ${state} screen and fires pix-checkout-failed once`, async () => {
      const { el, events, checkoutId } = await awaitingPixCheckout();
      await setBackendState(checkoutId, state);
      await waitForText(el, title);
      const failed = events.filter((event) => event.type === 'pix-checkout-failed');
      expect(failed.map((event) => event.detail.state)).to.deep.equal([state]);
      expect(events.some((event) => event.type === 'pix-checkout-completed')).to.equal(false);
      expect(liveRegion(el).textContent.trim()).to.equal(title);
      await expect(el).to.be.accessible();
    });
  }

  it('starts a new checkout from the failed screen with "try again"', async () => {
    const { el, events, checkoutId } = await awaitingPixCheckout();
    await setBackendState(checkoutId, 'Cancelled');
    await waitForText(el, 'Pagamento cancelado');
    ($(el, '[part="result"] button') as HTMLButtonElement).click();
    await waitUntil(() => events.filter((event) => event.type === 'pix-checkout-created').length === 2);
    const second = events.filter((event) => event.type === 'pix-checkout-created')[1]!;
    expect(second.detail.checkoutId).not.to.equal(checkoutId);
    await waitForSelector(el, 'svg[part="qr"]');
  });

  it('puts the copy-and-paste code before the QR on touch devices', async () => {
    await asTouchDevice(async () => {
      const { el } = await awaitingPixCheckout();
      expect(blockOrder(el)).to.deep.equal(['copy', 'how', 'scan']);
      await expect(el).to.be.accessible();
    });
  });

  it('shows the QR first on devices with a fine pointer', async () => {
    const { el } = await awaitingPixCheckout();
    expect(blockOrder(el)).to.deep.equal(['scan', 'how', 'copy']);
  });

  describe('copy button', () => {
    it('says "copied" only after the clipboard write succeeded', async () => {
      const { el } = await awaitingPixCheckout();
      let finish!: () => void;
      const written: string[] = [];
      const restore = stubClipboard({
        writeText: (text: string) => {
          written.push(text);
          return new Promise<void>((resolve) => (finish = resolve));
        },
      });
      try {
        copyButton(el).click();
        await el.updateComplete;
        expect(copyButton(el).textContent.trim()).to.equal('Copiar código Pix');
        finish();
        await waitUntil(() => copyButton(el).textContent.trim() === 'Copiado');
        expect(written).to.deep.equal([codeField(el).textContent]);
        expect(liveRegion(el).textContent.trim()).to.equal('Código copiado. Agora abra o app do seu banco e cole em Pix Copia e Cola.');
        await expect(el).to.be.accessible();
      } finally {
        restore();
      }
    });

    it('falls back to selecting the text and execCommand("copy") without navigator.clipboard', async () => {
      const { el } = await awaitingPixCheckout();
      const restoreClipboard = stubClipboard(undefined);
      const exec = stubExecCommand(true);
      try {
        copyButton(el).focus();
        copyButton(el).click();
        await waitUntil(() => copyButton(el).textContent.trim() === 'Copiado');
        expect(exec.commands).to.deep.equal(['copy']);
        expect(el.shadowRoot!.querySelector('textarea'), 'the helper text area is gone').to.equal(null);
        expect(el.shadowRoot!.activeElement === copyButton(el), 'focus is back on the copy button').to.equal(true);
      } finally {
        restoreClipboard();
        exec.restore();
      }
    });

    it('says the copy failed and leaves the code selected when nothing works', async () => {
      const { el } = await awaitingPixCheckout();
      const restoreClipboard = stubClipboard({ writeText: () => Promise.reject(new DOMException('denied')) });
      const exec = stubExecCommand(false);
      try {
        copyButton(el).click();
        await waitForText(el, 'Não foi possível copiar');
        const field = codeField(el);
        await waitUntil(() => shadowSelection(el).trim() === field.textContent, `selected: "${shadowSelection(el)}"`);
        expect(field.classList.contains('expanded'), 'the whole code is shown').to.equal(true);
        expect(copyButton(el).textContent.trim()).to.equal('Copiar código Pix');
        expect(liveRegion(el).textContent).to.contain('Não foi possível copiar');
        await expect(el).to.be.accessible();
      } finally {
        restoreClipboard();
        exec.restore();
      }
    });

    it('treats a throwing execCommand as a failed copy', async () => {
      const { el } = await awaitingPixCheckout({ lang: 'en' });
      const restoreClipboard = stubClipboard(undefined);
      const exec = stubExecCommand(new Error('not allowed'));
      try {
        copyButton(el).click();
        await waitForText(el, 'Could not copy');
      } finally {
        restoreClipboard();
        exec.restore();
      }
    });
  });
});
