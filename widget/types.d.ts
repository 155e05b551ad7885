/**
 * Types of the package entry `pix-checkout/widget` (the built bundle `dist/widget/pix-checkout.js`): the element's
 * class and event types (`index.ts`) and its JSX and Vue template declarations (`jsx.d.ts`). The build copies this
 * file and `jsx.d.ts` next to the declarations it emits, in `dist/types/widget`.
 */
export * from './index.js';
export type * from './jsx.js';
