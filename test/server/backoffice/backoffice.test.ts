/**
 * The back-office's payments received, safe cash-outs and live updates, on the demo process (emulator + BFF) with a
 * clock the test moves: the list with its filters, cursor and flags, the CSV export, a checkout's timeline and
 * provider record, the refund of a duplicate payment, cash-outs under an Idempotency-Key (also a key left Sending by
 * a crash), the sandbox's cash-out controls, and the live event stream.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { WEBHOOK_HEADER } from '../../../server/bff/app';
import { sha256 } from '../../../server/payments/cashouts';
import { ManualClock } from '../../../server/lib/clock';
import { ADMIN_KEY_HEADER } from '../../../server/sandbox/company/routes/admin';
import { csvRecords, parseCsv, pointMicros, brazilianMicros } from '../helpers/csv';
import { openSse } from '../helpers/sse';
import { startTestServer, type TestServer } from '../helpers/server';

const TOKEN = 'admin-token-for-backoffice-tests-0123';
const MINUTE = 60_000;
const payer = { name: 'Maria Silva', taxNumber: '52998224725' };

let clock: ManualClock;
let server: TestServer;
beforeAll(async () => {
  clock = new ManualClock(new Date());
  // No approval in the way (the refused cash-out is R$ 999,999.00): approvals are approvals.test.ts's.
  server = await startTestServer({ env: { ADMIN_TOKEN: TOKEN, APPROVAL_ABOVE: '1000000.00' }, start: { clock } });
});
afterAll(() => server?.close());

const auth = { authorization: `Bearer ${TOKEN}` };
const admin = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
  server.json(method, `/api/admin${path}`, body, { ...auth, ...headers });
const sandboxAdmin = (path: string) => server.json('POST', `/sandbox/admin${path}`, {}, { [ADMIN_KEY_HEADER]: server.sandbox!.adminKey });
const stored = async (id: string) => (await server.store.getCheckout(id))!;
/** Waits until the BFF's store has the checkout in `state` (a webhook on its way); usable in hooks too. */
const settles = (id: string, state: string) =>
  vi.waitFor(async () => expect((await stored(id)).state).toBe(state), { timeout: 5_000, interval: 50 });

async function pixCheckout(order?: { orderId: string; orderToken: string }) {
  const { orderId, orderToken } = order ?? (await server.order());
  const res = await server.json('POST', '/api/checkouts', { orderId, orderToken, method: 'pix' });
  expect([200, 201]).toContain(res.status);
  return { orderId, orderToken, id: res.body.id as string, transactionId: res.body.transactionId as string };
}

/** One order paid on time, one paid twice: its new code, then its expired code, late (the duplicate). */
async function paidOnceAndTwice() {
  const once = await pixCheckout();
  await server.provider.sandbox.pix.complete(once.transactionId, payer);
  await settles(once.id, 'Completed');
  const first = await pixCheckout();
  clock.advance(31 * MINUTE);
  expect((await server.json('GET', `/api/checkouts/${first.id}`)).body.state).toBe('Expired');
  const renewed = await pixCheckout(first);
  await server.provider.sandbox.pix.complete(renewed.transactionId, payer);
  await settles(renewed.id, 'Completed');
  await server.provider.sandbox.pix.complete(first.transactionId, payer);
  await settles(first.id, 'Completed');
  return { once, late: first, renewed };
}

let paid: Awaited<ReturnType<typeof paidOnceAndTwice>>;

