/**
 * Hostile inputs for the fuzz suite: strings (NUL, lone surrogates, path tricks, prototype keys, very long ones),
 * JSON documents kept as trees so that keys like `__proto__` and duplicate keys reach the wire literally, deep
 * nesting, malformed and non-UTF-8 bodies, header values and query strings. Everything is a fast-check arbitrary, so
 * a failure shrinks to a small input and replays from its seed.
 */
import fc from 'fast-check';

// ---------------------------------------------------------------------------------------------------------------
// Strings

/**
 * Counts at the edge of what a JavaScript number holds exactly: 2^53 − 1, 2^53 and 2^53 + 1, as cents and as amounts
 * in reais (a money parser must refuse the count of cents past 2^53 − 1, not round it).
 */
export const SAFE_INTEGER_EDGES = [
  '9007199254740991',
  '9007199254740992',
  '9007199254740993',
  '-9007199254740993',
  '90071992547409.91',
  '90071992547409.92',
  '90071992547409.93',
  '900719925474099.2',
];

/** Lengths just under, at and just over the limits ids meet (64: checkout and order ids; 128: keys, provider ids), and about 10 KB. */
export const LENGTH_EDGES = [63, 64, 65, 127, 128, 129, 10_240];

/** A plain id-like string of each edge length. */
export const edgeLength: fc.Arbitrary<string> = fc
  .tuple(fc.constantFrom('a', '9', 'A-'), fc.constantFrom(...LENGTH_EDGES))
  .map(([unit, length]) => unit.repeat(length).slice(0, length));

/** Strings that have broken parsers, databases and path handling before. */
const NASTY_STRINGS = [
  ...SAFE_INTEGER_EDGES,
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\u0000'.repeat(64),
  '\ud800',
  '\udfff',
  'x\ud83dy',
  '\ufeff',
  '\ufffe',
  '\u202eevil',
  '\u2028\u2029',
  '\u0085',
  '\r\n',
  'a\r\nX-Injected: 1',
  '\t',
  '%',
  '%00',
  '%zz',
  '%E0%A4%A',
  '%ff%fe',
  '..',
  '.',
  '../../../../etc/passwd',
  '..\\..\\..\\windows\\win.ini',
  '\\',
  'C:\\invoice.pdf',
  '/',
  '//',
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
  'valueOf',
  'null',
  'undefined',
  'true',
  'NaN',
  'Infinity',
  '-1',
  '0',
  '-0',
  '1e309',
  '0x10',
  '9'.repeat(400),
  '<script>alert(1)</script>',
  "' OR '1'='1' --",
  '"; DROP TABLE checkouts; --',
  '${jndi:ldap://x}',
  '{{7*7}}',
  '😀',
  'e\u0301',
  'ǅǈǋ',
  'İı',
  'ß',
  'ｆｕｌｌ',
  'Ⅻ',
  '٣',
  '\u00a0',
  'A-1001',
  'co_AAAAAAAAAAAAAAAAAAAAAA',
  'http://127.0.0.1:1/',
  'javascript:alert(1)',
  'file:///etc/passwd',
];

const loneSurrogate = fc.integer({ min: 0xd800, max: 0xdfff }).map((code) => String.fromCharCode(code));
const trickyChar = fc.oneof(
  fc.constantFrom('\u0000', '\u0001', '\u001f', '\u007f', '%', '\\', '/', '.', '"', "'", '\n', '\r', '\t', ' ', '\u00ff', '\ufffd'),
  loneSurrogate,
  fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }),
);

/** One character repeated up to past the body and header limits (a 64 KiB JSON body, 16 KiB of headers). */
const longString = fc
  .tuple(fc.constantFrom('x', '\u0000', 'é', '😀', '\ud800', '%', '9', ' '), fc.constantFrom(121, 141, 256, 1_000, 10_000, 40_000))
  .map(([c, n]) => c.repeat(n));

