/**
 * The lazy chunk (loaded by widget/later-chunk.ts, under the entry's integrity hash like the languages): the receipt
 * and every other outcome, the payer form and its CPF checks, a refused CPF, another method live, with their styles
 * and the print styles, the element's words for each error code and what it tells the console about a page set up
 * wrong. None draws the first QR. It imports nothing at
 * run time: its factory takes Lit and the helpers from the entry (kit.ts), and brings the Portuguese strings of its
 * screens and errors.
 */
import { explainError, warnMissingToken } from '../diagnostics.js';
import { ERROR_TEXT } from '../error-text.js';
import { ptBRLater } from '../i18n/pt-br-later.js';
import { laterStyles } from '../later.styles.js';
import type { Kit } from './kit.js';
import { sessionSteps } from '../session-later.js';
import { laterView } from './later-view.js';
import { openFinanceScreens } from './openfinance.js';
import { outcomeScreens } from './outcome.js';
import { startScreens } from './start-later.js';

export default (kit: Kit) => {
  // Portuguese's strings of these screens, into the entry's catalog (English and Spanish hold all theirs).
  Object.assign(kit.ptBR, ptBRLater);
  const screens = { ...outcomeScreens(kit), ...startScreens(kit), ...openFinanceScreens(kit) };
  const steps = sessionSteps(kit);
  return {
    styles: laterStyles(kit),
    ...screens,
    render: laterView(kit, screens, steps),
    createFailed: steps.createFailed,
    lookForPayment: steps.lookForPayment,
    errorTexts: ERROR_TEXT,
    explainError,
    warnMissingToken,
  };
};
