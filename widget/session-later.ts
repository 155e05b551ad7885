/**
 * The steps of the checkout flow that only screens of the lazy chunk lead to: typing in the payer form and sending
 * it, the ways on from a refused CPF, a new checkout after an outcome, going on with another tab's live checkout. In
 * the chunk with those screens (views/later.ts); they drive the entry's `CheckoutSession` through its public methods.
 */
import { checkPayer, typedCpfProblem } from './cpf-input.js';
import type { CheckoutSession } from './session.js';
import type { Kit } from './views/kit.js';

export function sessionSteps({ PAYER_CPF }: Pick<Kit, 'PAYER_CPF'>) {
  return {
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

    /** A new checkout of the same method (Expired, Error, Cancelled, Reversed), with the payer given before. */
    renew(session: CheckoutSession): void {
      const method = session.state.checkout?.method ?? session.offered[0]!;
      const payer = session.lastPayer;
      if (PAYER_CPF[method] === 'required' && !payer) session.choose(method);
      else void session.start(method, payer);
    },
  };
}
