/**
 * The lazy chunk of everything the first QR does not need (views/later.ts): the screens after the QR, the payer form,
 * a refused CPF, another method live, and the element's words for each error code. Asked for once the first screen
 * after "loading" shows (the QR, the chooser, a failure), so the first QR's request goes first and the chunk is there
 * long before a payment ends. The views and the flow read it from here; until it comes, or if it cannot be had, they
 * show a stand-in (views/index.ts) or the generic words of an error's status class (i18n.ts).
 */
import type { LitElement } from 'lit';
import { loadChunk } from './chunks.js';
import { useErrorTexts } from './i18n.js';
import { kit } from './views/kit.js';

export type LaterChunk = ReturnType<typeof import('./views/later.js').default>;

let later: LaterChunk | undefined;
let laterLoad: Promise<void> | undefined;
let failed = false;
/** Elements showing a stand-in for something of the chunk: each is drawn again when it comes or fails, whoever asked. */
const waiting = new Set<LitElement>();

function redrawWaiting(): void {
  for (const host of waiting) host.requestUpdate();
  waiting.clear();
}

/** Loads the chunk once (again after a failure); resolves when it is there or has failed. */
export function loadLater(): Promise<void> {
  laterLoad ??= loadChunk('later', () => import('./views/later.js')).then(
    (module) => {
      later = module.default(kit);
      useErrorTexts(later.errorTexts);
      failed = false;
      redrawWaiting();
    },
    (error: unknown) => {
      console.error(error);
      failed = true;
      // Asked again on the next retry: the network may be back.
      laterLoad = undefined;
      redrawWaiting();
    },
  );
  return laterLoad;
}

/** The chunk, once it came. */
export const laterChunk = (): LaterChunk | undefined => later;

/** True once the chunk was asked for (or is there). */
export const laterAsked = (): boolean => Boolean(later || laterLoad || failed);

/** True once a try to load the chunk failed, until one succeeds. */
export const laterFailed = (): boolean => failed;

/** Draws `host` again when the chunk comes or fails. */
export function redrawWhenLater(host: LitElement): void {
  if (!later) waiting.add(host);
}
