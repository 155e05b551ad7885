/**
 * What the screens of the lazy chunk say per payment method (methods.ts has what the entry's screens need), keyed by
 * core's `Method` like it, so a new method fails to compile until these screens handle it. In the chunk with them.
 */
import type { Method } from '../core/methods.js';
import type { Strings } from './i18n.js';

export interface MethodFormUi {
  /** The payer form: introduction, submit button. */
  payerIntro: keyof Strings;
  submit: keyof Strings;
  /** Another tab or device already started this method: what the shopper is told, and the way on. */
  conflict: keyof Strings;
  continueWith: keyof Strings;
  /** The action of the Expired screen: a new checkout of the same method. */
  renew: keyof Strings;
}

export const METHOD_FORM_UI: Record<Method, MethodFormUi> = {
  pix: {
    payerIntro: 'payerIntroPix',
    submit: 'submitPix',
    conflict: 'conflictPix',
    continueWith: 'continueWithPix',
    renew: 'renewPix',
  },
  openfinance: {
    payerIntro: 'payerIntroOpenFinance',
    submit: 'submitOpenFinance',
    conflict: 'conflictOpenFinance',
    continueWith: 'continueWithOpenFinance',
    renew: 'renewOpenFinance',
  },
};