export const hostileString: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...NASTY_STRINGS) },
  { weight: 1, arbitrary: fc.constantFrom('\u0000', 'a\u0000b', '\ud800', 'x\udfffy') },
  { weight: 3, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 2, arbitrary: fc.string({ unit: trickyChar, maxLength: 24 }) },
  { weight: 1, arbitrary: longString },
);

/** A short hostile string (ids, keys, header values): no huge ones. */
export const shortHostileString: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...NASTY_STRINGS.filter((s) => s.length <= 400)) },
  { weight: 3, arbitrary: fc.string({ unit: 'binary', maxLength: 30 }) },
  { weight: 2, arbitrary: fc.string({ unit: trickyChar, maxLength: 20 }) },
);

/** Dates that parse, nearly parse, or sit at and past the edges of what a JS Date holds. */
const HOSTILE_DATES = [
  '2026-01-15T12:00:00.000Z',
  '2026-01-15',
  '2026-01-15T12:00:00Z',
  '2026-01-15T12:00:00+03:00',
  '2026-01-15T12:00:00.000000001Z',
  '2026-13-45T99:99:99Z',
  '2026-02-30',
  '0000-00-00',
  '0000-01-01T00:00:00.000Z',
  '1970-01-01T00:00:00.000Z',
  '1969-12-31T23:59:59.999Z',
  '9999-12-31T23:59:59.999Z',
  '+275760-09-13T00:00:00.000Z',
  '+275760-09-12T00:00:00.000Z',
  '+275760-09-13T00:00:00.001Z',
  '-271821-04-20T00:00:00.000Z',
  '-271821-04-19T23:59:59.999Z',
  '+999999-01-01T00:00:00.000Z',
  '8640000000000000',
  '-8640000000000000',
  '1e20',
  'Tue, 15 Jan 2026 12:00:00 GMT',
  'now',
  'yesterday',
  '',
];
const hostileDate = fc.oneof(fc.constantFrom(...HOSTILE_DATES), shortHostileString);

// ---------------------------------------------------------------------------------------------------------------
// JSON as a tree: objects keep their entries in order, so `__proto__` and duplicates are written as given.

export type Json = null | boolean | number | string | { raw: string } | Json[] | { entries: [string, Json][] };

const isRaw = (value: Json): value is { raw: string } =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && 'raw' in value;
const isObject = (value: Json): value is { entries: [string, Json][] } =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && 'entries' in value;

/** JSON text of a tree; strings go through JSON.stringify, which escapes NUL and lone surrogates (`\ud800`). */
export function jsonText(value: Json): string {
  if (value === null || typeof value === 'boolean' || typeof value === 'number' || typeof value === 'string') {
    return JSON.stringify(value);
  }
  if (isRaw(value)) return value.raw;
  if (Array.isArray(value)) return `[${value.map(jsonText).join(',')}]`;
  return `{${value.entries.map(([k, v]) => `${JSON.stringify(k)}:${jsonText(v)}`).join(',')}}`;
}

/** A plain JavaScript value (a body template) as a tree. */
export function toJson(value: unknown): Json {
  if (value === null || typeof value === 'boolean' || typeof value === 'number' || typeof value === 'string') return value;
  if (Array.isArray(value)) return value.map(toJson);
  if (typeof value === 'object') return { entries: Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, toJson(v)]) };
  return null;
}

/** Number spellings JSON allows but JavaScript numbers do not keep (overflow, underflow, precision, -0). */
const rawNumber = fc
  .constantFrom(
    '1e400',
    '-1e400',
    '-0',
    '0.1',
    '1.005',
    '1E-400',
    '123456789012345678901234567890',
    '9007199254740991',
    '9007199254740992',
    '9007199254740993',
    '-9007199254740993',
    '90071992547409.91',
    '90071992547409.92',
    '5e-324',
    '-1',
    '0e0',
  )
  .map((raw) => ({ raw }));

