/**
 * The steps of the checkout flow that only screens of the lazy chunk lead to: typing in the payer form and sending
 * it, the ways on from a refused CPF, a new checkout after an outcome, going on with another tab's live checkout. In
 * the chunk with those screens (views/screens.ts); they drive the entry's `CheckoutSession` through its public methods.
 * Also what a failed create and an expired code lead to, which those screens show.
 */
import { checkPayer, typedCpfProblem } from './cpf-input.js';
import type { Method } from '../core/methods.js';
import type { CheckoutSession, Payer } from './session.js';
import type { RefusalCode } from './session-state.js';
import type { Kit } from './views/kit.js';

const REFUSALS: readonly string[] = ['payer_cpf_invalid', 'payer_refused'] satisfies RefusalCode[];
const isRefusal = (code: string): code is RefusalCode => REFUSALS.includes(code);
/** A create the BFF is still preparing (it bounds each wait) is asked again this often, this many times. */
const [PENDING_RETRY_MS, PENDING_RETRIES] = [1_500, 4];

export function sessionSteps({ PAYER_CPF, CheckoutApiError }: Pick<Kit, 'PAYER_CPF' | 'CheckoutApiError'>) {
  return {
    /**
     * A create that failed in a way with its own way on: a refused CPF (its screen), a payment the BFF is still
     * preparing (asked again, a few times), a method that needs the payer (the form). False for any other failure.
     */
    createFailed(session: CheckoutSession, error: unknown, method: Method, payer: Payer | undefined, confirmations: number): boolean {
      if (!(error instanceof CheckoutApiError)) return false;
      const { strings } = session.host;
      if (isRefusal(error.code)) {
        if (payer) session.refused.add(payer.cpf);
        session.set({ screen: { name: 'refused', method, code: error.code } });
        session.announceFailure(strings.refusedTitle, error);
        session.report(error);
      } else if (error.code === 'checkout_pending' && confirmations < PENDING_RETRIES) {
        if (confirmations === 0) session.announce(strings.confirming);
        const { run } = session;
        setTimeout(() => run === session.run && void session.start(method, payer, confirmations + 1), PENDING_RETRY_MS);
        session.set({ screen: { name: 'loading', confirming: true } });
      } else if (error.code === 'payer_required') {
        session.set({ screen: { name: 'payer', method }, cpfProblem: 'cpfRequired' });
      } else {
        return false;
      }
      return true;
    },

    /** The payer typed in the CPF field (already masked): a wrong or refused CPF is flagged once all digits are there. */
    typeCpf(session: CheckoutSession, cpf: string): void {
      session.set({ cpf, cpfProblem: typedCpfProblem(cpf, session.refused) });
    },

    /** Checks the payer form; sends it when it is fine. False when the CPF field needs the payer's attention. */
    submitPayer(session: CheckoutSession): boolean {
      const { screen, cpf, payerName } = session.state;
      if (screen.name !== 'payer') return true;
      const { problem, payer } = checkPayer(PAYER_CPF[screen.method] === 'required', cpf, payerName, session.refused);
      session.set({ cpfProblem: problem });
      if (problem) return false;
      void session.start(screen.method, payer);
      return true;
    },

    /** After a refused CPF: the form again, the CPF field empty. */
    useAnotherCpf(session: CheckoutSession): void {
      const { screen, checkout } = session.state;
      const method = screen.name === 'refused' ? screen.method : (checkout?.method ?? session.offered[0]!);
      session.set({ screen: { name: 'payer', method }, cpf: '', cpfProblem: undefined });
    },

    /** After a refused CPF: PIX, anonymous when the refused one was an identified PIX. */
    payWithPix(session: CheckoutSession): void {
      const { screen } = session.state;
      session.set({ cpf: '', cpfProblem: undefined });
      if (screen.name === 'refused' && screen.method === 'pix') void session.start('pix');
      else session.choose('pix');
    },

    /**
     * The BFF expired the code on screen: its window passed, or an older code of the order was paid late (in another
     * tab, say, or from a bank app still holding it), which the order's checkout then is. Its receipt wins.
     */
    lookForPayment(session: CheckoutSession): void {
      const { orderId, orderToken } = session.host;
      if (!orderToken) return;
      const { run } = session;
      session.client.forOrder(orderId, orderToken).then(
        (checkout) => {
          if (run === session.run && checkout?.state === 'Completed') session.show(checkout, true);
        },
        () => undefined,
      );
    },

    /** A new checkout of the same method (Expired, Error, Cancelled, Reversed), with the payer given before. */
    renew(session: CheckoutSession): void {
      const method = session.state.checkout?.method ?? session.offered[0]!;
      const payer = session.lastPayer;
      if (PAYER_CPF[method] === 'required' && !payer) session.choose(method);
      else void session.start(method, payer);
    },
  };
}
