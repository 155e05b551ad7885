/**
 * The lazy chunk (loaded by widget/screens-chunk.ts, under the entry's integrity hash like the languages): the receipt
 * and every other outcome, the payer form and its CPF checks, a refused CPF, another method live, with their styles
 * and the print styles, the element's words for each error code and what it tells the console about a page set up
 * wrong. None draws the first QR. It imports nothing at
 * run time: its factory takes Lit and the helpers from the entry (kit.ts), and brings the Portuguese strings of its
 * screens and errors.
 */
import { explainError, warnMissingToken } from '../diagnostics.js';
import { ERROR_TEXT } from '../error-text.js';
import { ptBRScreens } from '../i18n/pt-br-screens.js';
import { payerReceiptStyles } from '../payer-receipt.styles.js';
import type { Kit } from './kit.js';
import { sessionSteps } from '../session-steps.js';
import { screensView } from './screens-view.js';
import { openFinanceScreens } from './openfinance.js';
import { outcomeScreens } from './outcome.js';
import { startScreens } from './payer-form.js';

export default (kit: Kit) => {
  // Portuguese's strings of these screens, into the entry's catalog (English and Spanish hold all theirs).
  Object.assign(kit.ptBR, ptBRScreens);
  const screens = { ...outcomeScreens(kit), ...startScreens(kit), ...openFinanceScreens(kit) };
  const steps = sessionSteps(kit);
  return {
    styles: payerReceiptStyles(kit),
    ...screens,
    render: screensView(kit, screens, steps),
    createFailed: steps.createFailed,
    lookForPayment: steps.lookForPayment,
    errorTexts: ERROR_TEXT,
    explainError,
    warnMissingToken,
  };
};
