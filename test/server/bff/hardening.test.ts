/**
 * Replays of what an attacker did to the BFF and the demo, one test per finding, over real sockets. Each one used to
 * get a 5xx, plain text, or more than its share; now each gets the BFF's envelope with a 4xx (or a 503 when the whole
 * server is full), and the server stays healthy.
 */
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { connect } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { WEBHOOK_HEADER } from '../../../server/bff/app';
import { createTestDatabase, TEST_DATABASE_URL, type TestDatabase } from '../store/pg-test-database';
import { openSse, type SseConnection } from '../helpers/sse';
import { startTestServer, type TestServer } from '../helpers/server';

const ADMIN_TOKEN = 'admin-token-for-hardening-tests-0123';
const CPF = '52998224725';

interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** Whether the server closed the connection after answering. */
  closed: boolean;
}

/**
 * Writes `request` (possibly incomplete) on a fresh TCP connection and reads one answer: until the body of its
 * Content-Length is in (or, with `untilClose`, until the server closes), for at most `waitMs`.
 */
function rawRequest(url: string, request: string, { waitMs = 3_000, untilClose = false } = {}): Promise<RawAnswer> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    let data = '';
    let closed = false;
    let settled = false;
    const parse = () => {
      const split = data.indexOf('\r\n\r\n');
      if (split < 0) return undefined;
      const [statusLine = '', ...lines] = data.slice(0, split).split('\r\n');
      const headers = Object.fromEntries(
        lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]),
      );
      return { status: Number(statusLine.split(' ')[1]), headers, body: data.slice(split + 4) };
    };
    const finish = () => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      const answer = parse();
      if (!answer) return reject(new Error(`no answer (closed: ${closed})`));
      resolve({ ...answer, closed });
    };
    const timer = setTimeout(finish, waitMs);
    socket.on('data', (chunk) => {
      data += chunk.toString('utf8');
      const answer = parse();
      const length = Number(answer?.headers['content-length']);
      if (!untilClose && answer && Number.isFinite(length) && Buffer.byteLength(answer.body) >= length) finish();
    });
    socket.on('close', () => ((closed = true), finish()));
    socket.on('error', () => undefined);
    socket.on('connect', () => socket.write(request));
  });
}

/** The BFF's error envelope with `code`. */
const envelope = (code: string) => ({ statusCode: 'Error', error: { name: expect.any(String), message: expect.any(String), code } });

/** A checkout creation body for a placed order (with the order token when the shop hands one out). */
async function creation(server: TestServer, extra: Record<string, unknown> = {}) {
  const placed = (await server.order()) as { orderId: string; orderToken?: string };
  return { orderId: placed.orderId, ...(placed.orderToken ? { orderToken: placed.orderToken } : {}), method: 'pix', ...extra };
}

async function newCheckout(server: TestServer): Promise<{ id: string }> {
  const res = await server.json('POST', '/api/checkouts', await creation(server));
  expect(res.status).toBe(201);
  return res.body as { id: string };
}

