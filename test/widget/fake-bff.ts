// A fake BFF for the widget tests, mounted as middleware of the test runner's dev server so the element does real
// fetch and EventSource. It follows the checkout contract (create, get, SSE, the order's checkout): its checkouts are
// the contract's wire type and its refusals the contract's envelope, with the contract's statuses (core/contract.ts),
// so tsc fails here when the contract moves. The runner's config loads it through fake-bff.mjs. Tests drive it:
//
// Scenarios, by order id prefix:
//   missing-…  POST and lookup → 404 order_not_found  paid-…    POST → 409 order_already_paid (a code the element does not know)
//   down-…     POST → 502 provider_unavailable     flaky-…   first POST → 502, later ones succeed
//   badcpf-…   POST → 422 payer_cpf_invalid        nosse-…   the event stream answers 500 (the element must poll)
//   slow-…     POST answers after 1 s (to look at the loading screen)
//   blip-…     no stream; GET #1 takes 2.5 s and answers 502, GET #2 drops the connection, later GETs succeed
//   nopayer-…  POST → 422 payer_required           lookupfail-… /orders/:id/checkout → 503 server_busy
//   skew-…     the server's clock (Date header, createdAt, expiresAt) runs 10 minutes ahead of the browser's
//   err-<status>-<code>-…  POST → that status and code, with the message "SERVER TEXT <code>"
// CPFs refused like the emulator's: 900.000.001-75 → 422 payer_refused, 900.000.003-37 → 422 payer_cpf_invalid.
// A page on another origin (the runner's page asking the same server under its other name, localhost or 127.0.0.1) is
// refused before any route as the real BFF refuses an origin missing from ALLOWED_ORIGINS: 403 origin_not_allowed,
// readable by that page (Access-Control-Allow-Origin: *), when the browser marks the request as cross-origin.
// Order tokens, checked first as the real BFF does: "token:<orderId>" is valid, "expired:<orderId>" answers
// 403 order_token_expired, none 401 order_token_required, anything else 403 order_token_invalid. The order lookup
// takes the token in X-Order-Token and answers 204 when the order has nothing to resume.
// A checkout's payment window is 30 minutes. Expired is not settled: the stream stays open and a late Completed wins.
// Test-only routes:
//   POST /__fake/checkouts/:id/state  {"state": "Completed", "expiresAt"?, "paidAt"?, "payerBank"?, "receiptVoucher"?}
//        sets the fields and pushes the checkout to open streams
//   GET  /__fake/log?orderId=…        the requests seen for that order, plus the most overlapping GETs
//   GET  /__fake/bank/:id              stands in for the bank page (never visited: tests cancel the redirect)

import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Context, Next } from 'koa';
import QRCode from 'qrcode';
import { SHOPPER_ERRORS, type CheckoutWire, type ErrorEnvelope, type QrMatrix, type ShopperErrorCode } from '../../core/contract';
import { METHODS, type Method } from '../../core/methods';

const API = '/api/checkouts';
const SETTLED = new Set(['Completed', 'Error', 'Cancelled', 'Reversed']);
const RESERVING = new Set(['Created', 'Registered', 'Completed']);
const WINDOW_MS = 30 * 60 * 1000;
const SKEW_MS = 10 * 60 * 1000;
const REFUSED_CPFS: Record<string, ShopperErrorCode> = { 90000000175: 'payer_refused', 90000000337: 'payer_cpf_invalid' };

interface Payer {
  cpf: string;
  name?: string;
}

/** A checkout as the fake keeps it: the wire shape, plus what the real BFF keeps to itself. */
interface FakeCheckout extends CheckoutWire {
  version: number;
  payer?: Payer;
  returnUrl?: string;
}

interface CreateBody {
  orderId: string;
  method: Method;
  orderToken?: unknown;
  payer?: Payer;
  returnUrl?: string;
}

interface Log {
  requests: unknown[];
  gets: number;
  inFlight: number;
  maxInFlight: number;
  posts: number;
  lookups: number;
}

/** Checkouts by id. */
const checkouts = new Map<string, FakeCheckout>();
/** Open event streams by checkout id. */
const streams = new Map<string, Set<ServerResponse>>();
const logs = new Map<string, Log>();
let sequence = 0;

