/** What the merchant rows (../merchant-rows.ts, ../merchant-backlog.ts) share: a new paid-to-be checkout, and verifying receipts. */
import { Webhook } from 'standardwebhooks';
import type { TestServer } from '../../test/server/helpers/server';
import type { Receipt } from './clients';

export async function newCheckout(server: TestServer, orderId: string) {
  const response = await server.json('POST', '/api/checkouts', { orderId, orderToken: server.orderTokenFor(orderId), method: 'pix' });
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
