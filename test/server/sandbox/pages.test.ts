import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { call, cashIn, client, initiation, makeSandbox, startReceiver, type Api } from './helpers';

let receiver: Awaited<ReturnType<typeof startReceiver>>;
beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(() => receiver.close());

let made: ReturnType<typeof makeSandbox>;
let api: Api;
async function fresh() {
  made = makeSandbox();
  api = await client(made.sandbox);
  receiver.received.length = 0;
  receiver.answer(200);
}
afterEach(() => made.sandbox.close());

/** The in-app path of a public address handed out by the emulator. */
const local = (url: string) => new URL(url).pathname.replace(/^\/sandbox/, '');
const form = (decision: string) => ({ 'content-type': 'application/x-www-form-urlencoded', body: `decision=${decision}` });
const submit = (url: string, decision: string) =>
  made.sandbox.app.request(local(url), {
    method: 'POST',
    headers: { 'content-type': form(decision)['content-type'] },
    body: form(decision).body,
  });

describe('QR image and receipt', () => {
  it('serves the QR code of a cash-in as SVG at qrCodeLocation', async () => {
    await fresh();
    const { payment } = (await api('POST', '/accounts/pix/cashin', cashIn(receiver.url))).body.data;
    const image = await call(made.sandbox, 'GET', local(payment.qrCodeLocation));
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toMatch(/^image\/svg\+xml/);
    expect(image.text).toMatch(/^<svg[^>]+xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
  });

  it('serves a PDF receipt once the transaction is Completed, and 404 before', async () => {
    await fresh();
    const id = (await api('POST', '/accounts/pix/cashin', cashIn(receiver.url))).body.data.transaction.id;
    const path = `/v1/system/e-receipt/${id}/receipt.pdf`;
    expect((await call(made.sandbox, 'GET', path)).status).toBe(404);
    await api('POST', `/sandbox/transactions/complete/${id}`);
    const rec = (await api('GET', `/accounts/transactions/pix/${id}`)).body.data.transaction;
    expect(local(rec.receiptUrl)).toBe(path);
    const pdf = await made.sandbox.app.request(path);
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    const text = Buffer.from(await pdf.arrayBuffer()).toString('latin1');
    expect(text.startsWith('%PDF-1.4')).toBe(true);
    expect(text.trimEnd().endsWith('%%EOF')).toBe(true);
    // core/money's pt-BR display: a no-break space (Latin-1 0xA0, a space in WinAnsi) after the symbol.
    expect(text).toContain('R$\u00a010,50');
    expect(text).toContain(rec.receiptVoucher);
    const xref = Number(/startxref\n(\d+)/.exec(text)![1]);
    expect(text.slice(xref, xref + 4)).toBe('xref');
  });
});

describe('OpenFinance bank page', () => {
  async function initiate(redirectUrl = 'http://shop.example/return?order=1') {
    const { data } = (await api('POST', '/accounts/payment-initiation', initiation(receiver.url, redirectUrl))).body;
    return data as { transactionId: string; checkoutUrl: string };
  }

  it('shows merchant, amount in pt-BR and the masked CPF, with two buttons and no script', async () => {
    await fresh();
    const { checkoutUrl } = await initiate();
    const page = await call(made.sandbox, 'GET', local(checkoutUrl));
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.text).toContain('<html lang="pt-BR">');
    expect(page.text).toContain('Loja Sandbox');
    expect(page.text).toContain('R$\u00a01.234,56');
    expect(page.text).toContain('***.982.247-**');
    expect(page.text).not.toContain('52998224725');
    expect(page.text).toMatch(/<form method="post">[\s\S]*>Aprovar pagamento<\/button>[\s\S]*>Recusar pagamento<\/button>/);
    expect(page.text).not.toMatch(/<script|\son\w+=|style="/i);
    const csp = page.headers.get('content-security-policy')!;
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("form-action 'self' http://shop.example");
    expect(csp).not.toContain('unsafe-inline');
    const css = await call(made.sandbox, 'GET', new URL('../../style.css', `http://x${local(checkoutUrl)}`).pathname);
    expect(css.status).toBe(200);
    expect(css.headers.get('content-type')).toMatch(/^text\/css/);
  });

  it('approving completes the transaction, sends the webhook and redirects 303 to redirectUrl', async () => {
    await fresh();
    const { transactionId, checkoutUrl } = await initiate();
    const response = await submit(checkoutUrl, 'approve');
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe('http://shop.example/return?order=1');
    const rec = (await api('GET', `/accounts/transactions/pix/${transactionId}`)).body.data;
    expect(rec.transaction).toMatchObject({ state: 'Completed', payer: { taxNumber: '52998224725', bankCode: '999' } });
    expect(rec.webhook.deliveryStatus).toBe('Success');
    expect(receiver.received.map((r) => r.body.transactionState)).toEqual(['Completed']);

    const again = await call(made.sandbox, 'GET', local(checkoutUrl));
    expect(again.text).toContain('já foi aprovado');
    expect(again.text).toContain('href="http://shop.example/return?order=1"');
    expect(again.text).not.toContain('Aprovar pagamento');
    expect((await submit(checkoutUrl, 'fail')).status).toBe(409);
    expect((await api('GET', `/accounts/transactions/pix/${transactionId}`)).body.data.transaction.state).toBe('Completed');
  });

  it('refusing ends in Error with PaymentProcessingError', async () => {
    await fresh();
    const { transactionId, checkoutUrl } = await initiate();
    expect((await submit(checkoutUrl, 'fail')).status).toBe(303);
    expect((await api('GET', `/accounts/transactions/pix/${transactionId}`)).body.data.transaction).toMatchObject({
      state: 'Error',
      stateErrorCause: 'PaymentProcessingError',
    });
  });

  it('still completes and redirects when the webhook fails, retrying it in the background', async () => {
    await fresh();
    receiver.answer(500);
    const { transactionId, checkoutUrl } = await initiate();
    expect((await submit(checkoutUrl, 'approve')).status).toBe(303);
    const rec = (await api('GET', `/accounts/transactions/pix/${transactionId}`)).body.data;
    expect(rec.transaction.state).toBe('Completed');
    expect(rec.webhook.deliveryStatus).toBe('Failed');
    receiver.answer(200);
  });

  it('answers 404 for a wrong uuid and 400 for an unknown decision', async () => {
    await fresh();
    const { checkoutUrl, transactionId } = await initiate();
    const wrong = checkoutUrl.replace(/init\/[^/]+/, 'init/00000000-0000-4000-8000-000000000000');
    expect((await call(made.sandbox, 'GET', local(wrong))).status).toBe(404);
    expect((await submit(checkoutUrl, 'maybe')).status).toBe(400);
    expect((await api('GET', `/accounts/transactions/pix/${transactionId}`)).body.data.transaction.state).toBe('Registered');
  });
});