const emptyLog = (): Log => ({ requests: [], gets: 0, inFlight: 0, maxInFlight: 0, posts: 0, lookups: 0 });
const scenario = (orderId: string) => /^([a-z]+)-/.exec(orderId)?.[1] ?? '';
/** The fake server's clock: ahead of the browser's for skew-… orders. */
const serverNow = (orderId: string) => Date.now() + (scenario(orderId) === 'skew' ? SKEW_MS : 0);

function logFor(orderId: string): Log {
  let log = logs.get(orderId);
  if (!log) logs.set(orderId, (log = emptyLog()));
  return log;
}

function send(ctx: Context, status: number, body: unknown, orderId = '') {
  ctx.status = status;
  ctx.set('cache-control', 'no-store');
  if (scenario(orderId) === 'skew') ctx.set('date', new Date(serverNow(orderId)).toUTCString());
  ctx.body = body;
}

/** Any refusal, codes the contract does not know included (the element must cope with those too). */
function fail(ctx: Context, status: number, code: string, message: string) {
  const body: ErrorEnvelope = { statusCode: 'Error', error: { name: 'CheckoutError', message, code } };
  send(ctx, status, body);
}

/** A refusal of the contract, with its status. */
const refuse = (ctx: Context, code: ShopperErrorCode, message: string) => fail(ctx, SHOPPER_ERRORS[code], code, message);

