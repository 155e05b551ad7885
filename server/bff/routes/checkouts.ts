/**
 * Public checkout routes used by the element: create (idempotent per order), snapshot, event stream. Creating needs
 * the order token the merchant's server gave the page (`order-token.ts`): knowing an order id alone must not let
 * anyone pin the order's method or payer, block it, or read it.
 */
import { Hono } from 'hono';
import { z } from 'zod';
import { isValidCpf, taxNumberDigits } from '../../../core/cpf';
import { METHOD_LABELS } from '../../../core/method-labels';
import { METHODS } from '../../../core/methods';
import { isLive } from '../../../core/states';
import type { Clock } from '../../lib/clock';
import { annotateRequest } from '../../lib/request-scope';
import type { CheckoutReadStore } from '../../store/checkout-store';
import type { StatusHub } from '../../store/types';
import {
  checkoutNotFound,
  orderTokenExpired,
  orderTokenInvalid,
  orderTokenRequired,
  payerCpfInvalid,
  payerRequired,
  returnUrlNotAllowed,
} from '../../payments/errors';
import { METHOD_ADAPTERS } from '../../payments/methods';
import type { CheckoutService } from '../../payments/service';
import { expiresAtOf } from '../../payments/window';
import { parseJson } from '../../http/json-body';
import { verifyOrderToken } from '../order-token';
import { eventStreamResponse } from '../stream';
import { createStreamFeeds } from '../stream-feed';
import { toView } from '../view';

const createBody = z.object({
  orderId: z
    .string()
    .trim()
    .min(1)
    .max(64)
    .regex(/^[\w.:-]+$/, 'Letters, digits and . _ : - only'),
  /** Checked by `verifyOrderToken`, which refuses anything but a well-formed string with its own codes. */
  orderToken: z.unknown().optional(),
  method: z.enum(METHODS).default('pix'),
  payer: z.object({ cpf: z.string().max(32), name: z.string().trim().max(120).optional() }).optional(),
  returnUrl: z
    .url({ protocol: /^https?$/ })
    .max(2048)
    .optional(),
});

export interface CheckoutRoutesOptions {
  service: CheckoutService;
  store: CheckoutReadStore;
  hub: StatusHub;
  /** Origins a returnUrl may point to (the storefronts), so the bank page can't redirect anywhere else. */
  returnOrigins: readonly string[];
  heartbeatMs: number;
  retryMs: number;
  /** The key order tokens are signed with: the order-source secret shared with the merchant (`ORDERS_TOKEN`). */
  orderTokenSecret: string;
  clock: Clock;
}

/**
 * Whether the bank page may send the payer back to `returnUrl`: an address on one of the storefront `origins`, with no
 * user name or password (`https://user:pass@shop.example/` has the shop's origin, but no redirect should carry
 * credentials, and the provider refuses them).
 */
const returnUrlAllowed = (returnUrl: string, origins: readonly string[]) => {
  const url = new URL(returnUrl);
  return url.username === '' && url.password === '' && origins.includes(url.origin);
};

/** Refuses a request without a valid token for its order, before the order source is asked or anything reserved. */
export function requireOrderToken(
  options: Pick<CheckoutRoutesOptions, 'orderTokenSecret' | 'clock'>,
  orderId: string,
  token: unknown,
): void {
  const check = verifyOrderToken(options.orderTokenSecret, orderId, token, options.clock.now());
  if (check.ok) return;
  if (check.reason === 'missing') throw orderTokenRequired();
  if (check.reason === 'expired') throw orderTokenExpired();
  throw orderTokenInvalid();
}

export function checkoutRoutes(options: CheckoutRoutesOptions) {
  const { service, store } = options;
  // One read per change for every stream of a checkout this app serves (../stream-feed.ts).
  const feeds = createStreamFeeds(store);

  /** The checkout as a browser may read it: a reservation reads as not found, a live one past its window expires. */
  const find = async (id: string) => {
    const checkout = await store.getCheckout(id);
    if (!checkout || checkout.state === 'Creating') throw checkoutNotFound();
    return service.expireIfDue(checkout, 'read');
  };

  return new Hono()
    .post('/', async (c) => {
      // A storefront on another origin sends its create as text/plain, a "simple" request with no CORS preflight.
      const body = await parseJson(c, createBody, { plainTextFrom: options.returnOrigins });
      requireOrderToken(options, body.orderId, body.orderToken);
      const cpf = body.payer ? taxNumberDigits(body.payer.cpf) : undefined;
      if (cpf !== undefined && !isValidCpf(cpf)) {
        throw payerCpfInvalid();
      }
      const adapter = METHOD_ADAPTERS[body.method];
      if (adapter.payerCpf === 'required' && !cpf) {
        throw payerRequired(METHOD_LABELS[body.method]);
      }
      if (body.returnUrl && !returnUrlAllowed(body.returnUrl, options.returnOrigins)) throw returnUrlNotAllowed();
      const { created, checkout } = await service.create({
        orderId: body.orderId,
        method: body.method,
        ...(cpf ? { payer: { cpf, ...(body.payer?.name ? { name: body.payer.name } : {}) } } : {}),
        ...(body.returnUrl ? { returnUrl: body.returnUrl } : {}),
      });
      // The request's log line carries the payment's ids (server/lib/request-scope.ts).
      annotateRequest({ checkoutId: checkout.id, orderId: checkout.orderId, transactionId: checkout.transactionId ?? undefined });
      return c.json(toView(checkout), created ? 201 : 200);
    })
    .get('/:id', async (c) => c.json(toView(await find(c.req.param('id')))))
    .get('/:id/events', async (c) => {
      const checkout = await find(c.req.param('id'));
      const resume = Number(c.req.header('last-event-id') ?? c.req.query('lastEventId') ?? Number.NaN);
      return eventStreamResponse(c, {
        feeds,
        hub: options.hub,
        checkout,
        heartbeatMs: options.heartbeatMs,
        retryMs: options.retryMs,
        ...(Number.isSafeInteger(resume) && resume >= 0 ? { lastEventId: resume } : {}),
        // The page hears of the end of the payment window when it comes, not at the reconciler's next pass.
        ...(isLive(checkout.state)
          ? {
              expiry: {
                inMs: Date.parse(expiresAtOf(checkout)) - options.clock.now().getTime(),
                expire: async () => {
                  const current = await store.getCheckout(checkout.id);
                  if (current) await service.expireIfDue(current, 'read');
                },
              },
            }
          : {}),
      });
    });
}
