/**
 * Every route of the BFF (server/bff/*.ts, server/backoffice/*.ts), of the console's page and files (server/console.ts),
 * of the emulator (server/sandbox/routes/**, server/sandbox/company/routes/**) and of the demo's API (demo/routes/api.ts),
 * each with what a hostile client may send it
 * and what it may answer besides a JSON envelope. `build` makes any request for the route (mostly with valid
 * credentials, so input reaches the handlers); `refused` makes requests the route must refuse (a wrong credential, a
 * body that can't be read, an id that does not exist), for the property that a refusal changes nothing stored;
 * `sample` is its one valid request, which the suite sends with every method of `METHODS`.
 */
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { isValidCpf, taxNumberDigits } from '../../../core/cpf';
import { formatCents, parseCents } from '../../../core/money';
import {
  contentType,
  controlCursor,
  edgeAmount,
  edgeLength,
  headerSafe,
  hostileBody,
  hostileHeaders,
  hostileHeaderValue,
  hostileJson,
  hostileKey,
  hostileQuery,
  hostileString,
  idSegment,
  jsonText,
  pct,
  poisonString,
  toJson,
  type Json,
  shortHostileString,
  wrongAuthorization,
  type QueryTemplate,
} from './hostile';
import { signOrderToken } from '../../../server/bff/order-token';
import { SANDBOX_ACCESS_KEY, SANDBOX_SECRET } from '../../../server/sandbox/defaults';
import type { FuzzAnswer, FuzzRequest } from './send';
import { printable } from './report';
import { VALID_CPF, type World } from './world';

type Auth = 'admin' | 'webhook' | 'sandbox' | 'sandbox-admin' | 'orders' | 'none';
type BodyKind = 'json' | 'optional-json' | 'form' | 'bytes' | 'none';

export interface Target {
  name: string;
  /** Any request for this route. */
  build(w: World): fc.Arbitrary<FuzzRequest>;
  /** Requests this route must refuse; undefined when nothing it can be sent is certain to be refused. */
  refused(w: World): fc.Arbitrary<FuzzRequest> | undefined;
  /** The route's one valid request (known ids, valid credentials, the body template), sent with every method. */
  sample?(w: World): FuzzRequest;
  /** True when the answer is one of the route's documented non-JSON answers. */
  otherAnswer?(answer: FuzzAnswer, request: FuzzRequest): boolean;
  /** Statuses allowed besides 2xx and 4xx (a redirect). */
  otherStatuses?: number[];
}

interface Spec {
  method: string;
  /** Told apart from another target of the same route. */
  label?: string;
  /** Requests the route must refuse beyond the generic defects (a wrong credential, an unreadable body, an unknown id). */
  refusals?: (w: World) => fc.Arbitrary<FuzzRequest>;
  /** Path with `:name` segments, each filled from `ids[name]`. */
  path: string;
  ids?: (w: World) => Record<string, readonly string[]>;
  /** The ids of `sample`, when not the first of `ids`. */
  sampleIds?: (w: World) => Record<string, string>;
  /** Whether an unknown id is certain to be refused (the route looks it up). */
  idsMustExist?: boolean;
  query?: (w: World) => QueryTemplate;
  queryValues?: Partial<Record<string, fc.Arbitrary<string>>>;
  body?: BodyKind;
  template?: (w: World) => unknown;
  /** Fixed headers a valid request has (besides credentials). */
  headers?: (w: World) => Record<string, string>;
  auth: Auth;
  otherAnswer?: Target['otherAnswer'];
  otherStatuses?: number[];
  /** Other methods a client might try on this path. */
  methods?: string[];
}

/**
 * Every method a client may send: the ones routes take, the ones none does (TRACE, which fetch cannot even send, and
 * WebDAV's PROPFIND), and one no HTTP parser knows.
 */
export const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'TRACE', 'PROPFIND', 'FOO'];

const OTHER_METHODS = METHODS;

function credential(w: World, auth: Auth): { header: string; valid: string } | undefined {
  switch (auth) {
    case 'admin':
      return { header: 'authorization', valid: `Bearer ${w.adminToken}` };
    case 'sandbox':
      return { header: 'authorization', valid: `Bearer ${w.sandboxToken}` };
    case 'webhook':
      return { header: 'x-checkout-webhook-secret', valid: w.webhookSecret };
    case 'sandbox-admin':
      return w.sandboxAdminKey ? { header: 'x-sandbox-admin-key', valid: w.sandboxAdminKey } : undefined;
    case 'orders':
      return { header: 'authorization', valid: `Bearer ${w.orderTokenKey}` };
    case 'none':
      return undefined;
  }
}

function wrongCredential(w: World, auth: Auth): fc.Arbitrary<string | undefined> {
  const cred = credential(w, auth)!;
  if (cred.header === 'authorization') return wrongAuthorization(cred.valid);
  return fc.oneof(
    fc.constant(undefined),
    // Not ` ${valid}`: HTTP drops the blanks around a header value, so that one is the valid value.
    fc.constantFrom('', `${cred.valid}x`, cred.valid.slice(0, -1), cred.valid.toUpperCase(), `${cred.valid}\u00ff`),
    hostileHeaderValue,
  );
}

const placeholders = (path: string) => [...path.matchAll(/:(\w+)/g)].map((m) => m[1]!);

function fillPath(path: string, segments: Record<string, string>): string {
  return path.replace(/:(\w+)/g, (_, name: string) => segments[name]!);
}

function pathArb(spec: Spec, w: World, unknownIds: boolean): fc.Arbitrary<string> {
  const names = placeholders(spec.path);
  const pools = spec.ids?.(w) ?? {};
  const segment = (name: string) =>
    unknownIds ? idSegment([]).filter((s) => !(pools[name] ?? []).some((id) => pct(id) === s)) : idSegment(pools[name] ?? []);
  const segments = fc.tuple(...names.map(segment)).map((values) => Object.fromEntries(names.map((n, i) => [n, values[i]!])));
  const query = spec.query ? hostileQuery(spec.query(w), spec.queryValues) : fc.oneof(fc.constant(''), hostileQuery({}));
  return fc.tuple(segments, query, fc.constantFrom('', '', '', '/', '//')).map(([s, q, tail]) => {
    const path = fillPath(spec.path, s) + tail;
    return q ? `${path}?${q}` : path;
  });
}

function bodyArb(spec: Spec, w: World): fc.Arbitrary<{ body?: Buffer; type?: string | undefined }> {
  const template = spec.template?.(w);
  switch (spec.body ?? 'none') {
    case 'json':
      return fc.record({ body: hostileBody(template), type: contentType });
    case 'optional-json':
      return fc.oneof(
        fc.constant({}),
        fc.record({ body: hostileBody(template ?? {}), type: contentType }),
        fc.record({ body: fc.constant(Buffer.alloc(0)), type: contentType }),
      );
    case 'form':
      return fc.record({
        body: fc.oneof(
          fc
            .constantFrom('decision=approve', 'decision=fail', 'decision=', 'decision=approve&decision=fail', 'decision=%', '%%%', '')
            .map(Buffer.from),
          shortHostileString.map((s) => Buffer.from(`decision=${pct(s)}`)),
          hostileBody({ decision: 'approve' }),
        ),
        type: fc.oneof(
          fc.constant('application/x-www-form-urlencoded'),
          fc.constant('multipart/form-data; boundary=x'),
          fc.constant('multipart/form-data'),
          contentType,
        ),
      });
    case 'bytes':
      return fc.record({
        body: fc.oneof(
          fc.constant(Buffer.from('%PDF-1.4\n%%EOF\n')),
          fc.constant(Buffer.alloc(0)),
          fc.uint8Array({ maxLength: 256 }).map((b) => Buffer.from(b)),
          fc.constantFrom(70_000, 200_000).map((n) => Buffer.alloc(n, 0x25)),
        ),
        type: fc.oneof(fc.constant('application/pdf'), contentType),
      });
    case 'none':
      return fc.oneof(
        { weight: 4, arbitrary: fc.constant({}) },
        { weight: 1, arbitrary: fc.record({ body: hostileBody(), type: contentType }) },
      );
  }
}

/** A body every reader of this kind must refuse: not JSON at all (optional bodies), or not an object (schemas). */
function fatalBody(kind: BodyKind): fc.Arbitrary<{ body: Buffer; type: string }> | undefined {
  const malformed = fc
    // Not a byte order mark before valid JSON: RFC 8259 lets a parser ignore it (TextDecoder drops it).
    .constantFrom('{', '{"a":', '[1,]', '{"a":1}x', '{a:1}', "{'a':1}", 'NaN', '{"a":"\\u12"}', '<a/>')
    .map((t) => ({ body: Buffer.from(t), type: 'application/json' }));
  if (kind === 'optional-json') return malformed;
  if (kind === 'json') {
    const notAnObject = fc
      .oneof(hostileString, fc.integer(), fc.constant(null), fc.array(hostileJson, { maxLength: 3 }))
      .map((v) => ({ body: Buffer.from(jsonText(v)), type: 'application/json' }));
    return fc.oneof(malformed, notAnObject);
  }
  if (kind === 'form') {
    return shortHostileString
      .filter((s) => s !== 'approve' && s !== 'fail')
      .map((s) => ({ body: Buffer.from(`decision=${pct(s)}`), type: 'application/x-www-form-urlencoded' }));
  }
  return undefined;
}

