/** What the merchant rows (../merchant-rows.ts, ../merchant-backlog.ts) share: a new paid-to-be checkout, and verifying receipts. */
import { Webhook } from 'standardwebhooks';
import type { TestServer } from '../../test/server/helpers/server';
import type { Receipt } from './clients';

/**
 * A new checkout, on a connection of its own (`connection: close`; the creation is off the clock of every row it
 * serves). This process is the server too, and the backlog rows block it for seconds at a time (seeding 100,000
 * events, the write-ahead log's checkpoint waiting on the delivery thread, verifying as many receipts): fetch's timer
 * of an idle kept-alive connection (3 s) counts the event loop's ticks, not the clock, so after such a block it sends
 * the POST on a connection whose 5 s the server has let pass, the server's timer closes it as the request arrives, and
 * a POST reset is not sent again (`fetch failed`, ECONNRESET).
 */
export async function newCheckout(server: TestServer, orderId: string) {
  const body = { orderId, orderToken: server.orderTokenFor(orderId), method: 'pix' };
  const response = await server.json('POST', '/api/checkouts', body, { connection: 'close' });
  if (response.status !== 201) throw new Error(`bench: creation failed: ${response.text}`);
  return response.body as { id: string; transactionId: string };
}

/** Verifies every receipt with the Standard Webhooks library; throws on the first that does not verify. */
export function verifyAll(secret: string, receipts: Receipt[]) {
  const webhook = new Webhook(secret);
  for (const receipt of receipts) {
    try {
      webhook.verify(receipt.body, receipt.headers);
    } catch (error) {
      throw new Error(`bench: a merchant webhook did not verify (${receipt.headers['webhook-id']}): ${String(error)}`, { cause: error });
    }
  }
  return receipts.length;
}
