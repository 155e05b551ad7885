/**
 * The lazy chunk of everything the first QR does not need (views/screens.ts): the screens after the QR, the payer form,
 * a refused CPF, another method live, and the element's words for each error code. Asked for once the first screen
 * after "loading" shows (the QR, the chooser, a failure), so the first QR's request goes first and the chunk is there
 * long before a payment ends. The views and the flow read it from here; until it comes, or if it cannot be had, they
 * show a stand-in (views/index.ts) or the generic words of an error's status class (i18n.ts).
 */
import type { LitElement } from 'lit';
import { loadChunk } from './chunks.js';
import { useErrorTexts } from './i18n.js';
import { kit } from './views/kit.js';

export type ScreensChunk = ReturnType<typeof import('./views/screens.js').default>;

let screens: ScreensChunk | undefined;
let screensLoad: Promise<void> | undefined;
let failed = false;
/** Elements showing a stand-in for something of the chunk: each is drawn again when it comes or fails, whoever asked. */
const waiting = new Set<LitElement>();

function redrawWaiting(): void {
  for (const host of waiting) host.requestUpdate();
  waiting.clear();
}

/** Loads the chunk once (again after a failure); resolves when it is there or has failed. */
export function loadScreens(): Promise<void> {
  screensLoad ??= loadChunk('screens', () => import('./views/screens.js')).then(
    (module) => {
      screens = module.default(kit);
      useErrorTexts(screens.errorTexts);
      failed = false;
      redrawWaiting();
    },
    (error: unknown) => {
      console.error(error);
      failed = true;
      // Asked again on the next retry: the network may be back.
      screensLoad = undefined;
      redrawWaiting();
    },
  );
  return screensLoad;
}

/** The chunk, once it came. */
export const screensChunk = (): ScreensChunk | undefined => screens;

/** True once the chunk was asked for (or is there). */
export const screensAsked = (): boolean => Boolean(screens || screensLoad || failed);

/** True once a try to load the chunk failed, until one succeeds. */
export const screensFailed = (): boolean => failed;

/** Draws `host` again when the chunk comes or fails. */
export function redrawWithScreens(host: LitElement): void {
  if (!screens) waiting.add(host);
}