const prototypeKey = fc.constantFrom('__proto__', 'constructor', 'prototype');
export const hostileKey: fc.Arbitrary<string> = fc.oneof(
  { weight: 2, arbitrary: prototypeKey },
  { weight: 1, arbitrary: fc.constantFrom('', 'toString', 'valueOf', 'hasOwnProperty', '$where', 'a.b', 'a/b', '~0', '0', 'polluted') },
  { weight: 2, arbitrary: shortHostileString },
);

/** A payload that pollutes Object.prototype if anything merges it naively. */
const pollution: fc.Arbitrary<Json> = fc
  .tuple(prototypeKey, fc.constantFrom('polluted', 'isAdmin', 'toString', 'state'))
  .map(([key, name]) =>
    key === '__proto__'
      ? { entries: [['__proto__', { entries: [[name, true]] }]] }
      : { entries: [[key, { entries: [['prototype', { entries: [[name, true]] }]] }]] },
  );

/** The characters no database column or JSON writer should meet unprepared, alone or inside ordinary text. */
export const poisonString = fc
  .tuple(
    fc.constantFrom('', 'Maria ', 'x'),
    fc.constantFrom('\u0000', '\ud800', '\udfff', '\ud83d', '\u0000\ud800'),
    fc.constantFrom('', ' Silva', 'y'),
  )
  .map(([a, poison, b]) => a + poison + b);

const scalar: fc.Arbitrary<Json> = fc.oneof(
  { weight: 3, arbitrary: hostileString },
  { weight: 2, arbitrary: poisonString },
  { weight: 1, arbitrary: fc.constantFrom<Json>(null, true, false, 0, -1, 1, 2 ** 53 - 1, 2 ** 53, -(2 ** 31), 1e21, 0.1) },
  { weight: 1, arbitrary: edgeLength },
  { weight: 1, arbitrary: fc.integer() },
  { weight: 1, arbitrary: fc.double({ noNaN: true, noDefaultInfinity: true }) },
  { weight: 1, arbitrary: rawNumber },
);

export const hostileJson: fc.Arbitrary<Json> = fc.letrec<{ value: Json }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    { weight: 4, arbitrary: scalar },
    { weight: 1, arbitrary: fc.array(tie('value'), { maxLength: 4 }) },
    { weight: 1, arbitrary: fc.array(fc.tuple(hostileKey, tie('value')), { maxLength: 4 }).map((entries) => ({ entries })) },
    { weight: 1, arbitrary: pollution },
  ),
})).value;

/** Nesting deep enough to overflow a recursive walker's stack, still under a 64 KiB body. */
const deepJson: fc.Arbitrary<Json> = fc
  .tuple(fc.constantFrom('array', 'object'), fc.constantFrom(1_000, 5_000, 10_000, 30_000))
  .map(([kind, depth]) =>
    kind === 'array'
      ? { raw: '['.repeat(depth) + ']'.repeat(depth) }
      : { raw: '{"a":'.repeat(Math.min(depth, 12_000)) + '1' + '}'.repeat(Math.min(depth, 12_000)) },
  );

/** A value that replaces one field of a valid body. */
const fieldValue: fc.Arbitrary<Json> = fc.oneof(
  { weight: 5, arbitrary: scalar },
  { weight: 1, arbitrary: hostileJson },
  { weight: 1, arbitrary: deepJson },
  { weight: 1, arbitrary: fc.constant<Json>([]) },
  { weight: 1, arbitrary: fc.constant<Json>({ entries: [] }) },
);

type Path = (string | number)[];

function pathsOf(value: Json, prefix: Path = []): Path[] {
  const here = [prefix];
  if (Array.isArray(value)) return here.concat(...value.map((v, i) => pathsOf(v, [...prefix, i])));
  if (isObject(value)) return here.concat(...value.entries.map(([k, v]) => pathsOf(v, [...prefix, k])));
  return here;
}

type Edit = { kind: 'replace'; value: Json } | { kind: 'delete' } | { kind: 'add'; key: string; value: Json };

