/**
 * What no request may carry in its JSON or its address, for the BFF and the emulator alike: text holding U+0000 or a
 * UTF-16 half without its pair (PostgreSQL refuses the first in text and JSON, neither is encodable as UTF-8, and
 * neither survives SQLite, a header or a log unchanged), and JSON nested deeper than `MAX_JSON_DEPTH`, which no body
 * needs and which recursive code (JSON.stringify, zod) should never be handed. These scans only find; each API refuses
 * in its own envelope (server/http/json-body.ts for ours, server/sandbox/request.ts for the provider's).
 */

/** Deepest nesting of objects and arrays accepted: our bodies need 4, a provider webhook fewer than 10. */
export const MAX_JSON_DEPTH = 32;

/** A high surrogate not followed by a low one, or a low one not preceded by a high one. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

const UNSAFE_TEXT = new RegExp(`\\u0000|${LONE_SURROGATE.source}`);

/** True when `text` holds U+0000 or a lone surrogate. */
export const isUnsafeText = (text: string) => UNSAFE_TEXT.test(text);

/** `text` with each lone surrogate replaced by U+FFFD, so that `encodeURIComponent` cannot throw on it. */
export const wellFormed = (text: string) => text.replace(new RegExp(LONE_SURROGATE.source, 'g'), '\uFFFD');

/** Whether JSON `text` nests objects or arrays deeper than `max`, without parsing it (brackets in strings do not count). */
export function nestsDeeperThan(text: string, max = MAX_JSON_DEPTH): boolean {
  // Deeper than `max` takes more than `max` opening brackets: most bodies have a handful, counted at native speed.
  let opening = 0;
  for (let i = text.indexOf('{'); i !== -1 && opening <= max; i = text.indexOf('{', i + 1)) opening++;
  for (let i = text.indexOf('['); i !== -1 && opening <= max; i = text.indexOf('[', i + 1)) opening++;
  if (opening <= max) return false;
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (inString) {
      if (ch === 0x5c) i++;
      else if (ch === 0x22) inString = false;
    } else if (ch === 0x22) inString = true;
    else if (ch === 0x7b || ch === 0x5b) {
      if (++depth > max) return true;
    } else if (ch === 0x7d || ch === 0x5d) depth--;
  }
  return false;
}

/**
 * Whether JSON text may parse to a string that `isUnsafeText` refuses: it holds an escaped U+0000 or surrogate
 * (`\u0000`, `\ud800`…), or a raw U+0000 or surrogate. Text without any cannot, so most bodies skip the walk.
 */
// eslint-disable-next-line no-control-regex
const MAY_HOLD_UNSAFE = /\\u(?:0000|[dD][89a-fA-F])|[\u0000\uD800-\uDFFF]/;

/** Where an unsafe string is: the keys and indexes down to it, and whether it is a key (then the last of `path`). */
export interface UnsafeTextPlace {
  path: string[];
  inKey: boolean;
}

interface Visit {
  value: unknown;
  path: string[];
  key?: true;
}

/**
 * The first string (a value or a key, in document order) of the parsed JSON `value` that holds unsafe text, or
 * undefined. Given the `text` it was parsed from, text that cannot hold any is not walked at all. Iterative, so any
 * depth is safe, but callers refuse deep text first (`nestsDeeperThan`).
 */
export function findUnsafeText(value: unknown, text?: string): UnsafeTextPlace | undefined {
  if (text !== undefined && !MAY_HOLD_UNSAFE.test(text)) return undefined;
  const stack: Visit[] = [{ value, path: [] }];
  while (stack.length > 0) {
    const { value: current, path, key } = stack.pop()!;
    if (typeof current === 'string') {
      if (isUnsafeText(current)) return { path, inKey: key === true };
      continue;
    }
    if (current === null || typeof current !== 'object') continue;
    const isArray = Array.isArray(current);
    const entries: [string, unknown][] = isArray ? current.map((item, i) => [String(i), item]) : Object.entries(current);
    // Pushed last to first, each value under its key, so they come off the stack in document order, a key before its value.
    for (let i = entries.length - 1; i >= 0; i--) {
      const [name, item] = entries[i]!;
      const at = [...path, name];
      stack.push({ value: item, path: at });
      if (!isArray) stack.push({ value: name, path: at, key: true });
    }
  }
  return undefined;
}
