/**
 * What the element shows and does per payment method. The list of methods and the CPF rule live in core/methods;
 * this record is keyed by core's `Method`, so adding a method there fails to compile until the element handles it.
 * The words of the screens in the lazy chunk are in its own record (method-forms.ts).
 */
import type { Method } from '../core/methods.js';
import type { Strings } from './i18n.js';

export interface MethodUi {
  /** The chooser button: name and one-line hint. */
  name: keyof Strings;
  hint: keyof Strings;
  /** The payer form's heading (the rest of that form's words: method-forms.ts). */
  payerTitle: keyof Strings;
  /** The payer authorizes at their bank: the checkout gets a return URL and the page goes to `checkoutUrl`. */
  goesToBank: boolean;
}

export const METHOD_UI: Record<Method, MethodUi> = {
  pix: {
    name: 'methodPix',
    hint: 'methodPixHint',
    payerTitle: 'payerTitlePix',
    goesToBank: false,
  },
  openfinance: {
    name: 'methodOpenFinance',
    hint: 'methodOpenFinanceHint',
    payerTitle: 'payerTitleOpenFinance',
    goesToBank: true,
  },
};