function request(
  method: string,
  path: string,
  headers: Record<string, string | undefined>,
  body: { body?: Buffer; type?: string | undefined },
): FuzzRequest {
  const all: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) if (v !== undefined) all[k] = headerSafe(v);
  if (body.type !== undefined) all['content-type'] = headerSafe(body.type);
  // Ids of about 10 KB fit; past 16 KiB of request line and headers Node answers 431 before any route sees them.
  return printable({ method, path: path.slice(0, 12_000), headers: all, ...(body.body !== undefined ? { body: body.body } : {}) });
}

/**
 * The request with a `Content-Length` `missing` bytes past its body, which is never completed (a client that stalls
 * or lies): the body deadline must answer it with its 408, and nothing may be stored.
 */
const stalled = (sent: FuzzRequest, missing: number): FuzzRequest =>
  printable({ ...sent, body: sent.body ?? Buffer.alloc(0), declaredLength: (sent.body?.length ?? 0) + missing });

/** Mostly no stall; now and then a body short of its `Content-Length` by a byte up to a few KB. */
const stall = fc.oneof({ weight: 12, arbitrary: fc.constant(0) }, { weight: 1, arbitrary: fc.integer({ min: 1, max: 4096 }) });

/** Body kinds a route must read whole before it acts: a stalled one of these is always refused. */
const READ_WHOLE: readonly BodyKind[] = ['json', 'form', 'bytes'];

function route(spec: Spec): Target {
  const name = `${spec.method} ${spec.path}${spec.label ? ` (${spec.label})` : ''}`;
  const methodArb = fc.oneof(
    { weight: 8, arbitrary: fc.constant(spec.method) },
    { weight: 1, arbitrary: fc.constantFrom(...(spec.methods ?? OTHER_METHODS)) },
  );
  return {
    name,
    ...(spec.otherAnswer ? { otherAnswer: spec.otherAnswer } : {}),
    ...(spec.otherStatuses ? { otherStatuses: spec.otherStatuses } : {}),
    build(w) {
      const cred = credential(w, spec.auth);
      const auth: fc.Arbitrary<Record<string, string | undefined>> = cred
        ? fc.oneof(
            { weight: 6, arbitrary: fc.constant({ [cred.header]: cred.valid }) },
            { weight: 1, arbitrary: wrongCredential(w, spec.auth).map((v) => ({ [cred.header]: v })) },
          )
        : fc.constant({});
      return fc
        .record({
          method: methodArb,
          path: pathArb(spec, w, false),
          auth,
          extra: fc.oneof({ weight: 2, arbitrary: fc.constant({}) }, { weight: 1, arbitrary: hostileHeaders }),
          body: bodyArb(spec, w),
          missing: spec.body && spec.body !== 'none' ? stall : fc.constant(0),
        })
        .map(({ method, path, auth: a, extra, body, missing }) => {
          const sent = request(method, path, { ...extra, ...spec.headers?.(w), ...a }, body);
          return missing > 0 ? stalled(sent, missing) : sent;
        });
    },
    refused(w) {
      const cred = credential(w, spec.auth);
      const defects: fc.Arbitrary<FuzzRequest>[] = [];
      const base = fc.record({
        path: pathArb(spec, w, false),
        extra: fc.oneof(fc.constant({}), hostileHeaders),
        body: bodyArb(spec, w),
      });
      if (cred) {
        defects.push(
          fc
            .tuple(base, wrongCredential(w, spec.auth))
            .map(([{ path, extra, body }, wrong]) =>
              request(spec.method, path, { ...extra, ...spec.headers?.(w), [cred.header]: wrong }, body),
            ),
        );
      }
      const auth = cred ? { [cred.header]: cred.valid } : {};
      const broken = fatalBody(spec.body ?? 'none');
      if (broken) {
        defects.push(
          fc
            .tuple(base, broken)
            .map(([{ path, extra }, body]) => request(spec.method, path, { ...extra, ...spec.headers?.(w), ...auth }, body)),
        );
      }
      if (READ_WHOLE.includes(spec.body ?? 'none')) {
        defects.push(
          fc
            .tuple(base, fc.integer({ min: 1, max: 4096 }))
            .map(([{ path, extra, body }, missing]) =>
              stalled(request(spec.method, path, { ...extra, ...spec.headers?.(w), ...auth }, body), missing),
            ),
        );
      }
      if (spec.idsMustExist) {
        defects.push(
          fc
            .record({ path: pathArb(spec, w, true), extra: fc.oneof(fc.constant({}), hostileHeaders), body: bodyArb(spec, w) })
            .map(({ path, extra, body }) => request(spec.method, path, { ...extra, ...spec.headers?.(w), ...auth }, body)),
        );
      }
      if (spec.refusals) defects.push(spec.refusals(w));
      return defects.length ? fc.oneof(...defects) : undefined;
    },
    sample(w) {
      const cred = credential(w, spec.auth);
      const pools = spec.ids?.(w) ?? {};
      const chosen = spec.sampleIds?.(w) ?? {};
      const segments = Object.fromEntries(placeholders(spec.path).map((name) => [name, pct(chosen[name] ?? pools[name]?.[0] ?? 'x')]));
      const query = spec.query ? new URLSearchParams(spec.query(w)).toString() : '';
      const template = spec.template?.(w);
      const body =
        spec.body === 'bytes'
          ? { body: Buffer.from('%PDF-1.4\n%%EOF\n'), type: 'application/pdf' }
          : template === undefined
            ? {}
            : { body: Buffer.from(JSON.stringify(template)), type: 'application/json' };
      const path = fillPath(spec.path, segments) + (query ? `?${query}` : '');
      return request(spec.method, path, { ...spec.headers?.(w), ...(cred ? { [cred.header]: cred.valid } : {}) }, body);
    },
  };
}

// ---------------------------------------------------------------------------------------------------------------
// What routes answer besides JSON

/**
 * Whether a segment is a dot segment once decoded: `/api/%2e%2e` is `/` (RFC 3986 decodes unreserved characters
 * before removing dot segments), which the demo serves its shop page at, so it is no longer a path under /api.
 */
const isDotSegment = (segment: string) => {
  try {
    return ['.', '..'].includes(decodeURIComponent(segment));
  } catch {
    return false;
  }
};

const contentTypeOf = (a: FuzzAnswer) => a.headers['content-type'] ?? '';
const isHtml = (a: FuzzAnswer) => /^text\/html/i.test(contentTypeOf(a));
const isPreflight = (a: FuzzAnswer, r: FuzzRequest) => r.method === 'OPTIONS' && a.status === 204 && a.body.length === 0;
/** The event stream of a checkout (its first frame, the `retry:` hint, has arrived). */
const isEventStream = (a: FuzzAnswer) => a.status === 200 && a.stream && /^retry: \d+/.test(a.body.toString('utf8'));
/** `GET /metrics`: Prometheus's text exposition format. */
const isMetricsText = (a: FuzzAnswer) => a.status === 200 && /^text\/plain; version=0\.0\.4/i.test(contentTypeOf(a));
/** A CSV export (the payments', the audit trail's). */
const isCsv = (a: FuzzAnswer) => a.status === 200 && /^text\/csv/i.test(contentTypeOf(a));
/** Login's bare token (the one partner operation without the envelope). */
const isToken = (a: FuzzAnswer) =>
  a.status === 201 && /^text\/plain/i.test(contentTypeOf(a)) && /^[\w-]+\.[\w-]+\.[\w-]+$/.test(a.body.toString());

// ---------------------------------------------------------------------------------------------------------------
// The routes

const DAY = '2026-01-15';
const future = () => new Date(Date.now() + 3_600_000).toISOString();

const webhookConfig = (w: World) => ({
  url: `${w.url}/api/webhooks/provider`,
  customHeaderName: 'X-Checkout-Webhook-Secret',
  customHeaderValue: 'x'.repeat(40),
});

/**
 * Creation requests for a real order that must be refused before anything is reserved: no token or a wrong, foreign
 * or expired one, a CPF that is not valid, a return address off the storefront, OpenFinance without a payer, an
 * order the shop does not know (with a token signed for it).
 */
