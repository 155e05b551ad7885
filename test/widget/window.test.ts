// Point 1, the payment window: a countdown from expiresAt, spoken only at 10, 5 and 1 minute left, an Expired screen
// with "Gerar novo código" (a new checkout for the same order), and a late payment that still ends on the receipt.
import { expect, waitUntil } from '@open-wc/testing';
import { formatRemaining, minutesToAnnounce } from '../../widget/countdown.js';
import type { PixCheckout } from '../../widget/index.js';
import {
  $,
  backendLog,
  createRequests,
  eventNames,
  liveRegion,
  mountCheckout,
  newOrderId,
  setBackendState,
  sleep,
  visibleText,
  waitForSelector,
  waitForText,
} from './helpers.js';

/** A PIX checkout on screen, waiting for payment. */
async function awaitingPix(attributes: Record<string, string | boolean> = {}, scenario = 'order') {
  const mounted = await mountCheckout({ endpoint: '/api', 'order-id': newOrderId(scenario), ...attributes });
  await waitForSelector(mounted.el, '#pix-code');
  return { ...mounted, checkoutId: mounted.events[0]!.detail.checkoutId as string };
}

const countdownText = (el: PixCheckout) => $(el, '[part="countdown"]')?.textContent.replace(/\s+/g, ' ').trim() ?? '';
const inMs = (ms: number) => new Date(Date.now() + ms).toISOString();
const buttonNamed = (el: PixCheckout, name: string) =>
  [...el.shadowRoot!.querySelectorAll<HTMLElement>('button, a')].find((button) => button.textContent.trim() === name);

/** Every text the live region held, in order, while `body` ran. */
async function spoken(el: PixCheckout, body: () => Promise<void>): Promise<string[]> {
  const said: string[] = [];
  const observer = new MutationObserver(() => said.push(liveRegion(el).textContent.trim()));
  observer.observe(liveRegion(el), { childList: true, characterData: true, subtree: true });
  try {
    await body();
  } finally {
    observer.disconnect();
  }
  return said.filter(Boolean);
}

