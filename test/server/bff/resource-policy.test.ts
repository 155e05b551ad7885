/**
 * `Cross-Origin-Resource-Policy` route by route, on the demo process (BFF, back office, console, element, emulator,
 * demo API): only the element's module and the public checkout API it calls from a storefront are `cross-origin`; the
 * webhook receiver, the back office (its CSV exports too), the console's page and files, `/healthz`, the demo and the
 * emulator are `same-origin`, and so is anything the table does not name. Every route of the fuzz suite's lists of the
 * product (test/server/fuzz/routes.ts) must have its line here, so a new route cannot go unchecked.
 */
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WEBHOOK_HEADER } from '../../../server/bff/app';
import { resourcePolicy } from '../../../server/http/resource-policy';
import { BFF_ROUTES, CONSOLE_ROUTES, EMULATOR_ROUTES } from '../fuzz/routes';
import { startTestServer, type TestServer } from '../helpers/server';

const ADMIN_TOKEN = 'admin-token-for-resource-policy-0123';
const CROSS = 'cross-origin';
const SAME = 'same-origin';

/** Every route of the product and of the demo, with the policy its answers must carry. */
const EXPECTED: Record<string, typeof CROSS | typeof SAME> = {
  // The element from a storefront: its module, and the public checkout API.
  'GET /widget/pix-checkout.js': CROSS,
  'GET /widget/integrity.json': CROSS,
  'POST /api/checkouts': CROSS,
  'OPTIONS /api/checkouts': CROSS,
  'GET /api/checkouts/:id': CROSS,
  'GET /api/checkouts/:id/events': CROSS,
  'GET /api/orders/:orderId/checkout': CROSS,
  'POST /api/orders/:orderId/checkout': CROSS,
  'OPTIONS /api/orders/:orderId/checkout': CROSS,
  // The provider's webhooks.
  'POST /api/webhooks/provider': SAME,
  // The back office: the console's session, users and audit trail, then the money.
  'POST /api/admin/session': SAME,
  'GET /api/admin/session': SAME,
  'DELETE /api/admin/session': SAME,
  'GET /api/admin/users': SAME,
  'POST /api/admin/users': SAME,
  'PATCH /api/admin/users/:id': SAME,
  'GET /api/admin/me/sessions': SAME,
  'DELETE /api/admin/me/sessions': SAME,
  'DELETE /api/admin/me/sessions/:id': SAME,
  'POST /api/admin/me/password': SAME,
  'POST /api/admin/session/mfa': SAME,
  'POST /api/admin/session/passkey/options': SAME,
  'POST /api/admin/session/passkey': SAME,
  'GET /api/admin/me/mfa': SAME,
  'POST /api/admin/me/mfa/totp': SAME,
  'POST /api/admin/me/mfa/totp/confirm': SAME,
  'POST /api/admin/me/mfa/passkeys/options': SAME,
  'POST /api/admin/me/mfa/passkeys': SAME,
  'DELETE /api/admin/me/mfa/passkeys/:id': SAME,
  'POST /api/admin/session/step-up/options': SAME,
  'POST /api/admin/session/step-up': SAME,
  'GET /api/admin/api-keys': SAME,
  'POST /api/admin/api-keys': SAME,
  'DELETE /api/admin/api-keys/:id': SAME,
  'POST /api/admin/payment-links': SAME,
  'GET /api/admin/audit': SAME,
  'GET /api/admin/audit/export.csv': SAME,
  'GET /api/admin/balance': SAME,
  'GET /api/admin/transactions': SAME,
  'GET /api/admin/events': SAME,
  'POST /api/admin/cashouts': SAME,
  'GET /api/admin/cashouts': SAME,
  'GET /api/admin/cashouts/quote': SAME,
  'GET /api/admin/checkouts': SAME,
  'GET /api/admin/checkouts/export.csv': SAME,
  'GET /api/admin/foreign-transactions': SAME,
  'GET /api/admin/webhook-events': SAME,
  'GET /api/admin/webhook-events/:id/attempts': SAME,
  'POST /api/admin/webhook-events/:id/redeliver': SAME,
  'POST /api/admin/webhook-endpoints': SAME,
  'GET /api/admin/webhook-endpoints': SAME,
  'POST /api/admin/webhook-endpoints/:id/disable': SAME,
  'POST /api/admin/webhook-endpoints/:id/enable': SAME,
  'POST /api/admin/webhook-endpoints/:id/rotate': SAME,
  'POST /api/admin/webhook-endpoints/:id/rotate/finish': SAME,
  'POST /api/admin/webhook-endpoints/:id/test': SAME,
  'DELETE /api/admin/webhook-endpoints/:id': SAME,
  'GET /api/admin/checkouts/:id': SAME,
  'GET /api/admin/checkouts/:id/provider': SAME,
  'POST /api/admin/checkouts/:id/payer': SAME,
  'GET /api/admin/checkouts/:id/refund': SAME,
  'POST /api/admin/checkouts/:id/refund': SAME,
  'GET /api/admin/checkouts/:id/refunds': SAME,
  'POST /api/admin/checkouts/:id/refunds': SAME,
  'GET /api/admin/approvals': SAME,
  'POST /api/admin/approvals/:key/approve': SAME,
  'POST /api/admin/approvals/:key/reject': SAME,
  'POST /api/admin/approvals/payment-requests/:key/approve': SAME,
  'POST /api/admin/approvals/payment-requests/:key/reject': SAME,
  'GET /api/admin/receivers': SAME,
  'GET /api/admin/receivers/:id': SAME,
  'GET /api/admin/receivers/:id/accounts': SAME,
  'POST /api/admin/payment-requests': SAME,
  'GET /api/admin/payment-requests': SAME,
  'GET /api/admin/payment-requests/:id': SAME,
  'POST /api/admin/payment-requests/:id/cancel': SAME,
  'PUT /api/admin/payment-requests/:id/invoice': SAME,
  'GET /api/admin/payment-requests/:id/documents': SAME,
  'DELETE /api/admin/documents/:id': SAME,
  // The console: its page and its content-hashed files.
  'GET /admin': SAME,
  'GET /admin/assets/:name': SAME,
  // The payment link's page, its script and stylesheet, and the shop's name it asks for (server/pay-page.ts).
  'GET /pay/:orderId': SAME,
  'GET /pay/_/:name': SAME,
  'GET /pay/_/shop/:orderId': SAME,
  // The rest of the product, and addresses no route answers.
  'GET /healthz': SAME,
  'GET /readyz': SAME,
  'GET /metrics': SAME,
  'GET /api/nope': SAME,
  'GET /api/checkouts/:id/nope': SAME,
  'GET /api/orders/:orderId': SAME,
  'GET /widget': SAME,
  // The demo: its pages and its API (the payment-related routes included).
  'GET /': SAME,
  'GET /backoffice.html': SAME,
  'GET /demo/api/products': SAME,
  'POST /demo/api/orders': SAME,
  'GET /demo/api/orders/:orderId': SAME,
  'GET /demo/api/priced-orders/:orderId': SAME,
  'GET /demo/api/webhooks': SAME,
  'POST /demo/api/sandbox/:method/:operation/:transactionId': SAME,
  'POST /demo/api/orders/:orderId/pay-expired': SAME,
  'GET /demo/api/sandbox-admin/company-webhook': SAME,
};

