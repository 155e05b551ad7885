/**
 * The log of a payment's whole story (issue 37, point 3): a BFF with known secrets, in front of the emulator through a
 * proxy that can fail, takes a PIX payment and an OpenFinance one with the payer's CPF, hears the provider's
 * webhooks, serves the status and its stream, signs a console user in with a password, refunds from the back office
 * with the session cookie, delivers the merchant's webhook, and refuses a bad request, a webhook with a wrong secret
 * and a create the provider fails. Every line it wrote is then read: JSON with time, level, msg and a request id (or a
 * background job's id); no secret, token, cookie, password or CPF (formatted or not) in any; and `grep` on the order
 * id finds its create, its move to Completed and the merchant's delivery.
 */
import { randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { formatCpf } from '../../../core/cpf';
import { addUser } from '../../../server/accounts/users';
import { WEBHOOK_HEADER } from '../../../server/bff/app';
import { systemClock } from '../../../server/lib/clock';
import { createLog } from '../../../server/lib/log';
import { sendJson, startRecordingServer, type RecordedRequest } from '../helpers/http';
import { openSse } from '../helpers/sse';
import { startTestBff, startTestServer, type TestServer } from '../helpers/server';
import { sessionCookie } from '../backoffice/auth-helpers';

const PROVIDER_SECRET = 'sandbox-secret';
const WEBHOOK_SECRET = `webhook-secret-${randomUUID()}`;
const ADMIN_TOKEN = `admin-token-${randomUUID()}`;
const MERCHANT_WEBHOOK_SECRET = `whsec_${Buffer.from(randomUUID()).toString('base64')}`;
const PASSWORD = `password-${randomUUID()}`;
/** The OpenFinance payer's CPF, and the PIX payer's (the emulator's payer data of the payment). */
const PAYER_CPF = '11144477735';
const PIX_PAYER_CPF = '52998224725';

/** Every line the BFF writes, as text, in order. */
function capturedLog() {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(...chunk.toString().split('\n').filter(Boolean));
      done();
    },
  });
  return { log: createLog({ destination }), lines };
}

let emulator: TestServer;
let proxy: Awaited<ReturnType<typeof startRecordingServer>>;
let merchant: Awaited<ReturnType<typeof startRecordingServer>>;
let bff: Awaited<ReturnType<typeof startTestBff>>;
const captured = capturedLog();
/** Set: the proxy fails every create (a provider failure). */
const provider = { failing: false };
/** The secrets the run used beside the fixed ones: order tokens, the session cookie. */
const seen: string[] = [];

/** Forwards to the emulator's partner API, or answers a create with a 502 while `provider.failing`. */
async function forward(req: RecordedRequest) {
  const headers = Object.entries(req.headers).filter(([name]) => !['host', 'content-length', 'connection'].includes(name));
  const response = await fetch(`${emulator.url}/sandbox${req.url}`, {
    method: req.method,
    headers: Object.fromEntries(headers) as Record<string, string>,
    ...(req.body ? { body: req.body } : {}),
  });
  return { status: response.status, body: await response.text(), type: response.headers.get('content-type') ?? 'text/plain' };
}

beforeAll(async () => {
  emulator = await startTestServer();
  proxy = await startRecordingServer(async (req, res) => {
    if (provider.failing && req.method === 'POST' && /\/(cashin|payment-initiation)$/.test(req.url)) {
      return sendJson(res, 502, { statusCode: 'Error', error: { name: 'BadGateway', message: 'down' } });
    }
    const answer = await forward(req);
    res.writeHead(answer.status, { 'content-type': answer.type }).end(answer.body);
  });
  merchant = await startRecordingServer((_req, res) => sendJson(res, 200, {}));
  bff = await startTestBff({
    env: {
      PROVIDER_BASE_URL: `${proxy.url}/v1`,
      PROVIDER_ACCESS_KEY: 'sandbox-access-key',
      PROVIDER_SECRET,
      WEBHOOK_SECRET,
      ADMIN_TOKEN,
      MERCHANT_WEBHOOK_URL: `${merchant.url}/hooks`,
      MERCHANT_WEBHOOK_SECRET,
      APPROVAL_ABOVE: '1000000.00',
      TRUST_PROXY: '1',
    },
    start: { log: captured.log },
  });
}, 60_000);

afterAll(async () => {
  await bff?.close();
  await merchant?.close();
  await proxy?.close();
  await emulator?.close();
});

/** The lines that name `id`, parsed. */
const linesOf = (id: string) =>
  captured.lines.filter((line) => line.includes(id)).map((line) => JSON.parse(line) as Record<string, unknown>);

