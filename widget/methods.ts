/**
 * What the element shows and does per payment method. The list of methods and the CPF rule live in core/methods;
 * this record is keyed by core's `Method`, so adding a method there fails to compile until the element handles it.
 */
import type { Method } from '../core/methods.js';
import type { Strings } from './i18n.js';

export interface MethodUi {
  /** The chooser button: name and one-line hint. */
  name: keyof Strings;
  hint: keyof Strings;
  /** The payer form: heading, introduction, submit button. */
  payerTitle: keyof Strings;
  payerIntro: keyof Strings;
  submit: keyof Strings;
  /** Another tab or device already started this method: what the shopper is told, and the way on. */
  conflict: keyof Strings;
  continueWith: keyof Strings;
  /** The action of the Expired screen: a new checkout of the same method. */
  renew: keyof Strings;
  /** The payer authorizes at their bank: the checkout gets a return URL and the page goes to `checkoutUrl`. */
  goesToBank: boolean;
}

export const METHOD_UI: Record<Method, MethodUi> = {
  pix: {
    name: 'methodPix',
    hint: 'methodPixHint',
    payerTitle: 'payerTitlePix',
    payerIntro: 'payerIntroPix',
    submit: 'submitPix',
    conflict: 'conflictPix',
    continueWith: 'continueWithPix',
    renew: 'renewPix',
    goesToBank: false,
  },
  openfinance: {
    name: 'methodOpenFinance',
    hint: 'methodOpenFinanceHint',
    payerTitle: 'payerTitleOpenFinance',
    payerIntro: 'payerIntroOpenFinance',
    submit: 'submitOpenFinance',
    conflict: 'conflictOpenFinance',
    continueWith: 'continueWithOpenFinance',
    renew: 'renewOpenFinance',
    goesToBank: true,
  },
};