/** `METHOD /path` of a fuzz target (without its label); undefined for the catch-all targets. */
const routeOf = (name: string) => /^([A-Z]+ \/\S*)/.exec(name)?.[1];

let server: TestServer;
/** Values for the path's `:name` segments: a real checkout and order where the route reads one. */
const ids: Record<string, string> = {};
let orderToken = '';
/** One of the console's built files, when it is built (else a name it does not have, answered 503 or 404). */
const CONSOLE_MANIFEST = fileURLToPath(new URL('../../../dist/console/manifest.json', import.meta.url));
const consoleAsset = () =>
  existsSync(CONSOLE_MANIFEST)
    ? Object.keys((JSON.parse(readFileSync(CONSOLE_MANIFEST, 'utf8')) as { assets: object }).assets)[0]
    : undefined;
beforeAll(async () => {
  server = await startTestServer({ env: { ADMIN_TOKEN } });
  const order = await server.order();
  const created = await server.json('POST', '/api/checkouts', { ...order, method: 'pix' });
  expect(created.status).toBe(201);
  Object.assign(ids, {
    id: created.body.id as string,
    orderId: order.orderId,
    transactionId: created.body.transactionId as string,
    method: 'pix',
    operation: 'complete',
    name: consoleAsset() ?? 'console.0123456789abcdef.js',
  });
  orderToken = order.orderToken;
});
afterAll(() => server?.close());