describe('bad input gets a 4xx envelope, never a 5xx', () => {
  let database: TestDatabase | undefined;
  let server: TestServer;
  beforeAll(async () => {
    // On PostgreSQL when there is one: that is where U+0000 used to reach the database and come back as a 500.
    database = TEST_DATABASE_URL ? await createTestDatabase(TEST_DATABASE_URL) : undefined;
    // APPROVAL_ABOVE at the largest amount: a cash-out of it reaches the provider rather than waiting for an owner.
    const env = { ADMIN_TOKEN, APPROVAL_ABOVE: '90071992547409.91' };
    server = await startTestServer({ env: { ...env, ...(database ? { DATABASE_URL: database.url } : {}) } });
  });
  afterAll(async () => {
    await server?.close();
    await database?.drop();
  });

  it('refuses U+0000 and lone surrogates in ids, queries and names before they reach the database', async () => {
    for (const path of [
      '/api/checkouts/%00',
      '/api/checkouts/abc%00def/events',
      '/api/checkouts/%ED%A0%80',
      '/api/checkouts/x?lastEventId=%00',
      '/api/admin/receivers/%00',
    ]) {
      const res = await server.json('GET', path, undefined, { authorization: `Bearer ${ADMIN_TOKEN}` });
      expect({ path, status: res.status, body: res.body }).toEqual({ path, status: 400, body: envelope('invalid_request') });
    }
    const withNul = await server.json('POST', '/api/checkouts', await creation(server, { payer: { cpf: CPF, name: 'Maria\u0000Silva' } }));
    expect(withNul.status).toBe(400);
    expect(withNul.body).toEqual({ ...envelope('invalid_request'), error: expect.objectContaining({ details: [expect.anything()] }) });
    expect(withNul.body.error.details[0].path).toBe('/payer/name');

    const body = JSON.stringify(await creation(server, { payer: { cpf: CPF, name: 'MARKER' } })).replace('MARKER', '\\ud800');
    const loneSurrogate = await server.json('POST', '/api/checkouts', body);
    expect(loneSurrogate).toMatchObject({ status: 400, body: envelope('invalid_request') });

    // The server is fine afterwards.
    expect((await server.json('POST', '/api/checkouts', await creation(server, { payer: { cpf: CPF, name: 'Maria' } }))).status).toBe(201);
  });

  it('refuses an authenticated webhook nested 5,000 deep with 400, and takes 32 levels', async () => {
    const nested = (depth: number) => '{"a":'.repeat(depth - 1) + '{}' + '}'.repeat(depth - 1);
    const post = (text: string) => server.json('POST', '/api/webhooks/provider', text, { [WEBHOOK_HEADER]: server.config.webhookSecret });
    expect(await post(nested(5_000))).toMatchObject({ status: 400, body: envelope('invalid_json') });
    expect(await post('['.repeat(5_000) + ']'.repeat(5_000))).toMatchObject({ status: 400, body: envelope('invalid_json') });
    // The same depth inside a well-formed event for a live checkout (where it used to reach JSON.stringify).
    const checkout = (await server.json('POST', '/api/checkouts', await creation(server))).body as { transactionId: string };
    const event = {
      id: checkout.transactionId,
      transactionState: 'Registered',
      transactionDate: new Date().toISOString(),
      transactionAmount: '79.800000',
      transactionType: 'Credit',
      transactionPaymentType: 'PIX',
    };
    const deepEvent = JSON.stringify({ ...event, extra: 'MARKER' }).replace('"MARKER"', nested(5_000));
    expect(await post(deepEvent)).toMatchObject({ status: 400, body: envelope('invalid_json') });
    expect(await post(nested(33))).toMatchObject({ status: 400, body: envelope('invalid_json') });
    // 32 levels pass the reader; the payload is then simply not a webhook event.
    expect(await post(nested(32))).toMatchObject({ status: 400, body: envelope('invalid_webhook') });
    expect((await server.json('GET', '/healthz')).status).toBe(200);
  });

  it('refuses an invoice whose X-File-Name is not valid percent-encoding with 400', async () => {
    const pdf = Buffer.from('%PDF-1.4\n%%EOF\n');
    for (const fileName of ['%', '%E0%A4%A', 'nota%zz.pdf']) {
      const res = await fetch(`${server.url}/api/admin/payment-requests/any-id/invoice`, {
        method: 'PUT',
        headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/pdf', 'x-file-name': fileName },
        body: pdf,
      });
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual(envelope('invalid_file_name'));
    }
  });

  it('checks the dates of the back-office against a sane range', async () => {
    const admin = (path: string) => server.json('GET', `/api/admin${path}`, undefined, { authorization: `Bearer ${ADMIN_TOKEN}` });
    const now = Date.now();
    const iso = (ms: number) => new Date(ms).toISOString();
    for (const path of [
      `/payment-requests?startDate=1900-01-01T00:00:00Z&endDate=${iso(now)}`,
      `/payment-requests?startDate=${iso(now)}&endDate=9999-12-31T23:59:59Z`,
      `/payment-requests?startDate=${iso(now)}&endDate=${iso(now - 86_400_000)}`,
      '/transactions?orderId=A-1&date=0001-01-01',
      '/transactions?orderId=A-1&date=2025-02-30',
      '/transactions?orderId=A-1&date=',
      '/transactions?orderId=A-1&date=%2B275760-09-13',
      '/payment-requests?startDate=&endDate=',
    ]) {
      const res = await admin(path);
      expect({ path, status: res.status, code: res.body.error?.code }).toEqual({ path, status: 400, code: 'invalid_request' });
    }
    expect((await admin(`/payment-requests?startDate=${iso(now - 86_400_000)}&endDate=${iso(now)}`)).status).toBe(200);
  });

  it('refuses a cash-out or a quote of 2^53 cents or more with 400 invalid_request, never a 5xx', async () => {
    const auth = { authorization: `Bearer ${ADMIN_TOKEN}` };
    const body = (amount: string) => ({ recipient: { name: 'João', cpf: CPF }, key: { type: 'CPF', value: CPF }, amount });
    // 2^53 cents, 2^53 + 1 cents, ten times 2^53, and far beyond.
    for (const amount of ['90071992547409.92', '90071992547409.93', '900719925474099.2', '99999999999999999999.99']) {
      const cashOut = await server.json('POST', '/api/admin/cashouts', body(amount), { ...auth, 'idempotency-key': `big-${randomUUID()}` });
      expect({ amount, status: cashOut.status, body: cashOut.body }).toEqual({
        amount,
        status: 400,
        body: {
          ...envelope('invalid_request'),
          error: expect.objectContaining({ details: [expect.objectContaining({ path: '/amount' })] }),
        },
      });
      const quote = await server.json('GET', `/api/admin/cashouts/quote?amount=${amount}`, undefined, auth);
      expect({ amount, status: quote.status, code: quote.body.error?.code }).toEqual({ amount, status: 400, code: 'invalid_request' });
    }
    // 2^53 - 1 cents is a number the BFF can hold: it reaches the provider, whose own maximum refuses it with a 4xx.
    const largest = await server.json('POST', '/api/admin/cashouts', body('90071992547409.91'), {
      ...auth,
      'idempotency-key': randomUUID(),
    });
    expect(largest.status).toBeGreaterThanOrEqual(400);
    expect(largest.status).toBeLessThan(500);
  });

  it('refuses a back-office list cursor that carries a control character with 400 invalid_cursor', async () => {
    const auth = { authorization: `Bearer ${ADMIN_TOKEN}` };
    const cursor = (id: string) => Buffer.from(JSON.stringify(['2026-01-15T12:00:00.000Z', id])).toString('base64url');
    for (const id of ['co_\u0000', '\u0000', 'co_a\nb', 'co_\u001f', 'co_\u007f', 'co_\ud800']) {
      const res = await server.json('GET', `/api/admin/checkouts?cursor=${cursor(id)}`, undefined, auth);
      expect({ id, status: res.status, body: res.body }).toEqual({ id, status: 400, body: envelope('invalid_cursor') });
    }
    // A cursor the list gave is still taken.
    const page = await server.json('GET', '/api/admin/checkouts?limit=10', undefined, auth);
    expect(page.status).toBe(200);
    expect((await server.json('GET', `/api/admin/checkouts?cursor=${cursor('co_x')}`, undefined, auth)).status).toBe(200);
  });

  it("refuses a demo order id with a control character before any query (the sandbox panel's late payment)", async () => {
    for (const id of ['%00', 'A-1%00', '%0A', 'A%1F1', '%7F']) {
      const res = await server.json('POST', `/demo/api/orders/${id}/pay-expired`);
      expect({ id, status: res.status, type: res.headers.get('content-type'), body: res.body }).toEqual({
        id,
        status: 400,
        type: expect.stringMatching(/^application\/json/),
        body: envelope('invalid_request'),
      });
    }
    expect((await server.json('POST', '/demo/api/orders/A-NOPE/pay-expired')).body).toEqual(envelope('checkout_not_found'));
  });

  it("answers a method the demo's sandbox-admin proxy cannot forward (TRACE) with a 405 envelope", async () => {
    const auth = { authorization: `Bearer ${ADMIN_TOKEN}` };
    for (const method of ['TRACE', 'PROPFIND', 'PATCH', 'OPTIONS']) {
      const res = await rawRequest(
        server.url,
        `${method} /demo/api/sandbox-admin/company-webhook HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: ${auth.authorization}\r\nConnection: close\r\n\r\n`,
        { untilClose: true },
      );
      expect({ method, status: res.status, type: res.headers['content-type'] }).toEqual({
        method,
        status: 405,
        type: expect.stringMatching(/^application\/json/),
      });
      expect(JSON.parse(res.body)).toEqual(envelope('method_not_allowed'));
      expect(res.headers.allow).toBe('GET, HEAD, POST, PUT, DELETE');
    }
    // What it forwards still works.
    expect((await server.json('GET', '/demo/api/sandbox-admin/company-webhook', undefined, auth)).status).toBe(200);
  });

  it('refuses a webhook whose transaction id is longer than any provider id (128) with 400, not a 503 retried forever', async () => {
    const post = (id: string) =>
      server.json(
        'POST',
        '/api/webhooks/provider',
        { id, transactionState: 'Completed', transactionAmount: '1.00', transactionType: 'Credit' },
        { [WEBHOOK_HEADER]: server.config.webhookSecret },
      );
    for (const id of ['x'.repeat(129), 'x'.repeat(10_240), 'é'.repeat(5_000)]) {
      const res = await post(id);
      expect({ length: id.length, status: res.status, body: res.body }).toEqual({
        length: id.length,
        status: 400,
        body: envelope('invalid_webhook'),
      });
    }
    // An id of the longest length still reads as one the provider may have: unknown to it, so ignored.
    expect(await post('x'.repeat(128))).toMatchObject({ status: 200, body: { statusCode: 'Done', data: { outcome: 'ignored' } } });
  });

  it('answers a path with a backslash, a malformed request and an unknown path with the envelope in JSON', async () => {
    const backslash = await rawRequest(server.url, 'GET /api\\checkouts HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
    expect(backslash.status).toBe(400);
    expect(backslash.headers['content-type']).toMatch(/^application\/json/);
    expect(backslash.headers['x-content-type-options']).toBe('nosniff');
    expect(JSON.parse(backslash.body)).toEqual(envelope('bad_request'));

    const badAbsoluteUrl = await rawRequest(server.url, 'GET http://[::1/api HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
    expect(badAbsoluteUrl.status).toBe(400);
    expect(JSON.parse(badAbsoluteUrl.body)).toEqual(envelope('bad_request'));

    // Refused by Node's own parser (a space in the target), answered in JSON too.
    const unparsable = await rawRequest(server.url, 'GET /a b c HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n', { untilClose: true });
    expect(unparsable.status).toBe(400);
    expect(unparsable.headers['content-type']).toBe('application/json');
    expect(JSON.parse(unparsable.body)).toEqual(envelope('bad_request'));
    expect(unparsable.closed).toBe(true);

    for (const path of ['/nope', '/api/nope', '/api/checkouts/%zz']) {
      const res = await server.json('GET', path);
      expect(res.status === 404 || res.status === 400).toBe(true);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      expect(res.body).toEqual(envelope(res.status === 404 ? expect.any(String) : 'invalid_request'));
    }
  });

  it('answers a CONNECT (which Node keeps from the app) with a 405 envelope and closes, and stays healthy', async () => {
    for (const target of ['127.0.0.1:443', 'shop.example:443', '/api/checkouts']) {
      const answer = await rawRequest(server.url, `CONNECT ${target} HTTP/1.1\r\nHost: ${target}\r\n\r\n`, { untilClose: true });
      expect({ target, status: answer.status, type: answer.headers['content-type'] }).toEqual({
        target,
        status: 405,
        type: 'application/json',
      });
      expect(JSON.parse(answer.body)).toEqual(envelope('method_not_allowed'));
      expect(answer.headers['x-content-type-options']).toBe('nosniff');
      expect(answer.closed).toBe(true);
    }
    expect((await server.json('GET', '/healthz')).status).toBe(200);
  });
});

describe('state-changing routes take JSON only', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ env: { ADMIN_TOKEN } });
  });
  afterAll(() => server?.close());

  it('refuses POST /api/checkouts sent as text/plain (a cross-site "simple" request) with 415 and creates nothing', async () => {
    const body = JSON.stringify(await creation(server));
    const origin = { origin: 'https://attacker.example' };
    for (const type of ['text/plain', 'text/plain;charset=UTF-8', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x']) {
      const res = await fetch(`${server.url}/api/checkouts`, { method: 'POST', headers: { 'content-type': type, ...origin }, body });
      expect(res.status).toBe(415);
      expect(await res.json()).toEqual(envelope('unsupported_media_type'));
    }
    const untyped = await fetch(`${server.url}/api/checkouts`, { method: 'POST', body: new Blob([body]) });
    expect(untyped.status).toBe(415);
    // The same body as JSON is the first to create the checkout: nothing was made before.
    const json = await server.json('POST', '/api/checkouts', body, { 'content-type': 'application/json; charset=utf-8' });
    expect(json.status).toBe(201);
  });

  it('reads a text/plain create as JSON only from an allowed storefront origin (no preflight for the element)', async () => {
    const shop = await startTestServer({ env: { ADMIN_TOKEN, ALLOWED_ORIGINS: 'https://shop.example' } });
    try {
      const plain = (body: string, headers: Record<string, string>) =>
        fetch(`${shop.url}/api/checkouts`, { method: 'POST', headers: { 'content-type': 'text/plain;charset=UTF-8', ...headers }, body });
      const body = JSON.stringify(await creation(shop));
      // A form or a script from anywhere else: no Origin, an opaque one, another site, the BFF's own page.
      const elsewhere: Record<string, string>[] = [
        {},
        { origin: 'null' },
        { origin: 'https://attacker.example' },
        { origin: new URL(shop.url).origin },
      ];
      for (const headers of elsewhere) {
        const res = await plain(body, headers);
        expect(res.status).toBe(415);
        expect(await res.json()).toEqual(envelope('unsupported_media_type'));
      }
      const fromShop = await plain(body, { origin: 'https://shop.example' });
      expect(fromShop.status).toBe(201);
      expect(fromShop.headers.get('access-control-allow-origin')).toBe('https://shop.example');
      const created = (await fromShop.json()) as { id: string; orderId: string; transactionId: string };
      expect(created.orderId).toBe(JSON.parse(body).orderId);
      // The refused attempts made nothing: the order has this one checkout, and asking again returns it.
      const again = await plain(body, { origin: 'https://shop.example' });
      expect(again.status).toBe(200);
      expect(((await again.json()) as { id: string }).id).toBe(created.id);
      // The body rules are those of JSON: a broken body is a 400, not a 500.
      const broken = await plain('{"orderId":', { origin: 'https://shop.example' });
      expect(broken.status).toBe(400);
      expect(await broken.json()).toEqual(envelope('invalid_json'));
      // Only the create: the back-office stays JSON-only even from the storefront's origin.
      const cashOut = await fetch(`${shop.url}/api/admin/cashouts`, {
        method: 'POST',
        headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'text/plain', origin: 'https://shop.example' },
        body: '{}',
      });
      expect(cashOut.status).toBe(415);
    } finally {
      await shop.close();
    }
  });

  it('applies to the back-office too, while the invoice keeps application/pdf and the authenticated webhook is read whatever its type', async () => {
    const auth = { authorization: `Bearer ${ADMIN_TOKEN}` };
    const cashOut = await fetch(`${server.url}/api/admin/cashouts`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'text/plain' },
      body: JSON.stringify({ recipient: { name: 'J', cpf: CPF }, key: { type: 'CPF', value: CPF }, amount: '1.00' }),
    });
    expect(cashOut.status).toBe(415);
    const webhook = await fetch(`${server.url}/api/webhooks/provider`, {
      method: 'POST',
      headers: { [WEBHOOK_HEADER]: server.config.webhookSecret, 'content-type': 'text/plain' },
      body: '{}',
    });
    // Read as JSON (the secret header proves the sender), then refused as no webhook event.
    expect(webhook.status).toBe(400);
    // A bodiless action (cancel) still needs no content type; it fails further on, for the unknown id.
    const cancel = await fetch(`${server.url}/api/admin/payment-requests/nope/cancel`, { method: 'POST', headers: auth });
    expect(cancel.status).not.toBe(415);
    const invoiceAsJson = await fetch(`${server.url}/api/admin/payment-requests/nope/invoice`, {
      method: 'PUT',
      headers: { ...auth, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(invoiceAsJson.status).toBe(415);
    expect((await invoiceAsJson.json()).error.code).toBe('pdf_required');
  });
});

