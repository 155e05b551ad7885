/**
 * `parseJsonText`, the JSON rules of every body (the provider's webhooks too): a body is refused, naming the path,
 * exactly when one of its strings (a value or a key) holds U+0000 or a lone surrogate, however it is written (raw,
 * escaped, in upper or lower case hex), and only then, whichever way the text is checked before it is walked.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseJsonText } from './json-body';
import { isUnsafeText, MAX_JSON_DEPTH } from '../lib/json-safety';
import { ApiError } from '../payments/errors';

/** Whether any string in `value`, key or value, is one the rules refuse. */
function holdsUnsafe(value: unknown): boolean {
  if (typeof value === 'string') return isUnsafeText(value);
  if (Array.isArray(value)) return value.some(holdsUnsafe);
  if (value && typeof value === 'object') return Object.entries(value).some(([key, item]) => isUnsafeText(key) || holdsUnsafe(item));
  return false;
}

/** Strings with what matters here often in them: U+0000, halves of pairs, whole pairs, backslashes and `u`. */
const tricky = fc.string({
  unit: fc.oneof(
    fc.constantFrom('\u0000', '\ud800', '\udbff', '\udc00', '\udfff', '\ud83d\ude00', '\\', 'u', '0', 'd', 'D', '8'),
    fc.string({ unit: 'binary', maxLength: 1 }),
  ),
  maxLength: 12,
});
const json = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: 'small' }, tricky, fc.integer(), fc.constant(null), tie('array'), tie('object')),
  array: fc.array(tie('value'), { maxLength: 4 }),
  object: fc.dictionary(tricky, tie('value'), { maxKeys: 4 }),
})).value;

/** JSON text of `value`, its `\u` escapes in upper case hex or left as written, at random. */
const texts = fc.tuple(json, fc.boolean()).map(([value, upper]) => {
  const text = JSON.stringify(value);
  return { value, text: upper ? text.replace(/\\u([0-9a-f]{4})/g, (_, hex: string) => `\\u${hex.toUpperCase()}`) : text };
});

describe('the JSON rules of a body', () => {
  it('refuse a body exactly when one of its strings holds U+0000 or a lone surrogate', () => {
    fc.assert(
      fc.property(texts, ({ value, text }) => {
        let refused: ApiError | undefined;
        try {
          expect(parseJsonText(text)).toEqual(value);
        } catch (error) {
          if (!(error instanceof ApiError)) throw error;
          refused = error;
        }
        expect(refused?.code).toBe(holdsUnsafe(value) ? 'invalid_request' : undefined);
      }),
      { numRuns: 3_000 },
    );
  });

  it('refuse the escaped forms of each, in either case, and take a whole pair', () => {
    for (const text of ['{"a":"\\u0000"}', '["\\uD800"]', '["\\udc00x"]', '{"\\uDBFF":1}']) {
      expect(() => parseJsonText(text), text).toThrow(ApiError);
    }
    expect(parseJsonText('["\\ud83d\\ude00","\\\\u0000"]')).toEqual(['\u{1f600}', '\\u0000']);
  });

  it('refuse nesting deeper than MAX_JSON_DEPTH, and only that, however many brackets the strings hold', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 2 * MAX_JSON_DEPTH }),
        fc.string({ unit: fc.constantFrom('[', '{', ']', '}', 'a'), maxLength: 80 }),
        fc.boolean(),
        (depth, inString, objects) => {
          const inner = JSON.stringify(inString);
          const text = objects
            ? '{"a":'.repeat(depth - 1) + `{"a":${inner}}` + '}'.repeat(depth - 1)
            : '['.repeat(depth) + inner + ']'.repeat(depth);
          let refused = false;
          try {
            parseJsonText(text);
          } catch (error) {
            if (!(error instanceof ApiError)) throw error;
            refused = true;
          }
          expect(refused).toBe(depth > MAX_JSON_DEPTH);
        },
      ),
      { numRuns: 1_000 },
    );
  });
});
