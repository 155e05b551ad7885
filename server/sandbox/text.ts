/**
 * Text the emulator refuses anywhere in a request (JSON body, query, path): U+0000 and UTF-16 surrogates that are not
 * part of a pair, neither of which survives SQLite, JSON or a header unchanged; and JSON nested deeper than
 * MAX_JSON_DEPTH, which no operation needs and which recursive code (JSON.stringify, zod) should never be handed.
 */

/** A high surrogate not followed by a low one, or a low one not preceded by a high one. */
export const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Deepest nesting of arrays and objects a JSON body may have (the deepest operation body has 3 levels). */
export const MAX_JSON_DEPTH = 32;

/** True when `text` holds U+0000 or a lone surrogate. */
export const isUnsafeText = (text: string) => text.includes('\u0000') || LONE_SURROGATE.test(text);

/** `text` with each lone surrogate replaced by U+FFFD, so that `encodeURIComponent` cannot throw on it. */
export const wellFormed = (text: string) => text.replace(new RegExp(LONE_SURROGATE.source, 'g'), '\uFFFD');

/** The nesting depth of JSON text, counted without parsing it (brackets inside strings do not count). */
export function jsonDepth(text: string): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (inString) {
      if (ch === 0x5c)
        i++; // backslash: skip the escaped character
      else if (ch === 0x22) inString = false;
    } else if (ch === 0x22) inString = true;
    else if (ch === 0x5b || ch === 0x7b) deepest = Math.max(deepest, ++depth);
    else if (ch === 0x5d || ch === 0x7d) depth--;
  }
  return deepest;
}

/** JSON pointer of the first key or string value holding unsafe text, or undefined. Iterative: depth is checked first. */
export function findUnsafeText(value: unknown): string | undefined {
  const stack: [unknown, string][] = [[value, '']];
  while (stack.length > 0) {
    const [current, at] = stack.pop()!;
    if (typeof current === 'string') {
      if (isUnsafeText(current)) return at;
    } else if (current !== null && typeof current === 'object') {
      for (const [key, child] of Object.entries(current)) {
        const path = `${at}/${key.replaceAll('~', '~0').replaceAll('/', '~1')}`;
        if (isUnsafeText(key)) return at;
        stack.push([child, path]);
      }
    }
  }
  return undefined;
}