function edit(value: Json, path: Path, change: Edit): Json {
  if (path.length === 0) {
    if (change.kind === 'replace') return change.value;
    if (change.kind === 'add' && isObject(value)) return { entries: [...value.entries, [change.key, change.value]] };
    return value;
  }
  const [head, ...rest] = path;
  if (Array.isArray(value)) {
    if (rest.length === 0 && change.kind === 'delete') return value.filter((_, i) => i !== head);
    return value.map((v, i) => (i === head ? edit(v, rest, change) : v));
  }
  if (isObject(value)) {
    if (rest.length === 0 && change.kind === 'delete') return { entries: value.entries.filter(([k]) => k !== head) };
    return { entries: value.entries.map(([k, v]) => [k, k === head ? edit(v, rest, change) : v]) };
  }
  return value;
}

/** A valid body with one to three of its fields replaced, removed or joined by a hostile key. */
export function mutated(template: unknown): fc.Arbitrary<Json> {
  const base = toJson(template);
  const paths = pathsOf(base);
  const change: fc.Arbitrary<Edit> = fc.oneof(
    { weight: 4, arbitrary: fieldValue.map((value) => ({ kind: 'replace' as const, value })) },
    { weight: 1, arbitrary: fc.constant({ kind: 'delete' as const }) },
    { weight: 2, arbitrary: fc.tuple(hostileKey, fieldValue).map(([key, value]) => ({ kind: 'add' as const, key, value })) },
  );
  return fc
    .array(fc.tuple(fc.nat({ max: paths.length - 1 }), change), { minLength: 1, maxLength: 3 })
    .map((edits) => edits.reduce((doc, [at, c]) => edit(doc, paths[at]!, c), base));
}

// ---------------------------------------------------------------------------------------------------------------
// Bodies as bytes

const MALFORMED = [
  '',
  ' ',
  '\n',
  '{',
  '}',
  '{"a":',
  '[1,]',
  '{"a":1,}',
  '{"a":1}x',
  '{"a":1}{"a":2}',
  '\ufeff{}',
  'null',
  'true',
  '0',
  '"x"',
  '[]',
  'NaN',
  'Infinity',
  '{a:1}',
  "{'a':1}",
  '{"a":"\u0000"}',
  '{"a":"\\u0000"}',
  '{"a":"\\ud800"}',
  '{"a":"\\x41"}',
  '{"a":"\\u12"}',
  '{"__proto__":{"polluted":true}}',
  '{"constructor":{"prototype":{"polluted":true}}}',
  '{"a":1,"a":2}',
  '<?xml version="1.0"?><a/>',
  'decision=approve',
  '--x\r\nContent-Disposition: form-data; name="decision"\r\n\r\napprove\r\n--x--\r\n',
];

const invalidUtf8 = fc
  .tuple(
    fc.constantFrom('{"orderId":"', '{"accessKey":"', '{"name":"', '{"description":"', '"'),
    fc.constantFrom([0xff], [0xfe, 0xff], [0xc0, 0x80], [0xed, 0xa0, 0x80], [0xf4, 0x90, 0x80, 0x80], [0xe2, 0x82], [0x80]),
  )
  .map(([head, bytes]) => Buffer.concat([Buffer.from(head), Buffer.from(bytes), Buffer.from('"}')]));

/** Raw body bytes: mostly JSON built around `template`, sometimes anything at all. */
export function hostileBody(template?: unknown): fc.Arbitrary<Buffer> {
  const asBytes = (json: fc.Arbitrary<Json>) => json.map((j) => Buffer.from(jsonText(j), 'utf8'));
  return fc.oneof(
    ...(template === undefined
      ? []
      : [
          { weight: 8, arbitrary: asBytes(mutated(template)) },
          { weight: 1, arbitrary: fc.constant(Buffer.from(jsonText(toJson(template)), 'utf16le')) },
        ]),
    { weight: 3, arbitrary: asBytes(hostileJson) },
    { weight: 1, arbitrary: asBytes(deepJson) },
    { weight: 2, arbitrary: fc.constantFrom(...MALFORMED).map((text) => Buffer.from(text, 'utf8')) },
    { weight: 1, arbitrary: invalidUtf8 },
    { weight: 1, arbitrary: fc.constantFrom(70_000, 1_100_000).map((n) => Buffer.from(JSON.stringify({ pad: 'x'.repeat(n) }))) },
    { weight: 1, arbitrary: fc.uint8Array({ maxLength: 64 }).map((bytes) => Buffer.from(bytes)) },
  );
}