describe('limits per client address', () => {
  it('accepts only SSE_MAX_PER_CLIENT streams from one address, and the server stays healthy', async () => {
    const server = await startTestServer({ env: { SSE_MAX_PER_CLIENT: '20', SSE_MAX_TOTAL: '1000' } });
    const open: SseConnection[] = [];
    try {
      const checkout = await newCheckout(server);
      const url = `${server.url}/api/checkouts/${checkout.id}/events`;
      const attempts = await Promise.all(Array.from({ length: 40 }, () => openSse(url)));
      open.push(...attempts.filter((a) => a.status === 200));
      const refused = attempts.filter((a) => a.status !== 200);
      expect(open).toHaveLength(20);
      expect(new Set(refused.map((r) => r.status))).toEqual(new Set([429]));
      expect(Number(refused[0]!.headers.get('retry-after'))).toBeGreaterThan(0);
      refused.forEach((r) => r.close());
      const one = await fetch(url);
      expect(one.status).toBe(429);
      expect(await one.json()).toEqual(envelope('too_many_streams'));
      expect((await server.json('GET', '/healthz')).status).toBe(200);
      // The accepted ones still stream.
      for (const sse of open.slice(0, 3)) expect((await sse.next())?.retry).toBeGreaterThan(0);

      // Leaving frees the slot.
      open.pop()!.close();
      await expect.poll(async () => (await openSse(url).then((s) => (open.push(s), s.status))) === 200, { timeout: 5_000 }).toBe(true);
    } finally {
      open.forEach((s) => s.close());
      await server.close();
    }
  });

  it('refuses the 6th checkout creation in a minute from one address with 429 and Retry-After, making no transaction', async () => {
    const server = await startTestServer({ env: { CHECKOUT_RATE_PER_MINUTE: '5' } });
    try {
      for (let i = 0; i < 5; i++) expect((await server.json('POST', '/api/checkouts', await creation(server))).status).toBe(201);
      const sixth = await creation(server);
      // X-Forwarded-For is not believed without TRUST_PROXY, and the CORS answer lets the element read the refusal.
      const refused = await server.json('POST', '/api/checkouts', sixth, { 'x-forwarded-for': '198.51.100.7', origin: server.url });
      expect(refused.status).toBe(429);
      expect(refused.body).toEqual(envelope('rate_limited'));
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(refused.headers.get('access-control-allow-origin')).toBe(server.url);
      const transactions = await server.provider.transactions.list({
        transactionOrderId: sixth.orderId,
        startDate: new Date(Date.now() - 3_600_000).toISOString(),
        endDate: new Date(Date.now() + 60_000).toISOString(),
        'dataset.limit': 5,
        'dataset.offset': 0,
      });
      expect(transactions.items ?? []).toHaveLength(0);
      // Reading is not limited.
      expect((await server.json('GET', '/healthz')).status).toBe(200);
    } finally {
      await server.close();
    }
  });
});