async function readJson(req: IncomingMessage): Promise<any> {
  let text = '';
  for await (const chunk of req) text += String(chunk);
  try {
    return JSON.parse(text || '{}');
  } catch {
    return undefined;
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function writeEvent(res: ServerResponse, checkout: FakeCheckout) {
  const { qrMatrix: _qrMatrix, ...snapshot } = publicView(checkout);
  res.write(`event: status\nid: ${checkout.version}\ndata: ${JSON.stringify(snapshot)}\n\n`);
}

/** The QR symbol as the BFF sends it (server/lib/qr/matrix.ts): base64 of the dark modules, one bit each. */
function qrMatrixOf(text: string): QrMatrix {
  const { size, data } = QRCode.create([{ data: Buffer.from(text, 'utf8'), mode: 'byte' }], { errorCorrectionLevel: 'M' }).modules;
  const bytes = Buffer.alloc(Math.ceil((size * size) / 8));
  for (let i = 0; i < size * size; i++) if (data[i]) bytes[i >> 3]! |= 0x80 >> (i & 7);
  return { size, modules: bytes.toString('base64') };
}

/** What the REST routes answer; event-stream snapshots (writeEvent) carry no QR symbol, like the BFF's. */
function publicView(checkout: FakeCheckout): CheckoutWire {
  const { version: _version, payer: _payer, returnUrl: _returnUrl, ...rest } = checkout;
  return rest.qrCode ? { ...rest, qrMatrix: qrMatrixOf(rest.qrCode) } : rest;
}

function createCheckout(body: CreateBody): FakeCheckout {
  const id = `chk_${Math.random().toString(36).slice(2, 12)}`;
  const now = serverNow(body.orderId);
  const checkout: FakeCheckout = {
    id,
    orderId: body.orderId,
    method: body.method,
    state: 'Registered',
    amount: '1234.50',
    currency: 'BRL',
    description: `Pedido ${body.orderId}`,
    transactionId: `tx_${++sequence}`,
    createdAt: new Date(now).toISOString(),
    updatedAt: new Date(now).toISOString(),
    expiresAt: new Date(now + WINDOW_MS).toISOString(),
    version: 1,
    ...(body.payer ? { payer: body.payer } : {}),
    ...(body.returnUrl ? { returnUrl: body.returnUrl } : {}),
  };
  if (body.method === 'pix') {
    checkout.qrCode = `00020101021226860014br.gov.bcb.pix2564qr.example.com/pix/v2/${id}5204000053039865802BR5913LOJA EXEMPLO6009SAO PAULO62070503***6304E439`;
    checkout.qrCodeLocation = `https://qr.example.com/pix/v2/${id}`;
  } else {
    checkout.checkoutUrl = `/__fake/bank/${id}`;
  }
  checkouts.set(id, checkout);
  return checkout;
}

/** The token check of both routes that need one; true when the request may go on. */
function checkToken(ctx: Context, orderId: string, token: unknown): boolean {
  if (token === undefined || token === null || token === '') {
    refuse(ctx, 'order_token_required', 'This order needs the order token from the shop.');
    return false;
  }
  if (token === `expired:${orderId}`) {
    refuse(ctx, 'order_token_expired', 'The order token has expired.');
    return false;
  }
  if (token !== `token:${orderId}`) {
    refuse(ctx, 'order_token_invalid', 'The order token is not valid for this order.');
    return false;
  }
  return true;
}

/** The order's checkout that holds it (live or Completed), the newest first. */
const holderOf = (orderId: string) => [...checkouts.values()].reverse().find((c) => c.orderId === orderId && RESERVING.has(c.state));

async function handleCreate(ctx: Context) {
  const body = (await readJson(ctx.req)) as CreateBody | undefined;
  if (!body || typeof body.orderId !== 'string' || !METHODS.includes(body.method)) {
    return refuse(ctx, 'invalid_request', 'Invalid request body');
  }
  const log = logFor(body.orderId);
  log.requests.push({ method: 'POST', path: ctx.path, body });
  log.posts++;
  if (!checkToken(ctx, body.orderId, body.orderToken)) return;
  const forced = /^err-(\d{3})-([a-z_]+)-/.exec(body.orderId);
  if (forced) return fail(ctx, Number(forced[1]), forced[2]!, `SERVER TEXT ${forced[2]}`);
  switch (scenario(body.orderId)) {
    case 'missing':
      return refuse(ctx, 'order_not_found', `Pedido ${body.orderId} não encontrado`);
    case 'paid':
      return fail(ctx, 409, 'order_already_paid', 'Este pedido já foi pago');
    case 'down':
      return refuse(ctx, 'provider_unavailable', 'Provedor de pagamentos indisponível');
    case 'badcpf':
      return refuse(ctx, 'payer_cpf_invalid', 'CPF do pagador inválido');
    case 'nopayer':
      return refuse(ctx, 'payer_required', 'Open Finance needs the payer CPF.');
    case 'flaky':
      if (log.posts === 1) return refuse(ctx, 'provider_unavailable', 'Provedor de pagamentos indisponível');
      break;
    case 'preparing':
      // The real BFF answers this once a create outlasts its deadline, and goes on making the checkout.
      if (log.posts <= 2) return refuse(ctx, 'checkout_pending', 'The payment is still being prepared.');
      break;
    case 'slow':
      await sleep(1000);
  }
  const refusal = body.payer && REFUSED_CPFS[body.payer.cpf];
  if (refusal) return refuse(ctx, refusal, 'The provider refused this CPF.');
  const holder = holderOf(body.orderId);
  if (holder) return send(ctx, 200, publicView(holder), body.orderId);
  send(ctx, 201, publicView(createCheckout(body)), body.orderId);
}

/** The order lookup: a GET with the token in `X-Order-Token`, or a POST with `{ orderToken }` (what the element sends). */
async function handleLookup(ctx: Context, orderId: string) {
  const token: unknown = ctx.method === 'POST' ? (await readJson(ctx.req))?.orderToken : ctx.get('x-order-token');
  const log = logFor(orderId);
  log.requests.push({ method: ctx.method, path: ctx.path, token });
  log.lookups++;
  if (!checkToken(ctx, orderId, token)) return;
  if (scenario(orderId) === 'lookupfail') return refuse(ctx, 'server_busy', 'Busy');
  const holder = holderOf(orderId);
  // An order the shop does not know is order_not_found, as the real BFF checks it before an empty answer.
  if (!holder && scenario(orderId) === 'missing') return refuse(ctx, 'order_not_found', `Pedido ${orderId} não encontrado`);
  // Nothing to resume is an empty 204, as the real BFF answers it.
  if (!holder) return void (ctx.status = 204);
  send(ctx, 200, publicView(holder), orderId);
}

async function handleGet(ctx: Context, checkout: FakeCheckout) {
  const log = logFor(checkout.orderId);
  log.requests.push({ method: 'GET', path: ctx.path });
  const nth = ++log.gets;
  log.inFlight++;
  log.maxInFlight = Math.max(log.maxInFlight, log.inFlight);
  try {
    if (scenario(checkout.orderId) === 'blip' && nth === 1) {
      await sleep(2500);
      return refuse(ctx, 'provider_unavailable', 'Try later');
    }
    if (scenario(checkout.orderId) === 'blip' && nth === 2) {
      ctx.status = 200; // only for the runner's request log: the socket is gone before any answer
      ctx.respond = false;
      ctx.req.socket.destroy();
      return;
    }
    send(ctx, 200, publicView(checkout), checkout.orderId);
  } finally {
    log.inFlight--;
  }
}

function handleEvents(ctx: Context, checkout: FakeCheckout) {
  const log = logFor(checkout.orderId);
  log.requests.push({ method: 'GET', path: ctx.path, lastEventId: ctx.get('last-event-id') });
  if (['nosse', 'blip'].includes(scenario(checkout.orderId))) return fail(ctx, 500, 'internal', 'No stream');
  // Written straight to the socket: Koa must neither buffer nor post-process a never-ending body.
  ctx.status = 200;
  ctx.respond = false;
  const res = ctx.res;
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store', connection: 'keep-alive' });
  res.write(': connected\n\n');
  writeEvent(res, checkout);
  if (SETTLED.has(checkout.state)) return res.end();
  let open = streams.get(checkout.id);
  if (!open) streams.set(checkout.id, (open = new Set()));
  open.add(res);
  ctx.req.on('close', () => streams.get(checkout.id)?.delete(res));
}

async function handleSetState(ctx: Context, checkout: FakeCheckout) {
  const body = ((await readJson(ctx.req)) ?? {}) as Partial<
    Record<'state' | 'expiresAt' | 'paidAt' | 'payerBank' | 'receiptVoucher', unknown>
  >;
  checkout.state = (body.state as FakeCheckout['state'] | undefined) ?? checkout.state;
  for (const field of ['expiresAt', 'paidAt', 'payerBank', 'receiptVoucher'] as const) {
    const value = body[field];
    if (typeof value === 'string') checkout[field] = value;
  }
  if (checkout.state === 'Completed') checkout.paidAt ??= new Date(serverNow(checkout.orderId)).toISOString();
  checkout.version++;
  checkout.updatedAt = new Date(serverNow(checkout.orderId)).toISOString();
  for (const res of streams.get(checkout.id) ?? []) {
    writeEvent(res, checkout);
    if (SETTLED.has(checkout.state)) res.end();
  }
  if (SETTLED.has(checkout.state)) streams.delete(checkout.id);
  send(ctx, 200, publicView(checkout));
}

/** Whether the browser says the request comes from a page on another origin (server/bff/guards.ts, refuseForeignOrigins). */
const fromForeignPage = (ctx: Context) => Boolean(ctx.get('origin')) && ['cross-site', 'same-site'].includes(ctx.get('sec-fetch-site'));

/** Koa middleware for `@web/test-runner`'s `middleware` option. */
export async function fakeBff(ctx: Context, next: Next) {
  const path = ctx.path;
  if (path.startsWith('/api/') && ctx.method !== 'OPTIONS' && fromForeignPage(ctx)) {
    ctx.set('access-control-allow-origin', '*');
    return refuse(ctx, 'origin_not_allowed', "This page's origin is not in the BFF's ALLOWED_ORIGINS.");
  }
  if (path === API && ctx.method === 'POST') return handleCreate(ctx);
  if (path === '/__fake/log') {
    const orderId = String(ctx.query.orderId);
    return send(ctx, 200, logs.get(orderId) ?? emptyLog());
  }
  let match = /^\/api\/orders\/([^/]+)\/checkout$/.exec(path);
  if (match && (ctx.method === 'GET' || ctx.method === 'POST')) return handleLookup(ctx, decodeURIComponent(match[1]!));
  match = /^\/api\/checkouts\/([^/]+)(\/events)?$/.exec(path);
  if (match && ctx.method === 'GET') {
    const checkout = checkouts.get(decodeURIComponent(match[1]!));
    if (!checkout) return refuse(ctx, 'checkout_not_found', 'Checkout not found');
    return match[2] ? handleEvents(ctx, checkout) : handleGet(ctx, checkout);
  }
  match = /^\/__fake\/checkouts\/([^/]+)\/state$/.exec(path);
  if (match && ctx.method === 'POST') {
    const checkout = checkouts.get(match[1]!);
    if (!checkout) return refuse(ctx, 'checkout_not_found', 'Checkout not found');
    return handleSetState(ctx, checkout);
  }
  if (path.startsWith('/__fake/bank/')) return send(ctx, 200, 'bank');
  return next();
}