function checkoutRefusals(w: World): fc.Arbitrary<FuzzRequest> {
  const { orderId, orderToken } = w.known.orders[0]!;
  const inAnHour = new Date(Date.now() + 3_600_000);
  const token = fc.oneof(
    fc.constant(undefined),
    fc.constantFrom(
      '',
      w.known.orders[1]!.orderToken,
      signOrderToken(w.orderTokenKey, orderId, new Date(Date.now() - 60_000)),
      signOrderToken('not-the-order-token-key-0123456789', orderId, inAnHour),
      `${orderToken}x`,
      orderToken.slice(0, -1),
      orderToken.toUpperCase(),
      `9${orderToken}`,
    ),
    hostileString,
    hostileJson,
  );
  const payerName = fc.option(hostileString, { nil: undefined });
  const valid = { orderId, orderToken, method: 'pix' };
  const badToken = fc
    .record({ token, method: fc.constantFrom('pix', 'openfinance'), name: payerName })
    .map(({ token: t, method, name }) => ({
      orderId,
      ...(t === undefined ? {} : { orderToken: t }),
      method,
      payer: { cpf: VALID_CPF, ...(name === undefined ? {} : { name }) },
    }));
  const badCpf = fc
    .record({
      cpf: hostileString.filter((s) => !isValidCpf(taxNumberDigits(s))),
      method: fc.constantFrom('pix', 'openfinance'),
      name: payerName,
    })
    .map(({ cpf, method, name }) => ({ ...valid, method, payer: { cpf, ...(name === undefined ? {} : { name }) } }));
  const badReturn = fc
    .oneof(
      fc.constantFrom('http://evil.example/back', 'https://127.0.0.1.evil.example/', 'javascript:alert(1)', '//evil.example'),
      hostileString,
    )
    .map((returnUrl) => ({ ...valid, method: 'openfinance', payer: { cpf: VALID_CPF }, returnUrl }));
  const noPayer = fc.constant({ ...valid, method: 'openfinance' });
  const unknownOrder = fc
    .stringMatching(/^Z-[0-9A-F]{12}$/)
    .map((id) => ({ orderId: id, orderToken: signOrderToken(w.orderTokenKey, id, inAnHour), method: 'pix' }));
  return fc
    .tuple(fc.oneof(badToken, badCpf, badReturn, noPayer, unknownOrder), fc.option(hostileKeyValue, { nil: undefined }))
    .map(([body, extra]) => {
      const json = toJson(body) as { entries: [string, Json][] };
      const entries = extra ? [...json.entries, extra] : json.entries;
      return request(
        'POST',
        '/api/checkouts',
        { origin: w.allowedOrigin },
        { body: Buffer.from(jsonText({ entries })), type: 'application/json' },
      );
    });
}

/** Reads of an order's checkout without its valid token: none, another order's, an expired, forged or altered one. */
function orderCheckoutRefusals(w: World): fc.Arbitrary<FuzzRequest> {
  const { orderId, orderToken } = w.known.orders[1]!;
  const token = fc.oneof(
    fc.constant(undefined),
    fc.constantFrom(
      '',
      w.known.orders[0]!.orderToken,
      signOrderToken(w.orderTokenKey, orderId, new Date(Date.now() - 60_000)),
      signOrderToken('not-the-order-token-key-0123456789', orderId, new Date(Date.now() + 3_600_000)),
      `${orderToken}x`,
      orderToken.slice(0, -1),
      orderToken.toUpperCase(),
    ),
    hostileHeaderValue,
  );
  return fc
    .record({ token, query: fc.constantFrom('', `?orderToken=${encodeURIComponent(orderToken)}`) })
    .map(({ token: t, query }) =>
      request('GET', `/api/orders/${pct(orderId)}/checkout${query}`, { origin: w.allowedOrigin, 'x-order-token': t }, {}),
    );
}

/** Order lookups by POST with anything but the order's valid token in the body. */
function orderLookupRefusals(w: World): fc.Arbitrary<FuzzRequest> {
  const { orderId, orderToken } = w.known.orders[1]!;
  return fc
    .oneof(
      fc.constantFrom<Json>('', w.known.orders[0]!.orderToken, `${orderToken}x`, orderToken.slice(0, -1), orderToken.toUpperCase()),
      hostileJson,
    )
    .map((token) =>
      request(
        'POST',
        `/api/orders/${pct(orderId)}/checkout`,
        { origin: w.allowedOrigin },
        { body: Buffer.from(jsonText({ entries: [['orderToken', token]] })), type: 'application/json' },
      ),
    );
}

/** A valid cash-out body for `amount`. */
const cashOut = (amount: Json) => ({
  entries: [
    [
      'recipient',
      {
        entries: [
          ['name', 'João'],
          ['cpf', '111.444.777-35'],
        ],
      },
    ],
    [
      'key',
      {
        entries: [
          ['type', 'EMAIL'],
          ['value', 'joao@example.com'],
        ],
      },
    ],
    ['amount', amount],
  ] as [string, Json][],
});

/** Cash-outs of 2^53 cents or more (as amounts in reais): refused before the provider is asked. */
function cashOutRefusals(w: World): fc.Arbitrary<FuzzRequest> {
  return fc
    .constantFrom('90071992547409.92', '90071992547409.93', '900719925474099.2', '99999999999999999999.99')
    .map((amount) =>
      request(
        'POST',
        '/api/admin/cashouts',
        { authorization: `Bearer ${w.adminToken}`, 'idempotency-key': `fuzz-${randomUUID()}` },
        { body: Buffer.from(jsonText(cashOut(amount))), type: 'application/json' },
      ),
    );
}

/** Webhooks whose transaction id no provider gives (longer than 128 characters, or with a control character). */
function webhookRefusals(w: World): fc.Arbitrary<FuzzRequest> {
  return fc
    .oneof(
      fc.constantFrom(129, 256, 10_240).map((n) => 'x'.repeat(n)),
      fc.constantFrom('', 'a\nb', '\u001f', `${w.known.transactionIds[0]!}\u007f`),
    )
    .map((id) =>
      request(
        'POST',
        '/api/webhooks/provider',
        { 'x-checkout-webhook-secret': w.webhookSecret },
        {
          body: Buffer.from(JSON.stringify({ id, transactionState: 'Completed', transactionAmount: '159.80', transactionType: 'Credit' })),
          type: 'application/json',
        },
      ),
    );
}

/**
 * Sign-ins that must not open a session: the console user's e-mail with a wrong password, an e-mail no user has, and
 * the right password from another site's page (its Origin). Past ten failures from the fuzz's address the brake
 * answers 429 instead, a refusal too.
 */
/** Loopback as a URL may spell it: the emulator's demo takes http to loopback, so these must only never fail. */
const LOOPBACK_SPELLINGS = [
  '127.0.0.1',
  '127.1',
  '0x7f000001',
  '2130706433',
  '0177.0.0.1',
  '127.0.0.255',
  '[::1]',
  'localhost',
  'LOCALHOST.',
];

/**
 * Endpoint URLs no instance may deliver to, whatever provider it talks to: private, shared, link-local and metadata
 * addresses (in their other spellings too), "this host", IPv4 inside IPv6, and what is not a web address at all.
 */
const NON_PUBLIC_URLS = [
  'http://10.0.0.1/hook',
  'http://012.0.0.1/hook',
  'http://167772161/hook',
  'http://172.16.0.1/hook',
  'http://192.168.1.1/hook',
  'http://100.64.0.1/hook',
  'http://169.254.169.254/latest/meta-data/',
  'http://0xa9fea9fe/latest/meta-data/',
  'http://[fd00::1]/hook',
  'http://[fe80::1]/hook',
  'http://[::ffff:10.0.0.1]/hook',
  'http://[::ffff:a9fe:a9fe]/hook',
  'http://0.0.0.0/hook',
  'http://0/hook',
  'ftp://hooks.example.com/hook',
  'file:///etc/passwd',
  'javascript:alert(1)',
];

function endpointUrlRefusals(w: World): fc.Arbitrary<FuzzRequest> {
  return fc
    .constantFrom(...NON_PUBLIC_URLS)
    .map((url) =>
      request(
        'POST',
        '/api/admin/webhook-endpoints',
        { authorization: `Bearer ${w.adminToken}` },
        { body: Buffer.from(JSON.stringify({ url, types: ['checkout.completed'] })), type: 'application/json' },
      ),
    );
}

function signInRefusals(w: World): fc.Arbitrary<FuzzRequest> {
  const { email, password } = w.known.consoleUser;
  const wrongPassword = fc
    .oneof(fc.constantFrom('', `${password}x`, password.slice(0, -1), password.toUpperCase(), ` ${password}`), hostileString)
    .filter((p) => p !== password)
    .map((p) => ({ body: { email, password: p }, origin: undefined }));
  const unknownEmail = fc.constantFrom('ninguem@example.com', email.replace('@', '+x@'), `x${email}`).map((e) => ({
    body: { email: e, password },
    origin: undefined,
  }));
  const foreignPage = fc
    // Another site, an opaque origin, and our own host on another port or scheme (origins differ by both).
    .constantFrom(
      'http://evil.example',
      'null',
      `${w.allowedOrigin}.evil.example`,
      w.allowedOrigin.replace(/:\d+$/, ':1'),
      w.allowedOrigin.replace(/^http:/, 'https:'),
    )
    .map((origin) => ({ body: { email, password }, origin }));
  return fc
    .oneof(wrongPassword, unknownEmail, foreignPage)
    .map(({ body, origin }) =>
      request('POST', '/api/admin/session', { origin }, { body: Buffer.from(JSON.stringify(body)), type: 'application/json' }),
    );
}