describe('slow clients', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({
      env: { ADMIN_TOKEN, BODY_TIMEOUT_MS: '400', REQUEST_TIMEOUT_MS: '1500' },
      start: { tuning: { heartbeatMs: 100 } },
    });
  });
  afterAll(() => server?.close());

  it('gives a JSON body BODY_TIMEOUT_MS to arrive, then answers 408 and closes', async () => {
    const head = `POST /api/checkouts HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n`;
    const started = Date.now();
    const answer = await rawRequest(server.url, head + '{"orderId":', { waitMs: 3_000, untilClose: true });
    expect(answer.status).toBe(408);
    expect(JSON.parse(answer.body)).toEqual(envelope('body_timeout'));
    expect(answer.closed).toBe(true);
    expect(Date.now() - started).toBeLessThan(2_500);

    // Chunked, with no length: the same deadline.
    const chunked = `POST /api/checkouts HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n`;
    const trickle = await rawRequest(server.url, chunked + '1\r\n{\r\n', { waitMs: 3_000 });
    expect(trickle.status).toBe(408);
  });

  it('gives headers BODY_TIMEOUT_MS and a whole request REQUEST_TIMEOUT_MS, answering 408 in JSON', async () => {
    const slowHeaders = await rawRequest(server.url, 'GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n', { waitMs: 3_000 });
    expect(slowHeaders.status).toBe(408);
    expect(JSON.parse(slowHeaders.body)).toEqual(envelope('request_timeout'));

    // The demo's own API meets the BFF's body deadline too (it used to wait for Node's request timeout); a whole
    // request's REQUEST_TIMEOUT_MS is the slow invoice upload's, below.
    const head = `POST /demo/api/orders HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n`;
    const started = Date.now();
    const stalled = await rawRequest(server.url, head + '{"items":', { waitMs: 4_000, untilClose: true });
    expect(stalled.status).toBe(408);
    expect(JSON.parse(stalled.body)).toEqual(envelope('body_timeout'));
    expect(stalled.closed).toBe(true);
    expect(Date.now() - started).toBeLessThan(1_400);
  });

  it('answers 408 body_timeout in the envelope on every demo route that reads a body, the merchant receiver too', async () => {
    const auth = `Authorization: Bearer ${ADMIN_TOKEN}\r\n`;
    const routes = [
      ['/demo/api/merchant-webhooks', '{"id":'],
      ['/demo/api/orders', '{"items":'],
      ['/demo/api/sandbox-admin/cashouts', '{"amount":'],
    ] as const;
    for (const [path, part] of routes) {
      const head = `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n${auth}Content-Type: application/json\r\nContent-Length: 100\r\n\r\n`;
      const answer = await rawRequest(server.url, head + part, { waitMs: 4_000, untilClose: true });
      expect({ path, status: answer.status, type: answer.headers['content-type'] }).toEqual({
        path,
        status: 408,
        type: expect.stringMatching(/^application\/json/),
      });
      expect(JSON.parse(answer.body)).toEqual(envelope('body_timeout'));
      expect(answer.closed).toBe(true);
    }
  });

  it('keeps an event stream open well past REQUEST_TIMEOUT_MS', async () => {
    const checkout = await newCheckout(server);
    const sse = await openSse(`${server.url}/api/checkouts/${checkout.id}/events`);
    expect(sse.status).toBe(200);
    await sse.next();
    await sse.next();
    await sse.readFor(2_500);
    expect(sse.comments.filter((c) => c === 'heartbeat').length).toBeGreaterThanOrEqual(10);
    // Still open: the next heartbeat arrives.
    const before = sse.comments.length;
    await sse.readFor(300);
    expect(sse.comments.length).toBeGreaterThan(before);
    sse.close();
  });
});