describe('<pix-checkout> payment window', () => {
  afterEach(() => sessionStorage.clear());

  it('formats what is left as mm:ss, or h:mm:ss past an hour, rounding seconds up', () => {
    expect([29 * 60_000 + 41_000, 59_001, 1_000, 0, -5_000, 3_725_000].map(formatRemaining)).to.deep.equal([
      '29:41',
      '01:00',
      '00:01',
      '00:00',
      '00:00',
      '1:02:05',
    ]);
  });

  it('speaks at 10, 5 and 1 minute left only, once per step, and what is left after a sleeping tab', () => {
    expect(minutesToAnnounce(600_500, 599_500)).to.equal(10);
    expect(minutesToAnnounce(599_500, 598_500)).to.equal(undefined);
    expect(minutesToAnnounce(300_100, 299_900)).to.equal(5);
    expect(minutesToAnnounce(60_400, 59_400)).to.equal(1);
    expect(minutesToAnnounce(30_000, 29_000)).to.equal(undefined);
    expect(minutesToAnnounce(11 * 60_000, 4 * 60_000 + 10_000)).to.equal(5);
  });

  it('shows "Pague em até 29 min 5x s (até hh:mm)" from expiresAt and ticks every second, in an accessible timer', async () => {
    const { el } = await awaitingPix();
    expect(countdownText(el)).to.match(/^Pague em até (29 min 5\d s|30 min 00 s) \(até \d\d:\d\d\)$/);
    const before = countdownText(el);
    await waitUntil(() => countdownText(el) !== before, 'the clock ticks', { timeout: 2500 });
    expect($(el, '[part="countdown"] [role="timer"]')).to.exist;
    await expect(el).to.be.accessible();
  });

  it('counts by the server clock when the browser clock is wrong', async () => {
    // The fake server runs 10 minutes ahead: read by the browser's clock, the window would look 40 minutes long.
    const { el } = await awaitingPix({}, 'skew');
    // The Date header has whole seconds: within one of the truth.
    expect(countdownText(el)).to.match(/^Pague em até (29 min 5\d s|30 min 0[01] s) \(até \d\d:\d\d\)$/);
  });

  it('announces the last minute once in the live region, not every second', async () => {
    const { el, checkoutId } = await awaitingPix();
    const said = await spoken(el, async () => {
      await setBackendState(checkoutId, 'Registered', { expiresAt: inMs(61_500) });
      await waitUntil(() => liveRegion(el).textContent.includes('Falta 1 minuto'), 'the last minute is announced', { timeout: 4000 });
      await sleep(2200);
    });
    expect(said).to.deep.equal(['Falta 1 minuto para pagar.']);
    expect($(el, '[part="countdown"]')!.classList.contains('urgent')).to.equal(true);
  });

  it('shows the Expired screen when the clock runs out, before the server says so', async () => {
    const { el, events, checkoutId } = await awaitingPix({ lang: 'en' });
    await setBackendState(checkoutId, 'Registered', { expiresAt: inMs(1200) });
    await waitForText(el, 'Code expired');
    expect($(el, '[part="result"]')!.dataset.state).to.equal('Expired');
    expect($(el, '#pix-code'), 'the old code is gone').to.equal(null);
    expect(liveRegion(el).textContent.trim()).to.equal('Code expired');
    expect(buttonNamed(el, 'Create a new code')).to.exist;
    expect(visibleText(el)).to.contain('Already paid? Stay on this page');
    expect(eventNames(events).filter((name) => name === 'pix-checkout-failed')).to.deep.equal([]);
    await expect(el).to.be.accessible();
  });

  it('follows the server saying Expired, keeps listening, and shows the receipt of a late payment', async () => {
    const { el, events, checkoutId } = await awaitingPix();
    await setBackendState(checkoutId, 'Expired');
    await waitForText(el, 'Código expirado');
    expect(events.at(-1)!.detail.state).to.equal('Expired');
    await setBackendState(checkoutId, 'Completed');
    await waitForText(el, 'Pagamento confirmado');
    expect(eventNames(events).slice(-2)).to.deep.equal(['pix-checkout-status', 'pix-checkout-completed']);
  });

  it('makes a new code for the same order with "Gerar novo código"', async () => {
    const { el, events, checkoutId } = await awaitingPix();
    const oldCode = $(el, '#pix-code')!.textContent;
    await setBackendState(checkoutId, 'Expired');
    await waitForText(el, 'Código expirado');
    buttonNamed(el, 'Gerar novo código')!.click();
    await waitUntil(() => events.filter((event) => event.type === 'pix-checkout-created').length === 2, 'a second checkout');
    await waitForSelector(el, '#pix-code');
    expect($(el, '#pix-code')!.textContent).not.to.equal(oldCode);
    expect(countdownText(el)).to.match(/^Pague em até (29 min 5\d s|30 min 00 s) \(até \d\d:\d\d\)$/);
    const orderId = el.orderId;
    expect((await createRequests(orderId)).map((body) => body.method)).to.deep.equal(['pix', 'pix']);
  });

  it('shows the receipt when the expired code is paid late, even after a new code was made', async () => {
    const { el, events, checkoutId } = await awaitingPix();
    await setBackendState(checkoutId, 'Expired');
    await waitForText(el, 'Código expirado');
    buttonNamed(el, 'Gerar novo código')!.click();
    await waitUntil(() => events.filter((event) => event.type === 'pix-checkout-created').length === 2, 'a second checkout');
    await waitForSelector(el, '#pix-code');
    await setBackendState(checkoutId, 'Completed', { paidAt: '2025-03-12T17:32:00Z' });
    await waitForText(el, 'Pagamento confirmado');
    const completed = events.filter((event) => event.type === 'pix-checkout-completed');
    expect(completed.map((event) => event.detail.checkoutId)).to.deep.equal([checkoutId]);
    // The new checkout's stream is closed: the receipt stays whatever happens to it.
    const newId = events.filter((event) => event.type === 'pix-checkout-created')[1]!.detail.checkoutId as string;
    await setBackendState(newId, 'Error');
    await sleep(300);
    expect(visibleText(el)).to.contain('Pagamento confirmado');
    expect((await backendLog(el.orderId)).posts).to.equal(2);
  });

  it('keeps the receipt of a late payment after a reload, though the order has a newer live code', async () => {
    const { el, events, checkoutId } = await awaitingPix();
    const orderId = el.orderId;
    await setBackendState(checkoutId, 'Expired');
    await waitForText(el, 'Código expirado');
    buttonNamed(el, 'Gerar novo código')!.click();
    await waitUntil(() => events.filter((event) => event.type === 'pix-checkout-created').length === 2, 'a second checkout');
    await setBackendState(checkoutId, 'Completed');
    await waitForText(el, 'Pagamento confirmado');
    el.remove();
    const reloaded = await mountCheckout({ endpoint: '/api', 'order-id': orderId });
    await waitForText(reloaded.el, 'Pagamento confirmado');
    expect(reloaded.events[0]!.detail.checkoutId).to.equal(checkoutId);
  });

  it('offers another method from the Expired screen when the page offers more than one', async () => {
    const { el, events } = await mountCheckout({ endpoint: '/api', 'order-id': newOrderId(), methods: 'pix openfinance' });
    (await waitForSelector(el, '[data-method="pix"]')).click();
    await waitForSelector(el, '#pix-code');
    await setBackendState(events[0]!.detail.checkoutId, 'Expired');
    await waitForText(el, 'Código expirado');
    buttonNamed(el, 'Escolher outra forma de pagamento')!.click();
    await waitForSelector(el, 'fieldset[part="chooser"]');
  });
});
