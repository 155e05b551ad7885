/** Text the emulator refuses anywhere in a request: NUL and UTF-16 surrogates that are not part of a pair. */

/** A high surrogate not followed by a low one, or a low one not preceded by a high one. */
export const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** True when `text` holds U+0000 or a lone surrogate: neither survives SQLite, JSON or a header unchanged. */
export const isUnsafeText = (text: string) => text.includes('\u0000') || LONE_SURROGATE.test(text);

/** `text` with each lone surrogate replaced by U+FFFD, so that `encodeURIComponent` cannot throw on it. */
export const wellFormed = (text: string) => text.replace(new RegExp(LONE_SURROGATE.source, 'g'), '\uFFFD');