describe('a client that leaves mid-body', () => {
  /** The request log's lines: their fields (server/http/request-log.ts). */
  const lines: { method?: string; path?: string; status?: number; ms?: number }[] = [];
  const problems: unknown[][] = [];
  let server: TestServer;
  beforeAll(async () => {
    const log = {
      log: (fields: unknown) => void (typeof fields === 'object' && fields !== null && lines.push(fields)),
      warn: (...args: unknown[]) => problems.push(args),
      error: (...args: unknown[]) => problems.push(args),
    };
    server = await startTestServer({ env: { ADMIN_TOKEN }, start: { log } });
  });
  afterAll(() => server?.close());

  /** Sends the head of a POST and part of its body, then closes the connection. */
  async function leaveMidBody(path: string, headers = '') {
    const { port } = new URL(server.url);
    const socket = connect(Number(port), '127.0.0.1');
    socket.on('error', () => undefined);
    await new Promise((resolve) => socket.once('connect', resolve));
    socket.write(
      `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n${headers}Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{"a":`,
    );
    // Its head is in (the route is reading the body) before the client goes.
    await new Promise((resolve) => setTimeout(resolve, 100));
    socket.destroy();
  }

  it('is logged as one quiet 499 line on the API, the webhook, the demo and the emulator: no stack, no 500', async () => {
    // The emulator tells what it did not expect on the console, not through the server's log.
    const consoleErrors = vi.spyOn(console, 'error');
    const routes: [string, string][] = [
      ['/api/checkouts', ''],
      ['/api/webhooks/provider', `${WEBHOOK_HEADER}: ${server.config.webhookSecret}\r\n`],
      ['/demo/api/orders', ''],
      ['/demo/api/merchant-webhooks', ''],
      ['/demo/api/sandbox-admin/cashouts', `Authorization: Bearer ${ADMIN_TOKEN}\r\n`],
      ['/sandbox/v1/partners-int/login', ''],
    ];
    for (const [path, headers] of routes) {
      await leaveMidBody(path, headers);
      const line = async () => lines.find((l) => l.method === 'POST' && l.path === path);
      await vi.waitFor(async () => expect(await line()).toBeDefined(), { timeout: 3_000 });
      expect(await line()).toEqual({ method: 'POST', path, status: 499, ms: expect.any(Number) });
    }
    expect(problems).toEqual([]);
    expect(consoleErrors).not.toHaveBeenCalled();
    consoleErrors.mockRestore();
    expect((await server.json('GET', '/healthz')).status).toBe(200);
  });
});