describe('the log of a payment through every path', () => {
  let orderId: string;
  let checkoutId: string;

  it('runs the payment: create, webhook, status, stream, console sign-in, refund, merchant delivery, errors', async () => {
    const { orderId: id, orderToken } = await bff.order();
    orderId = id;
    seen.push(orderToken);
    const created = await bff.json('POST', '/api/checkouts', { orderId, orderToken, method: 'pix' }, { 'x-order-token': orderToken });
    expect(created.status).toBe(201);
    checkoutId = created.body.id;
    const stream = await openSse(`${bff.url}/api/checkouts/${checkoutId}/events`);
    await stream.next();
    await emulator.provider.sandbox.pix.complete(created.body.transactionId, { name: 'Maria Pagadora', taxNumber: PIX_PAYER_CPF });
    await vi.waitFor(async () => expect((await bff.json('GET', `/api/checkouts/${checkoutId}`)).body.state).toBe('Completed'), {
      timeout: 10_000,
    });
    stream.close();
    const lookup = await bff.json('GET', `/api/orders/${orderId}?orderToken=${orderToken}`, undefined, { 'x-order-token': orderToken });
    expect(lookup.status).toBeLessThan(500);

    // OpenFinance: the payer's CPF, formatted, goes in with the create.
    const openFinance = await bff.order();
    seen.push(openFinance.orderToken);
    const initiated = await bff.json('POST', '/api/checkouts', {
      orderId: openFinance.orderId,
      orderToken: openFinance.orderToken,
      method: 'openfinance',
      payer: { cpf: formatCpf(PAYER_CPF), name: 'Pagador Conhecido' },
      returnUrl: bff.publicBaseUrl,
    });
    expect(initiated.status).toBe(201);

    // The console: a user signs in with a password; the refund goes with the session cookie.
    const origin = new URL(bff.publicBaseUrl).origin;
    const email = `ops-${randomUUID()}@example.com`;
    await addUser({ store: bff.store, clock: systemClock }, { email, role: 'owner', password: PASSWORD }, async () => undefined);
    const signIn = await bff.json('POST', '/api/admin/session', { email, password: PASSWORD }, { origin, 'x-forwarded-for': '10.9.8.7' });
    expect(signIn.status).toBe(200);
    const cookie = sessionCookie(signIn.headers.get('set-cookie'));
    seen.push(cookie.split('=')[1]!);
    const refund = await bff.json(
      'POST',
      `/api/admin/checkouts/${checkoutId}/refunds`,
      {},
      { cookie, origin, 'idempotency-key': randomUUID() },
    );
    expect(refund.status).toBe(201);
    const listed = await bff.json('GET', '/api/admin/checkouts', undefined, { authorization: `Bearer ${ADMIN_TOKEN}` });
    expect(listed.status).toBe(200);
    const wrongSignIn = await bff.json('POST', '/api/admin/session', { email, password: `${PASSWORD}-wrong` }, { origin });
    expect(wrongSignIn.status).toBe(401);

    // The delivery's line is written once the merchant's answer is recorded, a moment after the request arrives.
    await vi.waitFor(
      () => expect(linesOf(checkoutId).some((line) => line.eventType === 'checkout.completed' && line.outcome === 'delivered')).toBe(true),
      { timeout: 10_000 },
    );
    expect(merchant.requests.some((r) => r.body.includes(checkoutId))).toBe(true);

    // Errors: a malformed create carrying secrets, a webhook with a wrong secret, a create the provider fails.
    const bad = await bff.json('POST', `/api/checkouts?token=${ADMIN_TOKEN}`, {
      orderId,
      orderToken,
      method: 'boleto',
      payer: { cpf: PAYER_CPF },
      password: PASSWORD,
    });
    expect(bad.status).toBeGreaterThanOrEqual(400);
    expect(bad.status).toBeLessThan(500);
    const forged = await bff.json(
      'POST',
      '/api/webhooks/provider',
      { transaction: { id: created.body.transactionId }, cpf: PAYER_CPF },
      { [WEBHOOK_HEADER]: `${WEBHOOK_SECRET}-forged`, authorization: `Bearer ${ADMIN_TOKEN}`, cookie },
    );
    expect(forged.status).toBeGreaterThanOrEqual(400);
    provider.failing = true;
    const failing = await bff.order();
    seen.push(failing.orderToken);
    const failed = await bff.json('POST', '/api/checkouts', {
      orderId: failing.orderId,
      orderToken: failing.orderToken,
      method: 'openfinance',
      payer: { cpf: PAYER_CPF },
    });
    provider.failing = false;
    expect(failed.status).toBeGreaterThanOrEqual(500);
  }, 60_000);

  it('wrote no secret, token, cookie, password or CPF in any line', () => {
    expect(captured.lines.length).toBeGreaterThan(10);
    const secrets = [PROVIDER_SECRET, WEBHOOK_SECRET, ADMIN_TOKEN, MERCHANT_WEBHOOK_SECRET, PASSWORD, ...seen];
    const cpfs = [PAYER_CPF, PIX_PAYER_CPF].flatMap((cpf) => [cpf, formatCpf(cpf)]);
    for (const secret of [...secrets, ...cpfs]) {
      expect(captured.lines.filter((line) => line.includes(secret))).toEqual([]);
    }
  });

  it('wrote every line as JSON with time, level, msg and a request id or a job id', () => {
    for (const line of captured.lines) {
      const parsed = JSON.parse(line) as Record<string, unknown>;
      expect(parsed, line).toMatchObject({ time: expect.any(String), level: expect.any(String), msg: expect.any(String) });
      expect(typeof parsed.reqId === 'string' || typeof parsed.job === 'string', line).toBe(true);
    }
  });

  it("finds the order's create, its move to Completed and the merchant's delivery by its order id", () => {
    const story = linesOf(orderId);
    expect(story.find((line) => line.path === '/api/checkouts' && line.status === 201)).toMatchObject({ checkoutId, orderId });
    expect(story.find((line) => line.state === 'Completed')).toMatchObject({ checkoutId, orderId, transactionId: expect.any(String) });
    expect(story.find((line) => line.eventType === 'checkout.completed' && line.outcome === 'delivered')).toMatchObject({
      checkoutId,
      job: 'merchant-webhooks',
    });
    // The checkout id finds the same story, the provider's webhook among it.
    expect(linesOf(checkoutId).length).toBeGreaterThanOrEqual(story.length);
  });
});
