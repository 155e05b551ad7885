/**
 * `<pix-checkout>` in JSX and Vue templates, typed: React 19 (`react-jsx`, `React.JSX`), React 18 and other JSX
 * libraries reading the global `JSX` namespace, and Vue 3 (`GlobalComponents`, read by vue-tsc and the editor).
 * Part of the package's types (`pix-checkout/widget`), so importing the package is enough.
 *
 * Neither React nor Vue is needed: the two `declare module` blocks merge into their types where they are installed,
 * and stand alone (unused) where they are not. The React block declares the two React interfaces it uses, empty, for
 * that reason; with React they merge into React's own.
 */
import type { PixCheckoutEventMap } from './events.js';
import type { PixCheckout } from './pix-checkout.js';

/** One method, or both for a chooser (the chooser lists them in its own order). */
export type PixCheckoutMethods = 'pix' | 'openfinance' | 'pix openfinance' | 'openfinance pix';

/**
 * The element's attributes as markup writes them (README, "Attributes"). `null` or `undefined` leaves one out, in
 * React and in Vue alike; a boolean attribute is on when present (in Vue, bind `collect-payer` to `true` or `null`:
 * Vue writes `false` as the text "false", which is present).
 */
export interface PixCheckoutAttributes {
  /** Base address of the BFF's public API, for example `/api` or `https://pay.example/api`. */
  endpoint?: string | null | undefined;
  /** The merchant's order to pay; the amount comes from the server. */
  'order-id'?: string | null | undefined;
  /** The order token the merchant's server signed for `order-id` (README, "Order token"). */
  'order-token'?: string | null | undefined;
  /** `pix` (default), `openfinance`, or both for a chooser. */
  methods?: PixCheckoutMethods | null | undefined;
  /** `pt-BR` (default) or `en`; any `en-*` is English, anything else Portuguese. */
  lang?: 'pt-BR' | 'en' | (string & {}) | null | undefined;
  /** Ask for the payer's CPF and name before an identified PIX. */
  'collect-payer'?: boolean | null | undefined;
  /** Where the bank sends the payer back after OpenFinance (an origin the BFF allows). */
  'return-url'?: string | null | undefined;
  /** The shop's name, shown before paying and on the receipt. */
  'merchant-name'?: string | null | undefined;
  /** Where the receipt's "Continuar" link goes (after the cancelable `pix-checkout-continue`); slot `continue` replaces it. */
  'continue-url'?: string | null | undefined;
  /** `light` or `dark`; left out (or `auto`), the element follows the system's `prefers-color-scheme`. */
  theme?: 'light' | 'dark' | 'auto' | null | undefined;
}

/** React 19 adds a listener for each `on<event name>` prop of a custom element, the name kept as written. */
export type PixCheckoutReactEvents = {
  [K in keyof PixCheckoutEventMap as `on${K}`]?: ((event: PixCheckoutEventMap[K]) => void) | undefined;
};

/** vue-tsc checks `:order-id="id"` as the prop `orderId`: the attributes under their camelCase names. */
export type PixCheckoutVueProps = {
  [K in keyof PixCheckoutAttributes as CamelCase<K>]?: PixCheckoutAttributes[K];
};

/** Vue templates listen with `@pix-checkout-completed`, which vue-tsc checks as `onPixCheckoutCompleted`. */
export type PixCheckoutVueEvents = {
  [K in keyof PixCheckoutEventMap as `on${Capitalize<CamelCase<K>>}`]?: ((event: PixCheckoutEventMap[K]) => void) | undefined;
};

type CamelCase<S extends string> = S extends `${infer Head}-${infer Tail}` ? `${Head}${Capitalize<CamelCase<Tail>>}` : S;

/**
 * What JSX libraries take on any element. Loosely typed on purpose: React 18's `React.JSX` extends the global `JSX`
 * namespace, so React's own entry below (the precise one, with `className`, `style`, `ref`…) must stay assignable to it.
 */
export interface PixCheckoutJsxBasics {
  id?: string | undefined;
  class?: string | undefined;
  className?: string | undefined;
  style?: string | object | undefined;
  slot?: string | undefined;
  hidden?: boolean | undefined;
  title?: string | undefined;
  key?: string | number | bigint | null | undefined;
  ref?: unknown;
}

/** `<pix-checkout>` where a library reads the global `JSX` namespace. */
export type PixCheckoutJsxProps = PixCheckoutAttributes & PixCheckoutReactEvents & PixCheckoutJsxBasics;

declare module 'react' {
  // eslint-disable-next-line @typescript-eslint/no-unused-vars, @typescript-eslint/no-empty-object-type
  interface HTMLAttributes<T> {}
  // eslint-disable-next-line @typescript-eslint/no-unused-vars, @typescript-eslint/no-empty-object-type
  interface RefAttributes<T> {}
  namespace JSX {
    interface IntrinsicElements {
      /** Its attributes and events, and what any HTML element takes (`className`, `style`, `ref`…). */
      'pix-checkout': Omit<HTMLAttributes<PixCheckout>, keyof PixCheckoutAttributes> &
        RefAttributes<PixCheckout> &
        PixCheckoutAttributes &
        PixCheckoutReactEvents;
    }
  }
}

declare module 'vue' {
  interface GlobalComponents {
    /** A component type as vue-tsc reads one: the instance is the element, `$props` what the template may pass. */
    'pix-checkout': new () => PixCheckout & {
      $props: PixCheckoutAttributes &
        PixCheckoutVueProps &
        PixCheckoutVueEvents & { class?: unknown; style?: unknown; id?: string; key?: PropertyKey };
    };
  }
}

declare global {
  namespace JSX {
    interface IntrinsicElements {
      'pix-checkout': PixCheckoutJsxProps;
    }
  }
}