const CONTENT_TYPES = [
  'application/json',
  'application/json; charset=utf-8',
  'application/json;charset=UTF-16',
  'application/json; charset=latin1',
  'APPLICATION/JSON',
  'application/vnd.api+json',
  'application/jsonx',
  'application/json\u00ff',
  'text/plain',
  'text/plain;charset=UTF-8',
  'application/x-www-form-urlencoded',
  'multipart/form-data',
  'multipart/form-data; boundary=x',
  'application/xml',
  'application/pdf',
  'application/octet-stream',
  '*/*',
  '',
];

/** Mostly JSON, so the body reaches the parsers; otherwise anything a client may claim. */
export const contentType: fc.Arbitrary<string | undefined> = fc.oneof(
  { weight: 6, arbitrary: fc.constant('application/json') },
  { weight: 3, arbitrary: fc.constantFrom(...CONTENT_TYPES) },
  { weight: 1, arbitrary: fc.constant(undefined) },
);

// ---------------------------------------------------------------------------------------------------------------
// Headers, paths and query strings

/**
 * A header value as a client can put it on the wire: node:http refuses control characters and anything above
 * U+00FF, so text is sent as its UTF-8 bytes (read back as Latin-1 by the server) with controls dropped.
 */
export function headerSafe(text: string): string {
  const bytes = [...text].some((c) => c.charCodeAt(0) > 0xff) ? Buffer.from(text, 'utf8').toString('latin1') : text;
  // eslint-disable-next-line no-control-regex -- dropping what node:http refuses in a header value is the point.
  return bytes.replace(/[\x00-\x08\x0a-\x1f\x7f]/g, '').slice(0, 4_000);
}

export const hostileHeaderValue = shortHostileString.map(headerSafe);

const FILE_NAMES = [
  '%',
  '%E0%A4%A',
  '%00.pdf',
  'a%00b.pdf',
  '%2e%2e%2f%2e%2e%2fetc%2fpasswd',
  '..\\..\\evil.pdf',
  '../../evil.pdf',
  'C:\\Users\\x\\nota.pdf',
  '\\\\server\\share\\nota.pdf',
  '%ED%A0%80.pdf',
  '%F0%9F%98%80.pdf',
  'nota fiscal.pdf',
  '.pdf',
  '',
  ' ',
  '%20',
  'x'.repeat(300),
  '%'.repeat(50),
];
const LAST_EVENT_IDS = [
  '0',
  '1',
  '-1',
  '2',
  '999999',
  '1e3',
  '1.5',
  ' 3',
  '3 ',
  '0x10',
  'NaN',
  '9'.repeat(30),
  '',
  'abc',
  '-0',
  '+1',
  '٣',
  ...SAFE_INTEGER_EDGES,
];
const ORIGINS = ['null', 'http://evil.example', 'http://127.0.0.1', 'https://127.0.0.1:1', 'file://', ''];