/** Refunds that must be refused: more than the paid checkout's amount, or any amount of a checkout that failed. */
function refundRefusals(w: World): fc.Arbitrary<FuzzRequest> {
  const paid = w.known.paidCheckout;
  const over = fc
    .constantFrom(formatCents(parseCents(paid.amount)! + 1), '1000000.00', '90071992547409.91')
    .map((amount) => ({ id: paid.id, amount }));
  const unpaid = fc.constantFrom<string | undefined>('0.01', undefined).map((amount) => ({ id: w.known.checkoutIds[2]!, amount }));
  return fc
    .oneof(over, unpaid)
    .map(({ id, amount }) =>
      request(
        'POST',
        `/api/admin/checkouts/${pct(id)}/refunds`,
        { authorization: `Bearer ${w.adminToken}`, 'idempotency-key': `fuzz-${randomUUID()}` },
        { body: Buffer.from(JSON.stringify(amount === undefined ? {} : { amount })), type: 'application/json' },
      ),
    );
}

/** Back-office list cursors carrying a control character. */
function cursorRefusals(w: World): fc.Arbitrary<FuzzRequest> {
  return controlCursor.map((cursor) =>
    request('GET', `/api/admin/checkouts?cursor=${pct(cursor)}`, { authorization: `Bearer ${w.adminToken}` }, {}),
  );
}

const hostileKeyValue: fc.Arbitrary<[string, Json]> = fc.tuple(hostileKey, hostileJson);

