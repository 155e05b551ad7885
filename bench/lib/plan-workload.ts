/**
 * One walk through everything the product does with its store, for the query plans (./query-plans.ts): shoppers
 * create Pix and OpenFinance checkouts (and repeat them), read their status, look their order up and follow the
 * stream; the provider's webhooks complete one; the merchant's events are delivered; the reconciler runs a pass that
 * expires one and re-reads the rest; the console lists, filters, pages, opens, refunds and exports, and reads the
 * audit trail and the events. Runs against a server of test/server/helpers/server.ts with ADMIN_TOKEN set.
 */
import type { ManualClock } from '../../server/lib/clock';
import type { TestServer } from '../../test/server/helpers/server';

export const WORKLOAD_ADMIN_TOKEN = 'admin-token-of-the-query-plan-walk-0123456789';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(what: string, check: () => Promise<boolean>) {
  for (let i = 0; i < 200; i++) {
    if (await check()) return;
    await sleep(25);
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** The few fields of the answers the walk reads. */
interface Answer {
  id: string;
  state: string;
  transactionId: string;
  createdAt: string;
  items: Answer[];
  deliveries: { state: string }[];
}

export async function storeWorkload(server: TestServer, clock: ManualClock): Promise<void> {
  const admin = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
    server.json(method, `/api/admin${path}`, body, { authorization: `Bearer ${WORKLOAD_ADMIN_TOKEN}`, ...headers });
  const ok = async (what: string, answer: Promise<{ status: number; text: string; body: unknown }>) => {
    const { status, text, body } = await answer;
    if (status >= 300) throw new Error(`${what}: ${status} ${text}`);
    return body as Answer;
  };

  // Shoppers: a Pix checkout (asked twice), its status, its order's lookup and its stream; an OpenFinance one.
  const paid = await server.order();
  const pix = await ok('create', server.json('POST', '/api/checkouts', { ...paid, method: 'pix' }));
  await ok('create again', server.json('POST', '/api/checkouts', { ...paid, method: 'pix' }));
  await ok('status', server.json('GET', `/api/checkouts/${pix.id}`));
  await ok('lookup', server.json('GET', `/api/orders/${paid.orderId}/checkout`, undefined, { 'x-order-token': paid.orderToken }));
  const stream = new AbortController();
  const events = await fetch(`${server.url}/api/checkouts/${pix.id}/events`, { signal: stream.signal });
  await events.body?.getReader().read();
  stream.abort();
  const bank = await server.order();
  await ok('openfinance', server.json('POST', '/api/checkouts', { ...bank, method: 'openfinance', payer: { cpf: '52998224725' } }));
  const late = await server.order();
  const expiring = await ok('create', server.json('POST', '/api/checkouts', { ...late, method: 'pix' }));

  // The provider completes the first: its webhook moves it, the merchant's event goes out.
  await ok('complete', server.json('POST', `/demo/api/sandbox/pix/complete/${pix.transactionId}`, {}));
  await until('Completed', async () => (await ok('status', server.json('GET', `/api/checkouts/${pix.id}`))).state === 'Completed');
  await until('a delivered event', async () => {
    const page = await ok('events', admin('GET', '/webhook-events?limit=50'));
    return page.items.some((event) => event.deliveries.some((delivery) => delivery.state === 'delivered'));
  });

  // The reconciler: after the window, one expires; the live ones are re-read.
  clock.advance(31 * 60_000);
  await server.checkout.reconciler.runOnce();
  await ok('expired', server.json('GET', `/api/checkouts/${expiring.id}`));

  // The console.
  const list = await ok('list', admin('GET', '/checkouts?limit=10'));
  // A page after the first row (the list's cursor is that row's [createdAt, id], as ./checkout-filter.ts makes it).
  const first = list.items[0]!;
  const cursor = Buffer.from(JSON.stringify([first.createdAt, first.id])).toString('base64url');
  await ok('page 2', admin('GET', `/checkouts?limit=10&cursor=${cursor}`));
  for (const filter of [
    'state=Completed',
    'method=openfinance',
    `orderId=${paid.orderId}`,
    'flag=duplicate',
    'flag=late',
    'state=Completed,Expired',
    'from=2020-01-01T00:00:00Z',
  ])
    await ok(filter, admin('GET', `/checkouts?${filter}&limit=10`));
  await ok('detail', admin('GET', `/checkouts/${pix.id}`));
  await ok('refunds', admin('GET', `/checkouts/${pix.id}/refunds`));
  await ok('refund', admin('POST', `/checkouts/${pix.id}/refunds`, { amount: '1.00' }, { 'idempotency-key': `plans-${pix.id}` }));
  for (const format of ['csv', 'csv-iso']) {
    const csv = await fetch(`${server.url}/api/admin/checkouts/export.csv?format=${format}`, {
      headers: { authorization: `Bearer ${WORKLOAD_ADMIN_TOKEN}` },
    });
    if (csv.status !== 200) throw new Error(`export: ${csv.status}`);
    await csv.text();
  }
  await ok('audit', admin('GET', '/audit?limit=5'));
  await ok('audit filtered', admin('GET', '/audit?action=refund.create&limit=5'));
  await ok('approvals', admin('GET', '/approvals?state=pending'));
  await ok('cashouts', admin('GET', '/cashouts?limit=5'));
  const feed = await ok('events', admin('GET', '/webhook-events?limit=5'));
  await ok('attempts', admin('GET', `/webhook-events/${feed.items[0]!.id}/attempts`));
}