describe('payments received', () => {
  beforeAll(async () => {
    paid = await paidOnceAndTwice();
  });

  it('lists the checkouts newest first, with the late duplicate flagged', async () => {
    const res = await admin('GET', '/checkouts?limit=10');
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const byId = new Map(res.body.items.map((item: { id: string }) => [item.id, item]));
    expect(byId.get(paid.late.id)).toMatchObject({
      orderId: paid.late.orderId,
      state: 'Completed',
      amount: expect.stringMatching(/^\d+\.\d\d$/),
      duplicateOf: paid.renewed.id,
      late: true,
      refund: null,
      paidAt: expect.any(String),
    });
    expect(byId.get(paid.renewed.id)).toMatchObject({ duplicateOf: null, late: false });
    expect(byId.get(paid.once.id)).toMatchObject({ duplicateOf: null, late: false, state: 'Completed' });
    const created = res.body.items.map((item: { createdAt: string }) => item.createdAt);
    expect([...created].sort().reverse()).toEqual(created);
  });

  it('filters by state, method, order id, dates and flags, and pages by cursor', async () => {
    const flagged = await admin('GET', '/checkouts?flag=flagged');
    expect(flagged.body.items.map((i: { id: string }) => i.id)).toEqual([paid.late.id]);
    const order = await admin('GET', `/checkouts?orderId=${paid.late.orderId}`);
    expect(order.body.items.map((i: { id: string }) => i.id).sort()).toEqual([paid.late.id, paid.renewed.id].sort());
    expect((await admin('GET', '/checkouts?state=Expired,Error')).body.items).toEqual([]);
    expect((await admin('GET', '/checkouts?method=openfinance')).body.items).toEqual([]);
    const future = new Date(clock.now().getTime() + 10 * MINUTE).toISOString();
    expect((await admin('GET', `/checkouts?from=${encodeURIComponent(future)}`)).body.items).toEqual([]);

    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: { body: { items: { id: string }[]; nextCursor: string | null } } = await admin(
        'GET',
        `/checkouts?limit=10&state=Completed${cursor ? `&cursor=${cursor}` : ''}`,
      );
      seen.push(...page.body.items.map((i) => i.id));
      cursor = page.body.nextCursor;
    } while (cursor);
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen).toEqual(expect.arrayContaining([paid.once.id, paid.late.id, paid.renewed.id]));
  });

  it('refuses bad filters with 400 and the error envelope', async () => {
    for (const query of [
      'state=Paid',
      'method=card',
      'from=yesterday',
      'limit=7',
      'cursor=nope',
      'flag=odd',
      `orderId=${'x'.repeat(65)}`,
    ]) {
      const res = await admin('GET', `/checkouts?${query}`);
      expect(res.status, query).toBe(400);
      expect(res.body.statusCode).toBe('Error');
    }
    const backwards = await admin('GET', `/checkouts?from=2026-02-01T00:00:00Z&to=2026-01-01T00:00:00Z`);
    expect(backwards.status).toBe(400);
    expect((await server.json('GET', '/api/admin/checkouts')).status).toBe(401);
  });

  it('exports the filtered list as a streamed CSV, pt-BR by default, with the fee and net of the provider record', async () => {
    const res = await fetch(`${server.url}/api/admin/checkouts/export.csv?orderId=${paid.late.orderId}`, { headers: auth });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="pagamentos-\d{4}-\d\d-\d\d\.csv"$/);
    // The bytes, since Response.text() would drop the BOM.
    const bytes = Buffer.from(await res.arrayBuffer());
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const records = csvRecords(parseCsv(bytes.subarray(3).toString('utf8'), ';'));
    expect(records.map((r) => r['ID']).sort()).toEqual([paid.late.id, paid.renewed.id].sort());
    const late = records.find((r) => r['ID'] === paid.late.id)!;
    expect(late).toMatchObject({ 'Duplicata de': paid.renewed.id, 'Pago após o prazo': 'sim', Situação: 'Pago', Método: 'Pix' });
    // The fee is the charges of the provider's record (the emulator's billing plan), the net the amount less them.
    const { transaction } = await server.provider.transactions.retrieve(paid.late.transactionId);
    const charges = pointMicros(transaction.charges!);
    expect(charges).toBeGreaterThan(0n);
    expect(brazilianMicros(late['Tarifa']!)).toBe(charges);
    expect(brazilianMicros(late['Valor líquido']!)).toBe(brazilianMicros(late['Valor']!) - charges);

    const iso = await fetch(`${server.url}/api/admin/checkouts/export.csv?orderId=${paid.late.orderId}&format=csv-iso`, { headers: auth });
    expect(iso.status).toBe(200);
    const isoRecords = csvRecords(parseCsv(await iso.text(), ','));
    expect(isoRecords.find((r) => r['id'] === paid.late.id)).toMatchObject({
      duplicateOf: paid.renewed.id,
      late: 'true',
      state: 'Completed',
      fee: late['Tarifa']!.replace(',', '.').padEnd(transaction.charges!.length, '0'),
    });

    const bad = await admin('GET', '/checkouts/export.csv?format=xlsx');
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ statusCode: 'Error', error: { code: 'invalid_request' } });
  });

  it("shows the provider's fee and the net amount of a paid checkout", async () => {
    const res = await admin('GET', `/checkouts/${paid.once.id}`);
    const { transaction } = await server.provider.transactions.retrieve(paid.once.transactionId);
    const charges = pointMicros(transaction.charges!);
    expect(pointMicros(res.body.checkout.fee)).toBe(charges);
    expect(pointMicros(res.body.checkout.net)).toBe(pointMicros(res.body.checkout.amount) - charges);
  });

  it("shows a checkout's timeline, webhooks and order, and re-reads the provider's record without its secret", async () => {
    const detail = await admin('GET', `/checkouts/${paid.late.id}`);
    expect(detail.status).toBe(200);
    expect(detail.body.events.map((e: { state: string; source: string }) => `${e.state}/${e.source}`)).toEqual([
      'Registered/create',
      'Expired/read',
      'Completed/webhook',
    ]);
    expect(detail.body.events[2].data).toMatchObject({ late: true, duplicateOf: paid.renewed.id });
    expect(detail.body.webhooks).toMatchObject({ lastWebhookAt: expect.any(String), applied: [{ seq: 3, state: 'Completed' }] });
    expect(detail.body.webhooks.received).toContainEqual({ receivedAt: expect.any(String), state: 'Completed', outcome: 'applied' });

    // The provider delivers the same webhook again: it is listed too, as changing nothing.
    const again = await server.json(
      'POST',
      '/api/webhooks/provider',
      {
        id: paid.late.transactionId,
        transactionState: 'Completed',
        transactionDate: clock.now().toISOString(),
        transactionAmount: '79.800000',
        transactionType: 'Credit',
        transactionPaymentType: 'PIX',
      },
      { [WEBHOOK_HEADER]: server.config.webhookSecret },
    );
    expect(again).toMatchObject({ status: 200, body: { data: { outcome: 'ignored' } } });
    await vi.waitFor(async () =>
      expect((await admin('GET', `/checkouts/${paid.late.id}`)).body.webhooks.received.at(-1)).toEqual({
        receivedAt: expect.any(String),
        state: 'Completed',
        outcome: 'ignored',
      }),
    );
    const other = (await admin('GET', `/checkouts/${paid.once.id}`)).body.webhooks.received;
    expect(other.map((w: { outcome: string }) => w.outcome)).toContain('applied');
    expect(detail.body.order).toEqual([expect.objectContaining({ id: paid.renewed.id, state: 'Completed' })]);

    const record = await admin('GET', `/checkouts/${paid.late.id}/provider`);
    expect(record.status).toBe(200);
    expect(record.body.record.transaction).toMatchObject({ id: paid.late.transactionId, state: 'Completed' });
    expect(record.body.record.webhook.customHeaderValue).toBe('********');
    expect(JSON.stringify(record.body)).not.toContain(server.config.webhookSecret);
    expect((await admin('GET', '/checkouts/co_nope')).status).toBe(404);
    expect((await admin('GET', `/checkouts/${'x'.repeat(300)}/provider`)).status).toBe(404);
  });

  it('refunds the duplicate once, after a preview, by a PIX cash-out to its payer linked to the checkout', async () => {
    const refusedHere = await admin('GET', `/checkouts/${paid.once.id}/refund`);
    expect(refusedHere).toMatchObject({ status: 409, body: { error: { code: 'not_a_duplicate_payment' } } });

    const preview = await admin('GET', `/checkouts/${paid.late.id}/refund`);
    expect(preview.status).toBe(200);
    expect(preview.body).toMatchObject({
      recipient: { name: payer.name, cpf: '***.982.247-**' },
      key: { type: 'CPF', value: '***.982.247-**' },
      amount: expect.stringMatching(/^\d+\.\d\d$/),
      charges: expect.stringMatching(/^\d+\.\d{6}$/),
    });

    expect((await admin('POST', `/checkouts/${paid.late.id}/refund`, {})).body.error.code).toBe('idempotency_key_required');
    const key = randomUUID();
    const [a, b] = await Promise.all([
      admin('POST', `/checkouts/${paid.late.id}/refund`, {}, { 'idempotency-key': key }),
      admin('POST', `/checkouts/${paid.late.id}/refund`, {}, { 'idempotency-key': key }),
    ]);
    expect([a.status, b.status].sort()).toEqual([200, 201]);
    expect(a.body.transactionId).toBe(b.body.transactionId);
    expect(a.body).toMatchObject({ refundOf: paid.late.id, amount: preview.body.amount, key: { type: 'CPF' } });

    const another = await admin('POST', `/checkouts/${paid.late.id}/refund`, {}, { 'idempotency-key': randomUUID() });
    expect(another).toMatchObject({
      status: 409,
      body: { error: { code: 'refund_exists', details: { refund: { transactionId: a.body.transactionId } } } },
    });

    const row = (await admin('GET', `/checkouts?orderId=${paid.late.orderId}`)).body.items.find(
      (i: { id: string }) => i.id === paid.late.id,
    );
    expect(row.refund).toMatchObject({ transactionId: a.body.transactionId });
    const record = await server.provider.transactions.retrieve(a.body.transactionId);
    expect(record.transaction).toMatchObject({ type: 'Debit', amount: `${preview.body.amount}0000` });
    expect(record.payment.key).toBe(payer.taxNumber);
  });
});