/** Extra headers a hostile client adds; each appears only sometimes. */
export const hostileHeaders: fc.Arbitrary<Record<string, string>> = fc
  .record(
    {
      'x-file-name': fc.oneof(fc.constantFrom(...FILE_NAMES), hostileHeaderValue),
      'last-event-id': fc.oneof(fc.constantFrom(...LAST_EVENT_IDS), hostileHeaderValue),
      accept: fc.constantFrom('application/json', 'text/event-stream', 'text/html', '*/*', '', 'application/xml'),
      origin: fc.constantFrom(...ORIGINS),
      'content-encoding': fc.constantFrom('gzip', 'br', 'identity', 'x'),
      'x-forwarded-for': fc.constantFrom('1.2.3.4', 'unknown', ''),
      'x-http-method-override': fc.constantFrom('DELETE', 'PUT', 'GET'),
      cookie: hostileHeaderValue,
    },
    { requiredKeys: [] },
  )
  .map((headers) => Object.fromEntries(Object.entries(headers).filter((entry): entry is [string, string] => entry[1] !== undefined)));

/** Authorization values that must never open anything. */
export function wrongAuthorization(valid: string): fc.Arbitrary<string | undefined> {
  return fc.oneof(
    { weight: 1, arbitrary: fc.constant(undefined) },
    {
      weight: 2,
      arbitrary: fc.constantFrom(
        '',
        'Bearer',
        'Bearer ',
        'Bearer  ',
        `Basic ${Buffer.from('a:b').toString('base64')}`,
        `Bearer ${'A'.repeat(3000)}`,
        'Bearer eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4IiwiZXhwIjo5OTk5OTk5OTk5fQ.',
        'Bearer a.b.c',
        'Bearer ..',
        valid.toUpperCase() === valid ? valid.toLowerCase() : valid.toUpperCase(),
        `${valid}, Bearer x`,
      ),
    },
    // The valid value with something more or something less: none of these is the credential that was issued.
    { weight: 3, arbitrary: fc.constantFrom('x', 'A', '=', '==', '!', '~', '.', '\u00ff', '%3D', '.x').map((extra) => `${valid}${extra}`) },
    { weight: 1, arbitrary: fc.integer({ min: 1, max: 8 }).map((cut) => valid.slice(0, -cut)) },
    { weight: 1, arbitrary: hostileHeaderValue.map((value) => `Bearer ${value}`) },
  );
}

const UNRESERVED = /[A-Za-z0-9\-._~]/;