/** Routes of the BFF under /api. */
export const BFF_ROUTES: Target[] = [
  route({
    method: 'POST',
    path: '/api/checkouts',
    label: 'an order without a checkout',
    auth: 'none',
    body: 'json',
    refusals: checkoutRefusals,
    template: (w) => ({
      ...w.known.orders[0],
      method: 'openfinance',
      payer: { cpf: '529.982.247-25', name: 'Maria' },
      returnUrl: `${w.allowedOrigin}/return?x=1`,
    }),
    headers: (w) => ({ origin: w.allowedOrigin }),
    otherAnswer: isPreflight,
  }),
  {
    // Valid bodies with one hostile field (payer name, CPF, return address…) for orders that have no checkout, so the
    // values really reach the store and the provider.
    name: 'POST /api/checkouts (fresh orders, one hostile field)',
    build: (w) =>
      fc
        .record({
          order: fc.constantFrom(...w.known.freshOrders),
          method: fc.constantFrom('pix', 'openfinance'),
          field: fc.constantFrom('payer.name', 'payer.cpf', 'returnUrl', 'method', 'extra'),
          value: fc.oneof(poisonString, hostileString, hostileJson),
          key: hostileKey,
        })
        .map(({ order, method, field, value, key }) => {
          const body: Json = {
            entries: [
              ['orderId', order.orderId],
              ['orderToken', order.orderToken],
              ['method', field === 'method' ? value : method],
              [
                'payer',
                {
                  entries: [
                    ['cpf', field === 'payer.cpf' ? value : VALID_CPF],
                    ['name', field === 'payer.name' ? value : 'Maria'],
                  ],
                },
              ],
              ['returnUrl', field === 'returnUrl' ? value : `${w.allowedOrigin}/back`],
              ...(field === 'extra' ? [[key, value] as [string, Json]] : []),
            ],
          };
          return request(
            'POST',
            '/api/checkouts',
            { origin: w.allowedOrigin },
            { body: Buffer.from(jsonText(body)), type: 'application/json' },
          );
        }),
    refused: () => undefined,
  },
  route({
    method: 'POST',
    path: '/api/checkouts',
    auth: 'none',
    label: 'an order with a live checkout',
    body: 'json',
    // An order that already has a checkout: the answer is the existing one, or a refusal.
    template: (w) => ({ ...w.known.orders[1], method: 'pix' }),
    otherAnswer: isPreflight,
  }),
  route({
    method: 'OPTIONS',
    path: '/api/checkouts',
    auth: 'none',
    headers: () => ({ 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' }),
    otherAnswer: isPreflight,
  }),
  route({
    method: 'GET',
    path: '/api/checkouts/:id',
    auth: 'none',
    ids: (w) => ({ id: w.known.checkoutIds }),
    idsMustExist: true,
    otherAnswer: isPreflight,
  }),
  route({
    method: 'GET',
    path: '/api/checkouts/:id/events',
    auth: 'none',
    ids: (w) => ({ id: w.known.checkoutIds }),
    // A stream that stays open: the HEADs of the suite must not (a final checkout's stream ends by itself).
    sampleIds: (w) => ({ id: w.known.quietCheckoutId }),
    idsMustExist: true,
    query: () => ({ lastEventId: '1' }),
    queryValues: { lastEventId: fc.constantFrom('0', '-1', '1', '2', '99', '1e3', '9'.repeat(30), 'NaN', '') },
    otherAnswer: (a, r) => isEventStream(a) || isPreflight(a, r),
  }),
  route({
    // Another tab resuming the order's checkout: the order token in X-Order-Token, never in the query.
    method: 'GET',
    path: '/api/orders/:orderId/checkout',
    auth: 'none',
    ids: (w) => ({ orderId: [w.known.orders[1]!.orderId, w.known.orders[0]!.orderId] }),
    headers: (w) => ({ origin: w.allowedOrigin, 'x-order-token': w.known.orders[1]!.orderToken }),
    refusals: orderCheckoutRefusals,
    otherAnswer: isPreflight,
  }),
  route({
    // The same lookup with the token in the body (the element's, as a CORS "simple" request).
    method: 'POST',
    path: '/api/orders/:orderId/checkout',
    auth: 'none',
    body: 'json',
    ids: (w) => ({ orderId: [w.known.orders[1]!.orderId, w.known.orders[0]!.orderId] }),
    template: (w) => ({ orderToken: w.known.orders[1]!.orderToken }),
    headers: (w) => ({ origin: w.allowedOrigin }),
    refusals: orderLookupRefusals,
    otherAnswer: isPreflight,
  }),
  route({
    method: 'POST',
    path: '/api/webhooks/provider',
    auth: 'webhook',
    body: 'json',
    template: (w) => ({
      id: w.known.transactionIds[0],
      transactionState: 'Completed',
      transactionAmount: '159.80',
      transactionType: 'Credit',
      transactionDate: '2026-01-15T12:00:00.000Z',
      stateCompletedDate: '2026-01-15T12:00:00.000Z',
      payer: { name: 'Maria', taxNumber: VALID_CPF },
    }),
    refusals: webhookRefusals,
  }),
  {
    name: 'POST /api/webhooks/provider (transaction ids at the length limits)',
    build: (w) =>
      fc
        .tuple(
          fc.oneof(
            edgeLength,
            fc.constantFrom(127, 128, 129, 5_000).map((n) => 'é'.repeat(n)),
            fc.constantFrom('', '\u0000', 'a\nb', '\u001f', '\ud800'),
          ),
          fc.constantFrom('Completed', 'Registered', 'Error'),
        )
        .map(([id, state]) =>
          request(
            'POST',
            '/api/webhooks/provider',
            { 'x-checkout-webhook-secret': w.webhookSecret },
            {
              body: Buffer.from(JSON.stringify({ id, transactionState: state, transactionAmount: '159.80', transactionType: 'Credit' })),
              type: 'application/json',
            },
          ),
        ),
    refused: () => undefined,
  },
  // The console's session: the sign-in (the one back-office route open without credentials), who is calling, the
  // sign-out (a token's is a no-op).
  route({
    method: 'POST',
    path: '/api/admin/session',
    auth: 'none',
    body: 'json',
    template: (w) => w.known.consoleUser,
    refusals: signInRefusals,
  }),
  route({ method: 'GET', path: '/api/admin/session', auth: 'admin' }),
  route({ method: 'DELETE', path: '/api/admin/session', auth: 'admin' }),
  // A user's own account: the bearer token has none (400), a wrong credential gets 401, so nothing is ever ended.
  route({ method: 'GET', path: '/api/admin/me/sessions', auth: 'admin' }),
  route({ method: 'DELETE', path: '/api/admin/me/sessions', auth: 'admin' }),
  route({ method: 'DELETE', path: '/api/admin/me/sessions/:id', auth: 'admin', ids: () => ({ id: ['ses_0123456789abcdef'] }) }),
  route({
    method: 'POST',
    path: '/api/admin/me/password',
    auth: 'admin',
    body: 'json',
    template: () => ({ currentPassword: 'not the password', newPassword: 'a fuzzed password, long enough' }),
  }),
  // The second factor. The sign-in's second step and the passkey sign-in need the pending sign-in cookie, which the
  // suite has not: 401 whatever the body. A bearer token has no user to enrol or step up: 400, so nothing is enrolled.
  route({ method: 'POST', path: '/api/admin/session/mfa', auth: 'none', body: 'json', template: () => ({ code: '123456' }) }),
  route({ method: 'POST', path: '/api/admin/session/passkey/options', auth: 'none', body: 'json', template: () => ({}) }),
  route({
    method: 'POST',
    path: '/api/admin/session/passkey',
    auth: 'none',
    body: 'json',
    template: () => ({
      response: { id: 'AAAA', rawId: 'AAAA', type: 'public-key', response: { clientDataJSON: 'AAAA' }, clientExtensionResults: {} },
    }),
  }),
  route({ method: 'GET', path: '/api/admin/me/mfa', auth: 'admin' }),
  route({ method: 'POST', path: '/api/admin/me/mfa/totp', auth: 'admin' }),
  route({ method: 'POST', path: '/api/admin/me/mfa/totp/confirm', auth: 'admin', body: 'json', template: () => ({ code: '123456' }) }),
  route({ method: 'POST', path: '/api/admin/me/mfa/passkeys/options', auth: 'admin' }),
  route({
    method: 'POST',
    path: '/api/admin/me/mfa/passkeys',
    auth: 'admin',
    body: 'json',
    template: () => ({
      response: { id: 'AAAA', rawId: 'AAAA', type: 'public-key', response: { clientDataJSON: 'AAAA' }, clientExtensionResults: {} },
    }),
  }),
  route({ method: 'DELETE', path: '/api/admin/me/mfa/passkeys/:id', auth: 'admin', ids: () => ({ id: ['AAAAAAAAAAAAAAAA'] }) }),
  route({ method: 'POST', path: '/api/admin/session/step-up/options', auth: 'admin' }),
  route({ method: 'POST', path: '/api/admin/session/step-up', auth: 'admin', body: 'json', template: () => ({ code: '123456' }) }),
  route({ method: 'GET', path: '/api/admin/users', auth: 'admin' }),
  // Named API keys: a fuzzed name or role is refused with 400; a fuzzed id is 404, so no real key is revoked.
  route({ method: 'GET', path: '/api/admin/api-keys', auth: 'admin' }),
  route({
    method: 'POST',
    path: '/api/admin/api-keys',
    auth: 'admin',
    body: 'json',
    template: () => ({ name: 'fuzz key', role: 'viewer' }),
  }),
  route({ method: 'DELETE', path: '/api/admin/api-keys/:id', auth: 'admin', ids: () => ({ id: ['key_0123456789abcdef'] }) }),
  route({
    method: 'POST',
    path: '/api/admin/payment-links',
    auth: 'admin',
    body: 'json',
    template: (w) => ({ orderId: w.known.orders[1]!.orderId, days: 7 }),
  }),
  route({
    method: 'POST',
    path: '/api/admin/users',
    auth: 'admin',
    body: 'json',
    template: () => ({ email: 'fuzz-user@example.com', role: 'viewer', password: 'a fuzzed password, long enough' }),
  }),
  // Only the demo's viewer is changed: the user of the sign-in keeps its password and role, and an owner stays.
  route({
    method: 'PATCH',
    path: '/api/admin/users/:id',
    auth: 'admin',
    body: 'json',
    template: () => ({ role: 'viewer', disabled: false }),
    ids: (w) => ({ id: w.known.userIds }),
    idsMustExist: true,
  }),
  route({
    method: 'GET',
    path: '/api/admin/audit',
    auth: 'admin',
    query: () => ({ actor: 'api-token', action: 'user', outcome: 'refused', from: `${DAY}T00:00:00.000Z`, to: future(), limit: '10' }),
    queryValues: { after: fc.oneof(fc.constantFrom('1', '0', '-1', '1e3', '9'.repeat(16)), shortHostileString) },
  }),
  route({
    method: 'GET',
    path: '/api/admin/audit/export.csv',
    auth: 'admin',
    query: () => ({ action: 'session', outcome: 'ok', from: `${DAY}T00:00:00.000Z`, format: 'csv-iso' }),
    otherAnswer: isCsv,
  }),
  route({ method: 'GET', path: '/api/admin/balance', auth: 'admin' }),
  route({
    method: 'GET',
    path: '/api/admin/transactions',
    auth: 'admin',
    query: (w) => ({ orderId: w.known.orders[1]!.orderId, date: DAY }),
  }),
  route({
    method: 'POST',
    path: '/api/admin/cashouts',
    auth: 'admin',
    body: 'json',
    template: () => ({
      recipient: { name: 'João', cpf: '111.444.777-35' },
      key: { type: 'EMAIL', value: 'joao@example.com' },
      amount: '0.01',
      orderId: 'payout-fuzz',
      description: 'Fuzz',
    }),
    // One key per request: a cash-out needs one, and each fuzzed body is a new request.
    headers: () => ({ 'idempotency-key': `fuzz-${randomUUID()}` }),
    refusals: cashOutRefusals,
  }),
  {
    name: 'POST /api/admin/cashouts (amounts at the safe-integer edges)',
    build: (w) =>
      fc
        .oneof(
          edgeAmount.map((amount): Json => amount),
          fc.constantFrom<Json>({ raw: '9007199254740991' }, { raw: '9007199254740992' }, { raw: '9007199254740993' }, 2 ** 53 - 1),
        )
        .map((amount) =>
          request(
            'POST',
            '/api/admin/cashouts',
            { authorization: `Bearer ${w.adminToken}`, 'idempotency-key': `fuzz-${randomUUID()}` },
            { body: Buffer.from(jsonText(cashOut(amount))), type: 'application/json' },
          ),
        ),
    refused: () => undefined,
  },
  route({ method: 'GET', path: '/api/admin/cashouts', auth: 'admin', query: () => ({ limit: '10' }) }),
  route({
    method: 'GET',
    path: '/api/admin/cashouts/quote',
    auth: 'admin',
    query: () => ({ amount: '10.00' }),
    queryValues: { amount: edgeAmount },
  }),
  route({
    method: 'GET',
    path: '/api/admin/checkouts',
    auth: 'admin',
    query: () => ({
      state: 'Completed,Expired',
      method: 'pix',
      from: `${DAY}T00:00:00.000Z`,
      to: future(),
      orderId: 'A-1',
      flag: 'flagged',
      limit: '10',
      cursor: Buffer.from(JSON.stringify([`${DAY}T00:00:00.000Z`, 'co_x'])).toString('base64url'),
    }),
    queryValues: { cursor: fc.oneof(controlCursor, edgeLength, shortHostileString) },
    refusals: cursorRefusals,
  }),
  {
    name: 'GET /api/admin/checkouts (cursors with control characters)',
    build: (w) =>
      fc
        .tuple(fc.oneof(controlCursor, edgeLength), fc.constantFrom('', '&limit=10', '&state=Completed&flag=late'))
        .map(([cursor, rest]) =>
          request('GET', `/api/admin/checkouts?cursor=${pct(cursor)}${rest}`, { authorization: `Bearer ${w.adminToken}` }, {}),
        ),
    refused: () => undefined,
  },
  route({ method: 'GET', path: '/api/admin/foreign-transactions', auth: 'admin', query: () => ({ limit: '50' }) }),
  route({ method: 'GET', path: '/api/admin/webhook-events', auth: 'admin', query: () => ({ after: '0', limit: '100' }) }),
  // No event id is known to the world: an id is refused unless fast-check finds one (it won't).
  route({ method: 'GET', path: '/api/admin/webhook-events/:id/attempts', auth: 'admin', ids: () => ({ id: [] }), idsMustExist: true }),
  route({
    method: 'POST',
    path: '/api/admin/webhook-events/:id/redeliver',
    auth: 'admin',
    query: () => ({ endpoint: 'env' }),
    ids: () => ({ id: [] }),
    idsMustExist: true,
  }),
  route({
    method: 'POST',
    path: '/api/admin/webhook-endpoints',
    auth: 'admin',
    body: 'json',
    // A port nothing listens on: the deliveries to what the fuzz adds are refused at once.
    template: () => ({ url: 'http://127.0.0.1:9/fuzz', types: ['checkout.completed'] }),
    refusals: endpointUrlRefusals,
  }),
  {
    name: 'POST /api/admin/webhook-endpoints (every spelling of loopback)',
    build: (w) =>
      fc
        .tuple(
          fc.constantFrom(...LOOPBACK_SPELLINGS),
          fc.constantFrom('9', String(w.databasePort ?? 5432)),
          fc.constantFrom('http', 'https'),
        )
        .map(([host, port, scheme]) =>
          request(
            'POST',
            '/api/admin/webhook-endpoints',
            { authorization: `Bearer ${w.adminToken}` },
            {
              body: Buffer.from(JSON.stringify({ url: `${scheme}://${host}:${port}/fuzz`, types: ['checkout.completed'] })),
              type: 'application/json',
            },
          ),
        ),
    refused: () => undefined,
  },
  route({ method: 'GET', path: '/api/admin/webhook-endpoints', auth: 'admin' }),
  // The one endpoint the world knows is the environment's (the demo's own receiver): tested, never changed.
  ...['disable', 'enable', 'rotate/finish', 'test'].map((action) =>
    route({
      method: 'POST',
      path: `/api/admin/webhook-endpoints/:id/${action}`,
      auth: 'admin',
      ids: () => ({ id: ['env'] }),
      idsMustExist: true,
    }),
  ),
  route({
    method: 'POST',
    path: '/api/admin/webhook-endpoints/:id/rotate',
    auth: 'admin',
    body: 'optional-json',
    template: () => ({}),
    ids: () => ({ id: ['env'] }),
    idsMustExist: true,
  }),
  route({ method: 'DELETE', path: '/api/admin/webhook-endpoints/:id', auth: 'admin', ids: () => ({ id: ['env'] }), idsMustExist: true }),
  route({ method: 'GET', path: '/api/admin/events', auth: 'admin', otherAnswer: isEventStream }),
  route({
    method: 'GET',
    path: '/api/admin/checkouts/export.csv',
    auth: 'admin',
    query: () => ({ state: 'Completed', from: `${DAY}T00:00:00.000Z`, flag: 'late', format: 'csv-iso' }),
    otherAnswer: isCsv,
  }),
  route({ method: 'GET', path: '/api/admin/checkouts/:id', auth: 'admin', ids: (w) => ({ id: w.known.checkoutIds }) }),
  route({ method: 'GET', path: '/api/admin/checkouts/:id/provider', auth: 'admin', ids: (w) => ({ id: w.known.checkoutIds }) }),
  // The payer's data in clear, audited: no body, so only ids and credentials vary.
  route({ method: 'POST', path: '/api/admin/checkouts/:id/payer', auth: 'admin', ids: (w) => ({ id: w.known.checkoutIds }) }),
  route({ method: 'GET', path: '/api/admin/checkouts/:id/refund', auth: 'admin', ids: (w) => ({ id: w.known.checkoutIds }) }),
  route({
    method: 'POST',
    path: '/api/admin/checkouts/:id/refund',
    auth: 'admin',
    body: 'json',
    template: () => ({}),
    ids: (w) => ({ id: w.known.checkoutIds }),
    headers: () => ({ 'idempotency-key': `fuzz-${randomUUID()}` }),
  }),
  // Refunds of any amount: the paid checkout's one valid request refunds a cent of it.
  route({
    method: 'GET',
    path: '/api/admin/checkouts/:id/refunds',
    auth: 'admin',
    ids: (w) => ({ id: w.known.checkoutIds }),
    sampleIds: (w) => ({ id: w.known.paidCheckout.id }),
  }),
  route({
    method: 'POST',
    path: '/api/admin/checkouts/:id/refunds',
    auth: 'admin',
    body: 'json',
    template: () => ({ amount: '0.01' }),
    ids: (w) => ({ id: w.known.checkoutIds }),
    sampleIds: (w) => ({ id: w.known.paidCheckout.id }),
    headers: () => ({ 'idempotency-key': `fuzz-${randomUUID()}` }),
    refusals: refundRefusals,
  }),
  route({ method: 'GET', path: '/api/admin/approvals', auth: 'admin', query: () => ({ state: 'pending', limit: '10' }) }),
  // The world's one pending refund: the first decision wins, every later one is a 409.
  ...['approve', 'reject'].map((decision) =>
    route({
      method: 'POST',
      path: `/api/admin/approvals/:key/${decision}`,
      auth: 'admin',
      ids: (w) => ({ key: w.known.pendingApprovalKeys }),
      idsMustExist: true,
    }),
  ),
  // The world's one pending payment request: the token's approval is refused (403), its first rejection wins.
  ...['approve', 'reject'].map((decision) =>
    route({
      method: 'POST',
      path: `/api/admin/approvals/payment-requests/:key/${decision}`,
      auth: 'admin',
      ids: (w) => ({ key: w.known.pendingPaymentKeys }),
      idsMustExist: true,
    }),
  ),
  route({
    method: 'GET',
    path: '/api/admin/receivers',
    auth: 'admin',
    query: () => ({ limit: '10', offset: '0', status: 'Approved' }),
  }),
  route({ method: 'GET', path: '/api/admin/receivers/:id', auth: 'admin', ids: (w) => ({ id: w.known.receiverIds }) }),
  route({ method: 'GET', path: '/api/admin/receivers/:id/accounts', auth: 'admin', ids: (w) => ({ id: w.known.receiverIds }) }),
  route({
    method: 'POST',
    path: '/api/admin/payment-requests',
    auth: 'admin',
    body: 'json',
    template: (w) => ({ amount: '1.00', description: 'Fuzz', receiverId: w.known.receiverIds[0], accountId: w.known.accountIds[0] }),
  }),
  route({
    method: 'GET',
    path: '/api/admin/payment-requests',
    auth: 'admin',
    query: () => ({ limit: '10', offset: '0', status: 'Pending', startDate: `${DAY}T00:00:00.000Z`, endDate: future() }),
  }),
  route({ method: 'GET', path: '/api/admin/payment-requests/:id', auth: 'admin', ids: (w) => ({ id: w.known.paymentRequestIds }) }),
  route({
    method: 'POST',
    path: '/api/admin/payment-requests/:id/cancel',
    auth: 'admin',
    ids: (w) => ({ id: w.known.paymentRequestIds }),
  }),
  route({
    method: 'PUT',
    path: '/api/admin/payment-requests/:id/invoice',
    auth: 'admin',
    body: 'bytes',
    ids: (w) => ({ id: w.known.paymentRequestIds }),
    headers: () => ({}),
  }),
  {
    // The invoice upload with hostile file names: the header the others fixed.
    ...route({
      method: 'PUT',
      path: '/api/admin/payment-requests/:id/invoice',
      auth: 'admin',
      body: 'bytes',
      ids: (w) => ({ id: w.known.paymentRequestIds }),
    }),
    name: 'PUT /api/admin/payment-requests/:id/invoice (X-File-Name)',
    build: (w) =>
      fc
        .record({
          id: idSegment(w.known.paymentRequestIds),
          name: fc.oneof(
            fc.constantFrom(
              '%',
              '%E0%A4%A',
              '%00',
              'a%00b.pdf',
              '..\\..\\x.pdf',
              '%2e%2e%5cx.pdf',
              '%ED%A0%80',
              '%FF',
              'x'.repeat(300),
              '',
            ),
            hostileHeaderValue,
            shortHostileString.map((s) => headerSafe(pct(s))),
          ),
        })
        .map(({ id, name }) =>
          request(
            'PUT',
            `/api/admin/payment-requests/${id}/invoice`,
            { authorization: `Bearer ${w.adminToken}`, 'x-file-name': name },
            { body: Buffer.from('%PDF-1.4\n%%EOF\n'), type: 'application/pdf' },
          ),
        ),
    refused: () => undefined,
  },
  route({
    method: 'GET',
    path: '/api/admin/payment-requests/:id/documents',
    auth: 'admin',
    ids: (w) => ({ id: w.known.paymentRequestIds }),
  }),
  route({ method: 'DELETE', path: '/api/admin/documents/:id', auth: 'admin', ids: (w) => ({ id: w.known.documentIds }) }),
  route({ method: 'GET', path: '/healthz', auth: 'none' }),
  route({ method: 'GET', path: '/readyz', auth: 'none' }),
  // Open to the loopback address in the demo without METRICS_TOKEN: Prometheus's text format, not JSON.
  route({ method: 'GET', path: '/metrics', auth: 'none', otherAnswer: isMetricsText }),
  {
    name: 'any method, any path under /api',
    build: (w) =>
      fc
        .record({
          method: fc.constantFrom(...OTHER_METHODS),
          path: fc
            .array(
              idSegment([
                'checkouts',
                'admin',
                'webhooks',
                'provider',
                'events',
                'invoice',
                'session',
                'users',
                'audit',
                'refunds',
                'approvals',
              ]),
              { minLength: 0, maxLength: 5 },
            )
            .filter((segments) => !segments.some(isDotSegment)),
          admin: fc.boolean(),
          extra: hostileHeaders,
          body: fc.option(hostileBody(), { nil: undefined }),
        })
        .map(({ method, path, admin, extra, body }) =>
          request(
            method,
            `/api/${path.join('/')}`,
            { ...extra, ...(admin ? { authorization: `Bearer ${w.adminToken}` } : {}) },
            body ? { body, type: 'application/json' } : {},
          ),
        ),
    refused: () => undefined,
    otherAnswer: (a, r) => isEventStream(a) || isPreflight(a, r),
  },
];

/** True when the console is built (`npm run build`); without a build its page and files are 503s, as documented. */
const CONSOLE_BUILT = existsSync(fileURLToPath(new URL('../../../dist/console/manifest.json', import.meta.url)));
const consoleUnbuilt = CONSOLE_BUILT ? {} : { otherStatuses: [503] };

/** The console's page and its content-hashed files under /admin (server/console.ts): GET and HEAD only. */
export const CONSOLE_ROUTES: Target[] = [
  route({ method: 'GET', path: '/admin', auth: 'none', otherAnswer: isHtml, ...consoleUnbuilt }),
  route({
    method: 'GET',
    path: '/admin/assets/:name',
    auth: 'none',
    ids: (w) => ({ name: w.known.consoleAssets }),
    // A file; or the page, for a name that is a dot segment (`/admin/assets/..` is `/admin/`).
    otherAnswer: (a, r) =>
      (a.status === 200 && /^(text\/javascript|text\/css|image\/svg\+xml)/i.test(contentTypeOf(a))) ||
      (isHtml(a) && r.path.split('?')[0]!.split('/').some(isDotSegment)),
    ...consoleUnbuilt,
  }),
];

/** True when the element is built; without a build the payment page is a 503 page saying so, as documented. */
const WIDGET_BUILT = existsSync(fileURLToPath(new URL('../../../dist/widget/integrity.json', import.meta.url)));

/**
 * The payment links (server/pay-page.ts): the page of an order (HTML, also its 404 page for an id of the wrong shape,
 * and for any other name in its own folder, the former script and stylesheet included: both are in the page now), and
 * the shop's name, told only with the order's token (else 204). GET and HEAD only.
 */
export const PAY_ROUTES: Target[] = [
  route({
    method: 'GET',
    path: '/pay/:orderId',
    auth: 'none',
    ids: (w) => ({ orderId: [w.known.orders[1]!.orderId, w.known.orders[0]!.orderId, 'A-1001', '_'] }),
    otherAnswer: isHtml,
    ...(WIDGET_BUILT ? {} : { otherStatuses: [503] }),
  }),
  route({
    method: 'GET',
    path: '/pay/_/:name',
    auth: 'none',
    ids: () => ({ name: ['pay.js', 'pay.css', 'nope.js'] }),
    // Every name (a dot segment too) is the page's HTML 404 or the order page.
    otherAnswer: isHtml,
    ...(WIDGET_BUILT ? {} : { otherStatuses: [503] }),
  }),
  route({
    method: 'GET',
    path: '/pay/_/shop/:orderId',
    auth: 'none',
    ids: (w) => ({ orderId: [w.known.orders[1]!.orderId, w.known.orders[0]!.orderId] }),
    headers: (w) => ({ 'x-order-token': w.known.orders[1]!.orderToken }),
    // A dot segment in the id leaves the route for the page's HTML answers.
    otherAnswer: isHtml,
    ...(WIDGET_BUILT ? {} : { otherStatuses: [503] }),
  }),
];

const PARTNER = '/sandbox/v1/partners-int';

const cashIn = (w: World) => ({
  payment: { payer: { cpf: VALID_CPF, name: 'Maria' }, value: { original: '10.00', editable: false } },
  transaction: { orderId: 'fuzz-1', orderDescription: 'Fuzz' },
  webhook: webhookConfig(w),
});

/** Routes of the emulator under /sandbox. */
export const EMULATOR_ROUTES: Target[] = [
  route({
    method: 'POST',
    path: `${PARTNER}/login`,
    auth: 'none',
    body: 'json',
    template: (w) => ({
      accessKey: w.server.config.sandboxKeys.accessKey ?? SANDBOX_ACCESS_KEY,
      secret: w.server.config.sandboxKeys.secret ?? SANDBOX_SECRET,
    }),
    otherAnswer: isToken,
  }),
  route({ method: 'POST', path: `${PARTNER}/accounts/pix/cashin`, auth: 'sandbox', body: 'json', template: cashIn }),
  route({
    method: 'POST',
    path: `${PARTNER}/accounts/pix/cashout`,
    auth: 'sandbox',
    body: 'json',
    template: (w) => ({
      payment: { recipient: { name: 'João', cpf: '11144477735' }, key: { type: 'CPF', value: '11144477735' }, value: '0.01' },
      transaction: { orderId: 'fuzz-out', orderDescription: 'Fuzz' },
      webhook: webhookConfig(w),
    }),
  }),
  route({
    method: 'POST',
    path: `${PARTNER}/accounts/payment-initiation`,
    auth: 'sandbox',
    body: 'json',
    template: (w) => ({
      payment: { payer: { taxNumber: VALID_CPF }, value: { original: '10.00' }, redirectUrl: `${w.allowedOrigin}/back` },
      transaction: { orderId: 'fuzz-of', orderDescription: 'Fuzz' },
      webhook: webhookConfig(w),
    }),
  }),
  route({
    method: 'GET',
    path: `${PARTNER}/accounts/transactions/pix/:id`,
    auth: 'sandbox',
    ids: (w) => ({ id: w.known.transactionIds }),
    methods: ['POST', 'PUT', 'DELETE'],
  }),
  route({
    method: 'GET',
    path: `${PARTNER}/accounts/transactions/pix`,
    auth: 'sandbox',
    query: (w) => ({
      transactionOrderId: w.known.orders[1]!.orderId,
      startDate: `${DAY}T00:00:00.000Z`,
      endDate: `${DAY}T23:59:59.999Z`,
      'dataset.limit': '10',
      'dataset.offset': '0',
      account: 'all',
    }),
  }),
  route({
    method: 'GET',
    path: `${PARTNER}/accounts/balance`,
    auth: 'sandbox',
    query: () => ({ filterDate: DAY }),
  }),
  route({
    method: 'GET',
    path: `${PARTNER}/accounts/balance/:accountUid`,
    auth: 'sandbox',
    ids: (w) => ({ accountUid: w.known.accountIds }),
    query: () => ({ filterDate: DAY }),
  }),
  ...['complete', 'error', 'cancel', 'reverse'].map((operation) =>
    route({
      method: 'POST',
      path: `${PARTNER}/sandbox/transactions/${operation}/:id`,
      auth: 'sandbox',
      body: 'optional-json',
      template: () => (operation === 'complete' ? { name: 'Maria', taxNumber: VALID_CPF, amount: '10.00' } : {}),
      ids: (w) => ({ id: w.known.transactionIds }),
      idsMustExist: true,
      methods: ['PUT', 'GET', 'DELETE'],
    }),
  ),
  ...['complete', 'error'].map((operation) =>
    route({
      method: 'POST',
      path: `${PARTNER}/sandbox/payment-initiation/${operation}/:id`,
      auth: 'sandbox',
      body: 'optional-json',
      template: () => (operation === 'complete' ? { name: 'Maria', taxNumber: VALID_CPF } : {}),
      ids: (w) => ({ id: w.known.transactionIds }),
      idsMustExist: true,
    }),
  ),
  route({
    method: 'GET',
    path: `${PARTNER}/receivers`,
    auth: 'sandbox',
    query: () => ({ 'dataset.limit': '10', 'dataset.offset': '0', receiverStatus: 'Approved' }),
  }),
  route({ method: 'GET', path: `${PARTNER}/receivers/:id`, auth: 'sandbox', ids: (w) => ({ id: w.known.receiverIds }) }),
  route({
    method: 'GET',
    path: `${PARTNER}/receivers/:id/accounts`,
    auth: 'sandbox',
    ids: (w) => ({ id: w.known.receiverIds }),
    query: () => ({ limit: '10', offset: '0' }),
  }),
  route({
    method: 'POST',
    path: `${PARTNER}/accounts/transaction-requests`,
    auth: 'sandbox',
    body: 'json',
    template: (w) => ({ amount: '1.00', description: 'Fuzz', refReceiver: w.known.receiverIds[0], refBankAccount: w.known.accountIds[0] }),
  }),
  route({
    method: 'PUT',
    path: `${PARTNER}/accounts/transaction-requests/cancel/:id`,
    auth: 'sandbox',
    body: 'optional-json',
    ids: (w) => ({ id: w.known.paymentRequestIds }),
    idsMustExist: true,
  }),
  route({
    method: 'GET',
    path: `${PARTNER}/accounts/transaction-requests`,
    auth: 'sandbox',
    query: () => ({
      'dataset.limit': '10',
      'dataset.offset': '0',
      status: 'Pending',
      startDate: `${DAY}T00:00:00.000Z`,
      endDate: future(),
    }),
  }),
  route({
    method: 'GET',
    path: `${PARTNER}/accounts/transaction-requests/:id`,
    auth: 'sandbox',
    ids: (w) => ({ id: w.known.paymentRequestIds }),
  }),
  route({
    method: 'POST',
    path: `${PARTNER}/documents`,
    auth: 'sandbox',
    body: 'json',
    template: (w) => ({
      properties: { name: 'nota' },
      ownerType: 'Transaction',
      owner: w.known.paymentRequestIds[0],
      type: 'Invoice',
      fileName: 'nota.pdf',
    }),
  }),
  route({
    method: 'GET',
    path: `${PARTNER}/documents`,
    auth: 'sandbox',
    query: (w) => ({ type: 'Invoice', ownerType: 'Transaction', owner: w.known.paymentRequestIds[0]! }),
  }),
  route({
    method: 'DELETE',
    path: `${PARTNER}/documents/:id`,
    auth: 'sandbox',
    ids: (w) => ({ id: w.known.documentIds }),
    idsMustExist: true,
  }),
  route({
    method: 'PUT',
    path: '/sandbox/v1/uploads/:token',
    auth: 'none',
    body: 'bytes',
    ids: (w) => ({ token: w.known.uploadTokens }),
    idsMustExist: true,
  }),
  route({
    method: 'GET',
    path: '/sandbox/v1/system/checkout/style.css',
    auth: 'none',
    otherAnswer: (a) => a.status === 200 && /^text\/css/i.test(contentTypeOf(a)),
  }),
  route({
    method: 'GET',
    path: '/sandbox/v1/system/checkout/init/:uuid/:id',
    auth: 'none',
    ids: (w) => ({ uuid: w.known.bankPages.map((p) => p.uuid), id: w.known.bankPages.map((p) => p.transactionId) }),
    otherAnswer: isHtml,
  }),
  route({
    method: 'POST',
    path: '/sandbox/v1/system/checkout/init/:uuid/:id',
    auth: 'none',
    body: 'form',
    ids: (w) => ({ uuid: w.known.bankPages.map((p) => p.uuid), id: w.known.bankPages.map((p) => p.transactionId) }),
    otherAnswer: (a) => isHtml(a) || (a.status === 303 && a.body.length === 0),
    otherStatuses: [303],
  }),
  route({
    method: 'GET',
    path: '/sandbox/v1/system/qrcodeviewer/:id',
    auth: 'none',
    ids: (w) => ({ id: w.known.transactionIds }),
    otherAnswer: (a) => a.status === 200 && /^image\/svg\+xml/i.test(contentTypeOf(a)),
  }),
  route({
    method: 'GET',
    path: '/sandbox/v1/system/e-receipt/:id/receipt.pdf',
    auth: 'none',
    ids: (w) => ({ id: w.known.transactionIds }),
    otherAnswer: (a) => a.status === 200 && /^application\/pdf/i.test(contentTypeOf(a)),
  }),
  route({ method: 'GET', path: '/sandbox/v1/QR/cob/:id', auth: 'none', ids: (w) => ({ id: w.known.cobIds }) }),
  route({ method: 'GET', path: '/sandbox/admin', auth: 'sandbox-admin' }),
  // The portal's cash-out controls, on transactions that are not cash-outs (each is refused).
  ...['complete', 'error', 'cancel'].map((operation) =>
    route({
      method: 'POST',
      path: `/sandbox/admin/cashouts/:id/${operation}`,
      auth: 'sandbox-admin',
      ids: (w) => ({ id: w.known.transactionIds }),
    }),
  ),
  // The portal's keys, read only: the world's own key pair must stay valid, so only unknown keys are named.
  route({ method: 'GET', path: '/sandbox/admin/access-keys', auth: 'sandbox-admin' }),
  route({ method: 'GET', path: '/sandbox/admin/access-keys/:key', auth: 'sandbox-admin', ids: () => ({ key: [] }), idsMustExist: true }),
  route({ method: 'GET', path: '/sandbox/admin/webhook-signing-key', auth: 'sandbox-admin' }),
  route({
    method: 'POST',
    path: '/sandbox/admin/receivers',
    auth: 'sandbox-admin',
    body: 'json',
    template: () => ({ companyFantasyName: 'Oficina Nova', companyCNPJ: '87.654.321/0001-98' }),
  }),
  route({
    method: 'POST',
    path: '/sandbox/admin/receivers/:id/accounts',
    auth: 'sandbox-admin',
    body: 'json',
    ids: (w) => ({ id: w.known.receiverIds }),
    template: () => ({ bankCode: '001', bankName: 'Banco', accountAgency: '1234', accountNumber: '5678-9', pixKey: '11222333000181' }),
  }),
  ...['approve', 'reject'].map((decision) =>
    route({
      method: 'POST',
      path: `/sandbox/admin/receivers/:id/${decision}`,
      auth: 'sandbox-admin',
      body: 'optional-json',
      template: () => ({ reviewNote: 'ok' }),
      ids: (w) => ({ id: w.known.receiverIds }),
      idsMustExist: true,
    }),
  ),
  ...['approve', 'reject'].map((decision) =>
    route({
      method: 'POST',
      path: `/sandbox/admin/transaction-requests/:id/${decision}`,
      auth: 'sandbox-admin',
      body: 'optional-json',
      template: () => ({ comment: 'ok', userFullName: 'Revisora' }),
      // Approving starts a payment in the background: only unknown ids here, so no timer outlives the request.
      ids: () => ({ id: [] }),
      idsMustExist: true,
    }),
  ),
  route({ method: 'GET', path: '/sandbox/admin/company-webhook', auth: 'sandbox-admin' }),
  route({
    method: 'PUT',
    path: '/sandbox/admin/company-webhook',
    auth: 'sandbox-admin',
    body: 'json',
    template: (w) => webhookConfig(w),
  }),
  route({ method: 'DELETE', path: '/sandbox/admin/company-webhook', auth: 'sandbox-admin' }),
  route({
    method: 'GET',
    path: '/sandbox/admin/documents/:id/content',
    auth: 'sandbox-admin',
    ids: (w) => ({ id: w.known.documentIds }),
    otherAnswer: (a) => a.status === 200,
  }),
  {
    name: 'any method, any path under /sandbox',
    build: (w) =>
      fc
        .record({
          method: fc.constantFrom(...OTHER_METHODS),
          path: fc
            .array(idSegment(['v1', 'partners-int', 'accounts', 'pix', 'sandbox', 'transactions', 'admin', 'system', 'uploads']), {
              maxLength: 5,
            })
            .filter((segments) => !segments.some(isDotSegment)),
          token: fc.boolean(),
          extra: hostileHeaders,
          body: fc.option(hostileBody(), { nil: undefined }),
        })
        .map(({ method, path, token, extra, body }) =>
          request(
            method,
            `/sandbox/${path.join('/')}`,
            {
              ...extra,
              ...(token ? { authorization: `Bearer ${w.sandboxToken}` } : {}),
              ...(w.sandboxAdminKey ? { 'x-sandbox-admin-key': w.sandboxAdminKey } : {}),
            },
            body ? { body, type: 'application/json' } : {},
          ),
        ),
    refused: () => undefined,
    otherAnswer: (a) => isHtml(a) || (a.status === 200 && /^(text\/css|image\/svg\+xml|application\/pdf)/i.test(contentTypeOf(a))),
  },
];

const demoOrderIds = (w: World) => ({ orderId: w.known.orders.map((o) => o.orderId) });

/** Routes of the demo's API under /demo/api (demo/routes/api.ts): the shop, the order contract, the sandbox panel. */
export const DEMO_ROUTES: Target[] = [
  route({ method: 'GET', path: '/demo/api/products', auth: 'none' }),
  route({ method: 'GET', path: '/checkout.html', auth: 'none', otherAnswer: isHtml }),
  // The console's old address, kept as a permanent redirect to /admin.
  route({ method: 'GET', path: '/backoffice.html', auth: 'none', otherAnswer: (a) => a.status === 301, otherStatuses: [301] }),
  route({
    method: 'POST',
    path: '/demo/api/orders',
    auth: 'none',
    body: 'json',
    template: () => ({ items: [{ sku: 'cafe-especial', quantity: 1 }] }),
  }),
  route({ method: 'GET', path: '/demo/api/orders/:orderId', auth: 'none', ids: demoOrderIds }),
  route({ method: 'GET', path: '/demo/api/priced-orders/:orderId', auth: 'orders', ids: demoOrderIds }),
  route({ method: 'GET', path: '/demo/api/webhooks', auth: 'none', query: () => ({ after: '0' }) }),
  route({
    method: 'POST',
    path: '/demo/api/sandbox/:method/:operation/:transactionId',
    auth: 'none',
    ids: (w) => ({
      method: ['pix', 'openfinance'],
      operation: ['complete', 'error', 'cancel', 'reverse'],
      transactionId: w.known.transactionIds,
    }),
  }),
  route({ method: 'POST', path: '/demo/api/orders/:orderId/pay-expired', auth: 'none', ids: demoOrderIds }),
  // The demo's receiver of merchant webhooks: nothing the fuzz sends carries a valid signature.
  route({
    method: 'POST',
    path: '/demo/api/merchant-webhooks',
    auth: 'none',
    body: 'json',
    template: () => ({ type: 'checkout.completed', data: { orderId: 'A-1' } }),
    refusals: () =>
      hostileBody({ type: 'checkout.completed', data: {} }).map((body) =>
        request('POST', '/demo/api/merchant-webhooks', { 'webhook-id': 'msg_fuzz' }, { body, type: 'application/json' }),
      ),
  }),
  route({ method: 'GET', path: '/demo/api/merchant-deliveries', auth: 'none', query: () => ({ after: '0' }) }),
  route({ method: 'GET', path: '/demo/api/sandbox-admin/company-webhook', auth: 'admin' }),
  route({
    method: 'POST',
    path: '/demo/api/sandbox-admin/receivers/:id/approve',
    auth: 'admin',
    body: 'optional-json',
    template: () => ({ reviewNote: 'ok' }),
    ids: (w) => ({ id: w.known.receiverIds }),
  }),
  {
    name: 'any method, any path under /demo/api',
    build: (w) =>
      fc
        .record({
          method: fc.constantFrom(...METHODS),
          path: fc
            .array(idSegment(['orders', 'priced-orders', 'sandbox', 'sandbox-admin', 'pay-expired', 'pix', 'complete', 'admin']), {
              maxLength: 5,
            })
            .filter((segments) => !segments.some(isDotSegment)),
          admin: fc.boolean(),
          extra: hostileHeaders,
          body: fc.option(hostileBody(), { nil: undefined }),
        })
        .map(({ method, path, admin, extra, body }) =>
          request(
            method,
            `/demo/api/${path.join('/')}`,
            { ...extra, ...(admin ? { authorization: `Bearer ${w.adminToken}` } : {}) },
            body ? { body, type: 'application/json' } : {},
          ),
        ),
    refused: () => undefined,
  },
];

export const ALL_ROUTES = [...BFF_ROUTES, ...CONSOLE_ROUTES, ...PAY_ROUTES, ...EMULATOR_ROUTES, ...DEMO_ROUTES];