describe('cash-outs', () => {
  const body = (amount = '10.00') => ({
    recipient: { name: 'João', cpf: '529.982.247-25' },
    key: { type: 'EMAIL', value: 'joao@example.com' },
    amount,
  });

  it('needs an Idempotency-Key, and one key makes one cash-out however often and however fast it is sent', async () => {
    expect((await admin('POST', '/cashouts', body())).body.error.code).toBe('idempotency_key_required');
    expect((await admin('POST', '/cashouts', body(), { 'idempotency-key': 'short' })).body.error.code).toBe('idempotency_key_invalid');
    const key = randomUUID();
    const answers = await Promise.all(Array.from({ length: 5 }, () => admin('POST', '/cashouts', body(), { 'idempotency-key': key })));
    expect(answers.map((a) => a.status).sort()).toEqual([200, 200, 200, 200, 201]);
    expect(new Set(answers.map((a) => a.body.transactionId)).size).toBe(1);
    expect(answers[0]!.body).toMatchObject({ idempotencyKey: key, amount: '10.00', recipient: { name: 'João', cpf: '***.982.247-**' } });
    const day = clock.now().toISOString().slice(0, 10);
    const atProvider = await admin('GET', `/transactions?orderId=${answers[0]!.body.orderId}&date=${day}`);
    expect(atProvider.body.items).toHaveLength(1);

    const reused = await admin('POST', '/cashouts', body('11.00'), { 'idempotency-key': key });
    expect(reused).toMatchObject({ status: 422, body: { error: { code: 'idempotency_key_reused' } } });
  });

  it('frees the key when the provider refuses, so the same key may try again', async () => {
    const key = randomUUID();
    const refused = await admin('POST', '/cashouts', body('999999.00'), { 'idempotency-key': key });
    expect(refused).toMatchObject({ status: 409, body: { error: { code: 'InsufficientBalance' } } });
    expect(await server.store.getCashOut(key)).toBeUndefined();
  });

  it('settles a key a crash left Sending: adopts what the provider made, or sends when it made nothing', async () => {
    const made = randomUUID();
    const orderId = `payout-${sha256(made).slice(0, 20)}`;
    const reserve = (key: string, order: string) =>
      server.store.reserveCashOut({
        idempotencyKey: key,
        fingerprint: sha256(JSON.stringify(['João', '52998224725', 'EMAIL', 'joao@example.com', '1000', null, null, null])),
        orderId: order,
        amountCents: 1000,
        recipientName: 'João',
        recipientCpf: '52998224725',
        keyType: 'EMAIL',
        keyValue: 'joao@example.com',
        createdAt: clock.now().toISOString(),
      });
    await reserve(made, orderId);
    const atProvider = await server.provider.pix.createCashOut({
      payment: { recipient: { name: 'João', cpf: '52998224725' }, key: { type: 'EMAIL', value: 'joao@example.com' }, value: '10.00' },
      transaction: { orderId },
      webhook: { url: `${server.url}/api/webhooks/provider` },
    });
    const lost = randomUUID();
    await reserve(lost, `payout-${sha256(lost).slice(0, 20)}`);
    clock.advance(MINUTE);

    const adopted = await admin('POST', '/cashouts', body(), { 'idempotency-key': made });
    expect(adopted).toMatchObject({ status: 200, body: { transactionId: atProvider.transaction.id } });
    const sent = await admin('POST', '/cashouts', body(), { 'idempotency-key': lost });
    expect(sent.status).toBe(201);
    expect(sent.body.transactionId).toMatch(/\w+/);
  });

  it('lists recent cash-outs with the states the provider reports, moved by the sandbox controls', async () => {
    const key = randomUUID();
    const made = (await admin('POST', '/cashouts', body('3.00'), { 'idempotency-key': key })).body;
    const complete = await sandboxAdmin(`/cashouts/${made.transactionId}/complete`);
    expect(complete).toMatchObject({ status: 200, body: { data: { transactionState: 'Completed' } } });
    expect((await sandboxAdmin(`/cashouts/${made.transactionId}/error`)).status).toBe(409);
    const list = await admin('GET', '/cashouts?limit=50');
    expect(list.body.items.find((c: { idempotencyKey: string }) => c.idempotencyKey === key)).toMatchObject({
      state: 'Completed',
      charges: expect.stringMatching(/^\d+\.\d{6}$/),
    });

    const other = (await admin('POST', '/cashouts', body('2.00'), { 'idempotency-key': randomUUID() })).body;
    expect((await sandboxAdmin(`/cashouts/${other.transactionId}/cancel`)).body.data.transactionState).toBe('Cancelled');
    expect((await sandboxAdmin(`/cashouts/${paid.once.transactionId}/complete`)).status).toBe(404);
    const noKey = await server.json('POST', `/sandbox/admin/cashouts/${other.transactionId}/complete`, {});
    expect(noKey.status).toBe(401);
  });

  it('quotes the charges of an amount from the plan the provider applied', async () => {
    const quote = await admin('GET', '/cashouts/quote?amount=100.00');
    // The sandbox plan: R$ 0.50 plus 0.99 %.
    expect(quote.body).toEqual({ amount: '100.00', charges: '1.490000' });
    expect((await admin('GET', '/cashouts/quote?amount=1.005')).status).toBe(400);
  });
});

describe('live updates', () => {
  it('tells an open stream of each checkout and cash-out change, and needs the admin token', async () => {
    expect((await server.json('GET', '/api/admin/events')).status).toBe(401);
    const sse = await openSse(`${server.url}/api/admin/events`, auth);
    expect(sse.status).toBe(200);
    expect(sse.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    // Changes made by earlier tests may still be on their way: wait for this test's own, by topic and id.
    const next = async (topic: string, id: string) => {
      for (;;) {
        const event = await sse.next(5_000);
        if (!event) throw new Error(`stream ended before the ${topic} ${id}`);
        if (event.event === topic && (JSON.parse(event.data) as { id: string }).id === id) return;
      }
    };
    const checkout = await pixCheckout();
    await next('checkout', checkout.id);
    const key = randomUUID();
    await admin(
      'POST',
      '/cashouts',
      { recipient: { name: 'Ana', cpf: '52998224725' }, key: { type: 'CPF', value: '52998224725' }, amount: '1.00' },
      {
        'idempotency-key': key,
      },
    );
    await next('cashout', key);
    sse.close();
  });
});