describe('a slow invoice upload', () => {
  let server: TestServer;
  beforeAll(async () => {
    // The provider's upload window (4 × its timeout: 1 s here, 60 s by default) closes before REQUEST_TIMEOUT_MS.
    server = await startTestServer({ env: { ADMIN_TOKEN, REQUEST_TIMEOUT_MS: '10000' }, start: { tuning: { providerTimeoutMs: 250 } } });
  });
  afterAll(() => server?.close());

  it('answers 408 request_timeout when the file does not arrive in time (not the 504 of the provider giving up)', async () => {
    const auth = `Bearer ${ADMIN_TOKEN}`;
    const created = await server.json(
      'POST',
      '/api/admin/payment-requests',
      { amount: '1.00', description: 'Slow invoice', receiverId: 'c0a000000000000000000001', accountId: 'acc000000000000000000001' },
      { authorization: auth },
    );
    expect(created.status).toBe(201);
    const id = (created.body.data?.id ?? created.body.id) as string;
    const head =
      `PUT /api/admin/payment-requests/${id}/invoice HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: ${auth}\r\n` +
      'Content-Type: application/pdf\r\nX-File-Name: nota.pdf\r\nContent-Length: 1000\r\n\r\n';
    const started = Date.now();
    const answer = await rawRequest(server.url, `${head}%PDF-1.4\n`, { waitMs: 5_000, untilClose: true });
    expect({ status: answer.status, body: JSON.parse(answer.body) }).toEqual({ status: 408, body: envelope('request_timeout') });
    expect(answer.headers.connection).toBe('close');
    expect(answer.closed).toBe(true);
    expect(Date.now() - started).toBeLessThan(4_000);
  });
});