/** Percent-encodes every byte outside the unreserved set (a lone surrogate becomes EF BF BD, as a browser sends it). */
export function pct(text: string): string {
  let out = '';
  for (const byte of Buffer.from(text, 'utf8')) {
    const char = String.fromCharCode(byte);
    out += UNRESERVED.test(char) ? char : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/** Encodes only what node:http can't send (bytes outside 0x21–0x7E) and what would end the segment, leaving `%`, `\` and `..` raw. */
function lenient(text: string): string {
  let out = '';
  for (const byte of Buffer.from(text, 'utf8')) {
    const char = String.fromCharCode(byte);
    out += byte > 0x20 && byte < 0x7f && !'/?#'.includes(char) ? char : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

const RAW_SEGMENTS = [
  '%',
  '%zz',
  '%00',
  '%2F',
  '%2f..%2f',
  '..',
  '.',
  '%2e%2e',
  '..%5c..%5c',
  '\\',
  '%5C',
  '%ff%fe',
  '%ED%A0%80',
  '%C0%AE',
  '~',
  '*',
];

/** A path segment: one of the known ids (most of the time), or a hostile one. */
export function idSegment(known: readonly string[]): fc.Arbitrary<string> {
  const hostile = fc.oneof(
    { weight: 3, arbitrary: shortHostileString.filter((s) => s.length > 0).map(pct) },
    { weight: 2, arbitrary: shortHostileString.filter((s) => s.length > 0).map(lenient) },
    { weight: 2, arbitrary: fc.constantFrom(...RAW_SEGMENTS) },
    { weight: 1, arbitrary: fc.constantFrom('a'.repeat(2_000), '9'.repeat(300)) },
    { weight: 1, arbitrary: edgeLength },
  );
  if (known.length === 0) return hostile;
  return fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...known).map(pct) },
    { weight: 1, arbitrary: fc.constantFrom(...known).map((id) => `${pct(id)}%00`) },
    { weight: 1, arbitrary: fc.constantFrom(...known).map((id) => pct(id.toUpperCase())) },
    { weight: 4, arbitrary: hostile },
  );
}

export type QueryTemplate = Record<string, string>;

/**
 * A query string: the route's valid parameters with some replaced, dropped, repeated or joined by hostile ones,
 * encoded strictly or leniently (raw `%` and friends), or a string that is not a query at all.
 */
export function hostileQuery(template: QueryTemplate, values: Partial<Record<string, fc.Arbitrary<string>>> = {}): fc.Arbitrary<string> {
  const keys = Object.keys(template);
  const valueFor = (key: string) =>
    fc.oneof(
      { weight: 2, arbitrary: (Object.hasOwn(values, key) ? values[key] : undefined) ?? shortHostileString },
      { weight: 1, arbitrary: hostileDate },
      { weight: 1, arbitrary: hostileString.filter((s) => s.length <= 1_000) },
    );
  const pair = fc.tuple(
    fc.oneof({ weight: 3, arbitrary: keys.length ? fc.constantFrom(...keys) : hostileKey }, { weight: 1, arbitrary: hostileKey }),
    fc.nat(),
  );
  const params = fc
    .tuple(
      fc.array(pair, { maxLength: 4 }),
      fc.array(fc.tuple(fc.constantFrom(...(keys.length ? keys : ['x'])), fc.constantFrom('drop', 'repeat', 'empty')), { maxLength: 2 }),
      fc.boolean(),
    )
    .chain(([replace, tweaks, strict]) =>
      fc.tuple(...replace.map(([key]) => valueFor(key))).map((replacements) => {
        let entries: [string, string][] = Object.entries(template);
        replace.forEach(([key], i) => {
          const value = replacements[i]!;
          entries = entries.some(([k]) => k === key) ? entries.map(([k, v]) => [k, k === key ? value : v]) : [...entries, [key, value]];
        });
        for (const [key, tweak] of tweaks) {
          if (tweak === 'drop') entries = entries.filter(([k]) => k !== key);
          if (tweak === 'repeat') entries = [...entries, ...entries.filter(([k]) => k === key)];
          if (tweak === 'empty') entries = entries.map(([k, v]) => [k, k === key ? '' : v]);
        }
        const encode = strict ? pct : lenient;
        return entries.map(([k, v]) => `${encode(k)}=${encode(v)}`).join('&');
      }),
    );
  return fc.oneof(
    { weight: 1, arbitrary: fc.constant(new URLSearchParams(template).toString()) },
    { weight: 6, arbitrary: params },
    { weight: 1, arbitrary: fc.constantFrom('', '&', '=', '==', '&&=&', '%', 'a=%', 'a=%zz', 'a[b]=1', '__proto__[x]=1', 'a=1&a=2&a=3') },
  );
}

/** Amounts in reais around the safe-integer edge of their cents, and around the ordinary limits (a cent, a million). */
export const edgeAmount: fc.Arbitrary<string> = fc.constantFrom(...SAFE_INTEGER_EDGES, '0.01', '0.001', '1000000.00', '1000000.01');

/** Control characters a list cursor may carry: NUL, a line break, the last C0 character, DEL, half a surrogate pair. */
const CURSOR_CONTROLS = ['\u0000', '\n', '\u001f', '\u007f', '\ud800'];

/**
 * Back-office list cursors with a control character: inside the id of a well-formed cursor (base64url of
 * `[createdAt, id]`, which is how one reaches a database), or as the cursor text itself.
 */
export const controlCursor: fc.Arbitrary<string> = fc.oneof(
  fc
    .tuple(fc.constantFrom('', 'co_'), fc.constantFrom(...CURSOR_CONTROLS), fc.constantFrom('', 'x'))
    .map(([head, control, tail]) => Buffer.from(JSON.stringify(['2026-01-15T00:00:00.000Z', head + control + tail])).toString('base64url')),
  fc.constantFrom(...CURSOR_CONTROLS).map((control) => `eyJ${control}`),
);