/** The policy of the answer to `route` (its headers only: a stream is cancelled once they are in). */
async function policyOf(route: string): Promise<{ status: number; policy: string | null }> {
  const [method, template] = route.split(' ') as [string, string];
  const path = template.replace(/:(\w+)/g, (_, name: string) => encodeURIComponent(ids[name] ?? 'nope'));
  const headers: Record<string, string> = {};
  if (path.startsWith('/api/admin/') || path.startsWith('/demo/api/sandbox-admin/')) headers.authorization = `Bearer ${ADMIN_TOKEN}`;
  if (path.startsWith('/api/webhooks/')) headers[WEBHOOK_HEADER] = server.config.webhookSecret;
  if (path.startsWith('/api/orders/')) headers['x-order-token'] = orderToken;
  if (path.startsWith('/demo/api/priced-orders/')) headers.authorization = `Bearer ${server.ordersToken}`;
  if (method === 'OPTIONS') Object.assign(headers, { origin: server.url, 'access-control-request-method': 'POST' });
  const response = await fetch(server.url + path, { method, headers, redirect: 'manual' });
  await response.body?.cancel();
  return { status: response.status, policy: response.headers.get('cross-origin-resource-policy') };
}

describe('Cross-Origin-Resource-Policy', () => {
  it('has an expected policy for every route of the fuzz suite', () => {
    const missing = [...BFF_ROUTES, ...CONSOLE_ROUTES]
      .map((t) => routeOf(t.name))
      .filter((route): route is string => route !== undefined)
      .filter((route) => !(route in EXPECTED));
    expect(missing).toEqual([]);
  });

  it.each(Object.entries(EXPECTED))('%s is %s', async (route, expected) => {
    const { status, policy } = await policyOf(route);
    expect({ route, status, policy }).toEqual({ route, status, policy: expected });
  });

  it('keeps every route of the emulator same-origin', async () => {
    const routes = [...new Set(EMULATOR_ROUTES.map((t) => routeOf(t.name)).filter((r): r is string => r !== undefined))];
    expect(routes.length).toBeGreaterThan(20);
    for (const route of routes) expect({ route, policy: (await policyOf(route)).policy }).toEqual({ route, policy: SAME });
  });

  it('is same-origin for any path the table does not name', () => {
    expect(resourcePolicy('/api/checkouts/x/')).toBe(CROSS);
    expect(resourcePolicy('/api/checkouts/x/events/more')).toBe(SAME);
    expect(resourcePolicy('/api/admin/checkouts/x')).toBe(SAME);
    expect(resourcePolicy('/shop/widget/x.js')).toBe(SAME);
    expect(resourcePolicy('/api/orders/x/checkouts')).toBe(SAME);
    expect(resourcePolicy('/checkouts')).toBe(SAME);
    expect(resourcePolicy('')).toBe(SAME);
  });
});