describe('an invoice upload that stops', () => {
  let server: TestServer;
  beforeAll(async () => {
    // The provider's upload window is the default (minutes): only the silence between chunks can end this one.
    server = await startTestServer({ env: { ADMIN_TOKEN, BODY_TIMEOUT_MS: '400', REQUEST_TIMEOUT_MS: '60000' } });
  });
  afterAll(() => server?.close());

  it('answers 408 request_timeout BODY_TIMEOUT_MS after the last byte, not when the provider gives up', async () => {
    const auth = `Bearer ${ADMIN_TOKEN}`;
    const created = await server.json(
      'POST',
      '/api/admin/payment-requests',
      { amount: '1.00', description: 'Stopped invoice', receiverId: 'c0a000000000000000000001', accountId: 'acc000000000000000000001' },
      { authorization: auth },
    );
    expect(created.status).toBe(201);
    const id = (created.body.data?.id ?? created.body.id) as string;
    const head =
      `PUT /api/admin/payment-requests/${id}/invoice HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: ${auth}\r\n` +
      'Content-Type: application/pdf\r\nX-File-Name: nota.pdf\r\nContent-Length: 4092\r\n\r\n';
    const started = Date.now();
    const answer = await rawRequest(server.url, `${head}%PDF-1.4\n`, { waitMs: 8_000, untilClose: true });
    expect({ status: answer.status, body: JSON.parse(answer.body) }).toEqual({ status: 408, body: envelope('request_timeout') });
    expect(answer.closed).toBe(true);
    expect(Date.now() - started).toBeLessThan(6_000);
  });
});

