/**
 * The demo shop as the merchant's backend: the receiver of the product's signed webhooks (the Standard Webhooks
 * specification, see server/merchant-webhooks/signing.ts), as a merchant would write one. `npm start` without
 * MERCHANT_WEBHOOK_URL points the product's endpoint here, with a `whsec_` secret kept in DATA_DIR. Every delivery is
 * verified with the `standardwebhooks` package (an unverifiable one gets 400 and changes nothing, not even the list
 * of deliveries), a repeated
 * `webhook-id` is answered 2xx and ignored (delivery is at least once), and the shop's order status is set from the
 * events only (demo/store.ts). The product calls it server to server, with no Origin: the cross-site guard lets it in.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Hono } from 'hono';
import { Webhook } from 'standardwebhooks';
import { z } from 'zod';
import type { Config } from '../../server/config';
import { WEBHOOK_SECRET_FORMAT } from '../../server/merchant-webhooks/signing';
import type { Clock } from '../../server/lib/clock';
import { errorBody } from '../../server/http/error-envelope';
import type { DemoStore, ReceivedEvent } from '../store';

/** Where the product delivers to, under the demo's API. */
export const RECEIVER_PATH = '/demo/api/merchant-webhooks';
const SECRET_FILE = 'merchant-webhook-secret';

/** The demo's receiver secret: `whsec_` and 32 random bytes in base64, generated once and kept in DATA_DIR (owner-only). */
export function keptWebhookSecret(dataDir: string): string {
  const file = join(dataDir, SECRET_FILE);
  if (existsSync(file)) {
    const kept = readFileSync(file, 'utf8').trim();
    if (WEBHOOK_SECRET_FORMAT.test(kept)) return kept;
  }
  const secret = `whsec_${randomBytes(32).toString('base64')}`;
  writeFileSync(file, `${secret}\n`, { mode: 0o600 });
  return secret;
}

/**
 * The product's environment endpoint: MERCHANT_WEBHOOK_URL when set (left alone), else the demo's own receiver on
 * this process's loopback address (`own`), with the kept secret.
 */
export function merchantEndpoint(config: Config, loopbackUrl: string): NonNullable<Config['merchantWebhook']> & { own: boolean } {
  if (config.merchantWebhook) return { ...config.merchantWebhook, own: false };
  return { url: `${loopbackUrl}${RECEIVER_PATH}`, secrets: [keptWebhookSecret(config.dataDir)], own: true };
}

/** What the shop reads of an event: forward-compatible, any type and any data fields. */
const eventShape = z.object({
  id: z.string().max(200),
  seq: z.int().min(0),
  type: z.string().max(100),
  createdAt: z.string(),
  data: z.record(z.string(), z.unknown()),
});

const text = (value: unknown) => (typeof value === 'string' && value.length <= 200 ? value : null);

/** The shop's order an event is about: a checkout's order, or the order of the checkout a refund gave back. */
function orderOf(type: string, data: Record<string, unknown>): string | null {
  if (type.startsWith('checkout.')) return text(data.orderId);
  if (type.startsWith('refund.')) return text(data.checkoutOrderId);
  return null;
}

export interface ReceiverOptions {
  demo: DemoStore;
  /** The secrets it verifies with (those the product signs with). */
  secrets: readonly string[];
  clock: Clock;
}

export function merchantWebhookRoutes({ demo, secrets, clock }: ReceiverOptions) {
  const verifiers = secrets.map((secret) => new Webhook(secret));
  /** The event, when one of the secrets verifies the body and headers (within the library's 5-minute window). */
  const verify = (body: string, headers: Record<string, string>): unknown => {
    for (const verifier of verifiers) {
      try {
        return verifier.verify(body, headers);
      } catch {
        // Not this secret, or not ours at all.
      }
    }
    return undefined;
  };

  return new Hono()
    .post('/merchant-webhooks', async (c) => {
      const body = await c.req.text();
      const receivedAt = clock.now().toISOString();
      const event = eventShape.safeParse(verify(body, c.req.header()));
      if (!event.success || event.data.id !== c.req.header('webhook-id')) {
        // The demo's own refusal, which changes nothing; the product would retry it as any non-2xx.
        return c.json(errorBody('BadRequest', 'webhook_unverified', 'The webhook signature could not be verified.'), 400);
      }
      const { id, seq, type, data } = event.data;
      const received: ReceivedEvent = {
        webhookId: id,
        seq,
        type,
        orderId: orderOf(type, data),
        checkoutId: text(data.checkoutId),
        receivedAt,
      };
      // A repeat (the answer to an earlier delivery was lost) is answered as the first one was: nothing more to do.
      demo.receiveMerchantEvent(received);
      return c.body(null, 204);
    })
    .get('/merchant-deliveries', (c) => {
      const after = Number(c.req.query('after') ?? 0);
      return c.json({ items: demo.listMerchantDeliveries(Number.isSafeInteger(after) && after > 0 ? after : 0, 100) });
    });
}
