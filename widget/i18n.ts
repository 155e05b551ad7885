/**
 * Every user-facing string of `<pix-checkout>`, per locale (Portuguese (Brazil) by default), and the element's own
 * words for every error the BFF or the browser can report (error-text.ts): a server's message is never shown to the
 * shopper. Portuguese is in the entry (the texts of the screens' chunk and of most errors come with it);
 * English and Spanish are chunks loaded on demand (widget/chunks.ts), so the code that draws the first QR does not
 * grow with the number of languages.
 */
import { loadChunk } from './chunks.js';
import { ptBR, type Strings } from './i18n/pt-br.js';
import { EXPIRED, type CheckoutState } from '../core/states.js';

export type { Strings };
export type Locale = 'pt-BR' | 'en' | 'es';

/**
 * The languages loaded so far. Portuguese's strings of the lazy screens come with their chunk (views/screens.ts adds
 * them to `ptBR`), before any of those screens draws: the entry's own screens read none of them.
 */
const catalog: Partial<Record<Locale, Strings>> = { 'pt-BR': ptBR as Strings };
const loading = new Map<Locale, Promise<Strings>>();

/** The chunk of each other language: `import()` of a literal path, which the bundler turns into that chunk's file. */
const LANGUAGE_CHUNKS: Record<Exclude<Locale, 'pt-BR'>, () => Promise<Strings>> = {
  en: () => loadChunk('en', () => import('./i18n/en.js')).then((m) => m.en),
  es: () => loadChunk('es', () => import('./i18n/es.js')).then((m) => m.es),
};

/** "en", "en-US", "EN" → English; "es", "es-419", "ES" → Spanish; anything else → Portuguese (Brazil). */
export function toLocale(lang: string | null | undefined): Locale {
  const primary = /^([a-z]{2})(?:[-_]|$)/i.exec(lang?.trim() ?? '')?.[1]?.toLowerCase();
  return primary === 'en' ? 'en' : primary === 'es' ? 'es' : 'pt-BR';
}

/** The strings of `locale` once loaded (Portuguese always is); undefined while its chunk is on its way. */
export function stringsFor(locale: Locale): Strings | undefined {
  return catalog[locale];
}

/**
 * Loads the strings of `locale` (once, however many elements ask). A language whose chunk cannot be had (the network,
 * or a chunk that fails its integrity hash) falls back to Portuguese: the shopper can still pay.
 */
export function loadStrings(locale: Locale): Promise<Strings> {
  if (locale === 'pt-BR') return Promise.resolve(catalog['pt-BR']!);
  const known = catalog[locale];
  if (known) return Promise.resolve(known);
  let pending = loading.get(locale);
  if (!pending) {
    pending = LANGUAGE_CHUNKS[locale]().then(
      (strings) => (catalog[locale] = strings),
      (error: unknown) => {
        console.error(error);
        // Asked again on the next element: the network may be back.
        loading.delete(locale);
        return catalog['pt-BR']!;
      },
    );
    loading.set(locale, pending);
  }
  return pending;
}

/** Fills `{name}` marks: `fill('Pague até {date}', { date: '12/03' })`. */
export function fill(template: string, values: Record<string, string | number>): string {
  return template.replace(/\{(\w+)\}/g, (mark, name: string) => (Object.hasOwn(values, name) ? String(values[name]) : mark));
}

/** The title of a state: the heading of its screen and what the live region says when it is reached. */
export function stateTitle(t: Strings, state: CheckoutState): string {
  const titles: Record<CheckoutState, string> = {
    Created: t.awaitingPayment,
    Registered: t.awaitingPayment,
    Completed: t.completedTitle,
    Error: t.errorTitle,
    Cancelled: t.cancelledTitle,
    Reversed: t.reversedTitle,
    [EXPIRED]: t.expiredTitle,
  };
  return titles[state];
}

/**
 * Each code's text key (error-text.ts), from the lazy chunk: until it comes, or if it cannot be had, every failure
 * reads as the generic text of its status class (kept in the entry, so a failure still says something offline).
 */
let errorTexts: Readonly<Record<string, keyof Strings>> = {};

/** Called by widget/screens-chunk.ts when the chunk came. */
export function useErrorTexts(texts: Readonly<Record<string, keyof Strings>>): void {
  errorTexts = texts;
}

/**
 * What the shopper reads for a failure: the element's text for a known code, else a generic one by status class
 * (a newer BFF's code, a proxy's HTML error page, the lazy chunk not there yet). Never the server's message.
 */
export function errorMessage(t: Strings, error: { status: number; code: string }): string {
  const key = Object.hasOwn(errorTexts, error.code) ? errorTexts[error.code] : undefined;
  // Portuguese's texts come with the codes' (same chunk); a language chunk holds all of its own.
  if (key && t[key]) return t[key];
  if (error.status === 0) return t.errNetwork;
  return error.status >= 500 ? t.errServer : t.errClient;
}