describe('security headers', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server?.close());

  const basics = (headers: Headers) => ({
    nosniff: headers.get('x-content-type-options'),
    referrer: headers.get('referrer-policy'),
    frames: headers.get('x-frame-options'),
  });
  const expected = { nosniff: 'nosniff', referrer: 'no-referrer', frames: 'DENY' };

  it('are on every answer of the BFF and the demo, with a CSP on every page', async () => {
    const checkout = await newCheckout(server);
    const paths = ['/', '/checkout.html', '/backoffice.html', '/healthz', '/api/checkouts/nope', `/api/checkouts/${checkout.id}`, '/nope'];
    for (const path of paths) {
      const res = await fetch(server.url + path);
      await res.arrayBuffer();
      expect({ path, ...basics(res.headers) }).toEqual({ path, ...expected });
      const type = res.headers.get('content-type') ?? '';
      const csp = res.headers.get('content-security-policy') ?? '';
      if (type.startsWith('text/html')) expect(csp).toContain("script-src 'self'");
      if (type.startsWith('application/json')) expect(csp).toContain("default-src 'none'");
    }
    const stream = await openSse(`${server.url}/api/checkouts/${checkout.id}/events`);
    expect(basics(stream.headers)).toEqual(expected);
    stream.close();
  });

  // The element is built by `npm run build` (npm test and test:e2e build it; test:server alone may run without).
  it.skipIf(!existsSync(fileURLToPath(new URL('../../../dist/widget/pix-checkout.js', import.meta.url))))(
    'let other origins load the element as a module script (no restrictive Cross-Origin-Resource-Policy)',
    async () => {
      const res = await fetch(`${server.url}/widget/pix-checkout.js`, { headers: { origin: 'https://shop.example' } });
      await res.arrayBuffer();
      expect(res.status).toBe(200);
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('referrer-policy')).toBe('no-referrer');
      expect(res.headers.get('cross-origin-resource-policy') ?? 'cross-origin').toBe('cross-origin');
      // Headers that govern documents only are left off a script (they cost bytes on every cold load).
      for (const name of ['x-frame-options', 'cross-origin-opener-policy', 'origin-agent-cluster', 'x-xss-protection']) {
        expect(res.headers.get(name), name).toBeNull();
      }
    },
  );

  it('let storefronts read the public checkout API, and keep the back-office same-origin', async () => {
    const api = await fetch(`${server.url}/api/checkouts/nope`);
    expect(api.headers.get('cross-origin-resource-policy') ?? 'cross-origin').toBe('cross-origin');
    const admin = await fetch(`${server.url}/api/admin/balance`);
    expect(admin.status).toBe(401);
    expect(admin.headers.get('cross-origin-resource-policy')).toBe('same-origin');
  });
});
