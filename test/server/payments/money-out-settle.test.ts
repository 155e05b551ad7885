/**
 * Money out a crash left unknown is settled by the reconciler, with nobody asking for its key again (the demo
 * process: emulator + BFF, a clock the test moves, the reconciler run by hand): a refund or cash-out left `Sending`
 * past the settle window is adopted with its merchant events when the provider made it (straight into its final
 * state when the provider's is final), or released when it made nothing (a refund's amount is refundable again);
 * an adopted one whose webhook was lost is re-read until its final event; each event is written once however many
 * passes run. While a refund of a checkout is unknown, a new refund of it is refused (409 `refund_in_progress`), and
 * the same key coming back after the settlement answers the one cash-out the provider made.
 */
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatCents, parseCents } from '../../../core/money';
import { sha256 } from '../../../server/payments/cashouts';
import { refundFingerprint } from '../../../server/payments/refunds';
import { PAYER, startMovementServer } from '../backoffice/movements';

const TOKEN = 'admin-token-for-money-out-settle-0123';
const MINUTE = 60_000;

let t: Awaited<ReturnType<typeof startMovementServer>>;
/** Where the provider's webhooks of the crashed calls go: a receiver that acknowledges them and tells nobody (lost). */
let lostWebhook: { url: string };
let sink: Server;
beforeAll(async () => {
  t = await startMovementServer(TOKEN, { APPROVAL_ABOVE: '100000.00' });
  sink = createServer((_, res) => res.writeHead(200).end()).listen(0, '127.0.0.1');
  await once(sink, 'listening');
  lostWebhook = { url: `http://127.0.0.1:${(sink.address() as AddressInfo).port}/hooks` };
});
afterAll(async () => {
  sink?.close();
  await t?.server.close();
});

const pass = () => t.server.checkout.reconciler.runOnce();
const eventsOf = async (key: string) =>
  (await t.server.store.merchantEventsAfter(0, 10_000)).filter((e) => e.data.idempotencyKey === key).map((e) => e.type);

/**
 * What a crash between the reservation and the answer leaves: the key `Sending` in the store under the order id the
 * desk chose, and (when `made`) the cash-out at the provider, its webhook lost.
 */
async function crashed(
  kind: 'refund' | 'payout',
  { amountCents, refundOf, made }: { amountCents: number; refundOf?: string; made: boolean },
) {
  const key = randomUUID();
  const orderId = `${kind}-${sha256(key).slice(0, 20)}`;
  const recipient = { name: PAYER.name, cpf: PAYER.taxNumber };
  const reserved = await t.server.store.reserveCashOut({
    idempotencyKey: key,
    fingerprint: refundOf ? refundFingerprint(refundOf, amountCents) : sha256(key),
    orderId,
    amountCents,
    recipientName: recipient.name,
    recipientCpf: recipient.cpf,
    keyType: 'CPF',
    keyValue: recipient.cpf,
    refundOf: refundOf ?? null,
    createdAt: t.clock.now().toISOString(),
  });
  expect(reserved.outcome).toBe('created');
  const transactionId = made
    ? (
        await t.server.provider.pix.createCashOut({
          payment: { recipient, key: { type: 'CPF', value: recipient.cpf }, value: formatCents(amountCents) },
          transaction: { orderId },
          webhook: lostWebhook,
        })
      ).transaction.id
    : undefined;
  return { key, orderId, transactionId };
}

describe('money out a crash left Sending', () => {
  it('is adopted or released by the reconciler past the settle window, and a new refund waits for it meanwhile', async () => {
    const [paid, other] = [await t.paidCheckout(), await t.paidCheckout()];
    const refundsOf = (id: string) => t.admin('GET', `/checkouts/${id}/refunds`);
    const made = await crashed('refund', { amountCents: 100, refundOf: paid.id, made: true });
    const lost = await crashed('refund', { amountCents: 200, refundOf: other.id, made: false });

    // Unknown: whether R$ 1,00 and R$ 2,00 left is not known, so no new refund of either checkout is made.
    for (const { id } of [paid, other]) {
      const refused = await t.admin('POST', `/checkouts/${id}/refunds`, { amount: '1.00' }, { 'idempotency-key': randomUUID() });
      expect(refused).toMatchObject({ status: 409, body: { error: { code: 'refund_in_progress' } } });
      expect((await refundsOf(id)).body).toMatchObject({ reason: 'refund_in_progress', recipient: null });
    }

    // Within the window a request may still be on its way to the provider: nothing is settled yet.
    await pass();
    expect((await t.server.store.getCashOut(lost.key))!.state).toBe('Sending');

    t.clock.advance(MINUTE);
    await pass();
    expect(await t.server.store.getCashOut(made.key)).toMatchObject({ state: 'Created', transactionId: made.transactionId });
    expect(await t.server.store.getCashOut(lost.key)).toBeUndefined();
    expect(await eventsOf(made.key)).toEqual(['refund.created']);
    expect((await refundsOf(paid.id)).body).toMatchObject({ refundable: formatCents(parseCents(paid.amount)! - 100) });
    expect((await refundsOf(other.id)).body).toMatchObject({ refundable: other.amount, refunded: '0.00' });

    // Its webhook was lost: the reconciler re-reads it once it is quiet for the window, and tells its end once.
    expect((await t.sandboxAdmin(`/cashouts/${made.transactionId}/complete`)).status).toBe(200);
    t.clock.advance(MINUTE);
    await pass();
    t.clock.advance(5 * MINUTE);
    await pass();
    expect(await t.server.store.getCashOut(made.key)).toMatchObject({ state: 'Completed' });
    expect(await eventsOf(made.key)).toEqual(['refund.created', 'refund.completed']);

    // The key coming back answers the one the provider made; the released key is a request made now, once.
    const again = await t.admin('POST', `/checkouts/${paid.id}/refunds`, { amount: '1.00' }, { 'idempotency-key': made.key });
    expect(again).toMatchObject({ status: 200, body: { transactionId: made.transactionId, state: 'Completed' } });
    const sent = await t.admin('POST', `/checkouts/${other.id}/refunds`, { amount: '2.00' }, { 'idempotency-key': lost.key });
    expect(sent.status).toBe(201);
    for (const { orderId } of [made, lost]) expect(await t.atProvider(orderId)).toHaveLength(1);
  });

  it('adopts a cash-out the provider already ended straight into its end, with one event, however many passes run', async () => {
    const done = await crashed('payout', { amountCents: 300, made: true });
    const gone = await crashed('payout', { amountCents: 400, made: false });
    expect((await t.sandboxAdmin(`/cashouts/${done.transactionId}/complete`)).status).toBe(200);
    t.clock.advance(MINUTE);
    await Promise.all([pass(), pass()]);
    await pass();
    expect(await t.server.store.getCashOut(done.key)).toMatchObject({ state: 'Completed', transactionId: done.transactionId });
    expect(await t.server.store.getCashOut(gone.key)).toBeUndefined();
    expect(await eventsOf(done.key)).toEqual(['cashout.completed']);
    expect(await eventsOf(gone.key)).toEqual([]);
    expect(await t.atProvider(gone.orderId)).toEqual([]);
  });
});
